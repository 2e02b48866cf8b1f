// judge: the command-line entry point. Sets up the process, then runs the
// command line (cli/command_table.cpp).
#include <malloc.h>

#include <csignal>

#include "cli/command.hpp"
#include "sandbox/cleanup.hpp"

namespace {
// Requests and replies of large cases are megabytes of numbers, built and
// freed for every call. By default glibc hands such blocks back to the
// kernel at once, and every call then pays a page fault per 4 KiB again:
// on a virtual machine that was most of the time of a 262,144-token case.
// Keeping freed memory for reuse costs at most the largest case's size.
void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}
}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a runner that dies mid-write must not take the judge along
  keep_freed_memory();
  judge::install_termination_cleanup();
  return judge::run_command_line(argc, argv);
}
