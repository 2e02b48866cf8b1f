#include "util/cancel_signal.hpp"

#include <fcntl.h>
#include <unistd.h>

namespace judge {

CancelSignal::CancelSignal() {
  if (pipe2(pipe_, O_CLOEXEC | O_NONBLOCK) != 0) pipe_[0] = pipe_[1] = -1;
}

CancelSignal::~CancelSignal() {
  for (int fd : pipe_)
    if (fd >= 0) close(fd);
}

void CancelSignal::raise() {
  if (raised_.exchange(true)) return;
  if (pipe_[1] < 0) return;
  // The byte is never read: the descriptor stays readable from now on.
  [[maybe_unused]] ssize_t n = write(pipe_[1], "x", 1);
}

}  // namespace judge
