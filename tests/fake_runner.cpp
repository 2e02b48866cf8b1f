// A runner that never speaks the protocol properly, for RunnerSession tests.
// What it does is chosen by the name it is started under (the tests copy it
// to "silent", "exits_3", ...), because the judge passes runners no arguments.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {
void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n <= 0) return;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}
}  // namespace

int main(int, char** argv) {
  std::string name = argv[0];
  name = name.substr(name.rfind('/') + 1);
  if (name == "silent") {
    sleep(100);
  } else if (name == "ignores_sigterm") {
    signal(SIGTERM, SIG_IGN);
    for (;;) pause();
  } else if (name == "exits_3") {
    return 3;
  } else if (name == "segfault") {
    raise(SIGSEGV);
  } else if (name == "no_nonce") {
    write_all(3, "\5\0\0\0hello", 9);
    sleep(100);
  } else if (name == "oversized") {
    write_all(3, "xxxxxxxx", 8);
    sleep(100);
  } else if (name == "closes_channel") {
    close(3);
    sleep(100);
  } else if (name == "forks_to_the_cap") {
    // Only under the judge's process cap (the tests make sure of it).
    while (fork() >= 0) {
    }
    sleep(100);
  } else if (name == "prints") {
    write_all(1, "hello\n", 6);
    write_all(2, "world\n", 6);
    return 1;
  }
  return 99;
}
