// A runner that never speaks the protocol properly, for RunnerSession tests.
// What it does is chosen by the name it is started under (the tests copy it
// to "silent", "exits_3", ...), because the judge passes runners no arguments.
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <initializer_list>
#include <string>
#include <thread>

namespace {
void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n <= 0) return;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}
// Reads one frame (4-byte little-endian length, then the payload).
std::string read_frame(int fd) {
  unsigned char header[4];
  if (read(fd, header, 4) != 4) return "";
  std::size_t size = header[0] | header[1] << 8 | header[2] << 16 | static_cast<std::size_t>(header[3]) << 24;
  std::string payload(size, '\0');
  std::size_t got = 0;
  while (got < size) {
    ssize_t n = read(fd, payload.data() + got, size - got);
    if (n <= 0) return "";
    got += static_cast<std::size_t>(n);
  }
  return payload;
}

// Writes one frame: the payload's 4-byte little-endian length, then it.
void write_frame(int fd, const std::string& payload) {
  std::uint32_t size = static_cast<std::uint32_t>(payload.size());
  char header[4] = {static_cast<char>(size), static_cast<char>(size >> 8), static_cast<char>(size >> 16),
                    static_cast<char>(size >> 24)};
  write_all(fd, header, 4);
  write_all(fd, payload.data(), payload.size());
}

// Says it is ready, as the harness does on reaching main(): the greeting's
// nonce sent back alone.
void say_ready() { write_frame(3, read_frame(3)); }

// Answers the first request with a hand-made CBOR reply {"value": <value>},
// signed with the nonce of the judge's greeting, after `work` (if any).
void reply_with_value(const std::string& cbor_value, void (*work)() = nullptr) {
  std::string nonce = read_frame(3);
  read_frame(3);  // the request
  if (work) work();
  write_frame(3, nonce + "\xa1\x65value" + cbor_value);
  sleep(100);
}

// 200 ms of CPU on a second thread, which the calling thread waits for:
// counted by the thread's own CPU clock, so a busy machine only makes it
// take longer.
void spin_on_a_thread() {
  std::thread([] {
    auto thread_cpu_ms = [] {
      timespec now{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
      return now.tv_sec * 1000.0 + now.tv_nsec / 1e6;
    };
    double end = thread_cpu_ms() + 200;
    volatile double sink = 0;
    while (thread_cpu_ms() < end) sink = sink + 1;
  }).join();
}

template <typename T>
std::string packed_bytes(std::initializer_list<T> numbers) {
  std::string bytes;
  for (T number : numbers) bytes.append(reinterpret_cast<const char*>(&number), sizeof number);
  return bytes;
}
std::string doubles_bytes(std::initializer_list<double> numbers) { return packed_bytes(numbers); }
}  // namespace

int main(int, char** argv) {
  std::string name = argv[0];
  name = name.substr(name.rfind('/') + 1);
  if (name == "silent") {
    say_ready();
    sleep(100);
  } else if (name == "silent_before_ready") {
    sleep(100);
  } else if (name == "ignores_sigterm") {
    signal(SIGTERM, SIG_IGN);
    say_ready();
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
  } else if (name == "typed_array_reply") {
    reply_with_value("\xd8\x56\x50" + doubles_bytes({1.5, -2.0}));  // tag 86, 16 bytes
  } else if (name == "int64_array_reply") {
    reply_with_value("\xd8\x4f\x50" + packed_bytes<std::int64_t>({3, -2}));  // tag 79, 16 bytes
  } else if (name == "float32_array_reply") {
    reply_with_value("\xd8\x55\x48" + doubles_bytes({1.5}));  // tag 85 (float32): not the protocol's
  } else if (name == "ragged_array_reply") {
    reply_with_value("\xd8\x56\x47" + doubles_bytes({1.5}).substr(0, 7));  // 7 bytes: not whole doubles
  } else if (name == "deeply_nested_reply") {
    // A million nested one-element lists: a decoder that recursed per level
    // would overflow the judge's stack.
    reply_with_value(std::string(1000000, '\x81') + '\x00');
  } else if (name == "spins") {
    say_ready();
    for (unsigned long i = 0;; ++i) asm volatile("" : : "r"(i));  // a loop the compiler keeps
  } else if (name == "starves") {
    // Computes as a task the kernel runs only when nothing else wants its
    // CPU: beside a busy thread on that CPU, it waits, runnable, for ever.
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof one, &one);
    sched_param idle{};
    sched_setscheduler(0, SCHED_IDLE, &idle);
    say_ready();
    for (unsigned long i = 0;; ++i) asm volatile("" : : "r"(i));  // a loop the compiler keeps
  } else if (name == "invalid_utf8_reply") {
    reply_with_value("\x62\xc3\x28");  // a text string whose second byte ends a sequence that never started
  } else if (name == "reply_not_a_map") {
    std::string nonce = read_frame(3);
    read_frame(3);
    write_frame(3, nonce + "\x81\x01");  // [1]
    sleep(100);
  } else if (name == "exception_what_not_text") {
    std::string nonce = read_frame(3);
    read_frame(3);
    // {"exception": "other", "type": "std::exception", "what": 7}
    write_frame(3, nonce +
                       "\xa3\x69"
                       "exception"
                       "\x65"
                       "other"
                       "\x64"
                       "type"
                       "\x6e"
                       "std::exception"
                       "\x64"
                       "what"
                       "\x07");
    sleep(100);
  } else if (name == "spins_on_a_thread") {
    reply_with_value("\x01", spin_on_a_thread);
  } else if (name == "prints") {
    write_all(1, "hello\n", 6);
    write_all(2, "world\n", 6);
    return 1;
  }
  return 99;
}
