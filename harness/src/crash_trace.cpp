// Crash traces, and the report of a denied system call (SIGSYS from the
// judge's seccomp filter: "judge-denied-syscall: N", the call's number).
//
// When the runner dies of SIGABRT (a failed _GLIBCXX_ASSERTIONS
// check, std::terminate), SIGSEGV, SIGBUS, SIGFPE or SIGILL, it writes the
// addresses of its own stack frames to stderr, relative to where the runner
// binary is loaded, as one line:
//
//   judge-crash-trace: pc=0x1a2b 0x3c4d ...
//
// `pc=` is the faulting instruction itself (a fault, not a call: SIGSEGV,
// SIGBUS, SIGFPE, SIGILL on x86-64 and AArch64); the others are return
// addresses, innermost first.
//
// The judge maps them to the learner's file and line with addr2line (the
// runner is compiled with -g1) and shows the first one in the learner's file.
// Then the signal takes its default action, so the judge still sees how the
// runner died. Everything in the handler is async-signal-safe but
// backtrace(), which is warmed up at install time so it never loads a
// library inside the handler.
#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <strings.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace judge_harness {
namespace {
constexpr int kMaxFrames = 48;
constexpr int kSignals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};

std::uintptr_t load_bias = 0;  // added to the file's addresses when loaded
std::uintptr_t text_begin = 0, text_end = 0;
alignas(16) char alternate_stack[64 * 1024];  // a stack overflow still gets a trace

int find_program(dl_phdr_info* info, std::size_t, void*) {
  // The first object is the program itself.
  load_bias = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_X)) continue;
    std::uintptr_t begin = load_bias + segment.p_vaddr, end = begin + segment.p_memsz;
    if (text_begin == 0 || begin < text_begin) text_begin = begin;
    if (end > text_end) text_end = end;
  }
  return 1;
}

char* append(char* out, const char* text) {
  while (*text) *out++ = *text++;
  return out;
}

char* append_hex(char* out, std::uintptr_t value) {
  char digits[2 * sizeof value];
  int count = 0;
  do digits[count++] = "0123456789abcdef"[value & 0xf];
  while ((value >>= 4) != 0);
  out = append(out, "0x");
  while (count > 0) *out++ = digits[--count];
  return out;
}

bool in_program(std::uintptr_t address) { return address >= text_begin && address < text_end; }

// The address of the faulting instruction, or 0 when unknown.
std::uintptr_t faulting_pc(int signal_number, const void* context) {
  if (signal_number == SIGABRT || !context) return 0;
  const auto* machine = &static_cast<const ucontext_t*>(context)->uc_mcontext;
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(machine->gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<std::uintptr_t>(machine->pc);
#else
  (void)machine;
  return 0;
#endif
}

void on_fatal_signal(int signal_number, siginfo_t*, void* context) {
  void* frames[kMaxFrames];
  int count = backtrace(frames, kMaxFrames);
  char line[64 + kMaxFrames * 20];
  char* end = append(line, "\njudge-crash-trace:");
  std::uintptr_t pc = faulting_pc(signal_number, context);
  int first = 0;
  if (pc != 0 && in_program(pc)) {
    end = append_hex(append(end, " pc="), pc - load_bias);
    // The frames up to the faulting one are the handler's own.
    for (int i = 0; i < count; ++i)
      if (reinterpret_cast<std::uintptr_t>(frames[i]) == pc) first = i + 1;
  }
  for (int i = first; i < count; ++i) {
    auto address = reinterpret_cast<std::uintptr_t>(frames[i]);
    if (in_program(address)) end = append_hex(append(end, " "), address - load_bias);
  }
  *end++ = '\n';
  [[maybe_unused]] ssize_t written = write(2, line, static_cast<std::size_t>(end - line));
  // Die of the same signal: pending until this handler returns (for a fault,
  // the instruction runs again and faults under the default action).
  ::signal(signal_number, SIG_DFL);
  raise(signal_number);
}
}  // namespace

namespace {
// JUDGE_NO_CRASH_TRACE reads as the judge's boolean flags do: 1, true or
// yes (any case) is on, anything else off.
bool crash_trace_disabled() {
  const char* text = std::getenv("JUDGE_NO_CRASH_TRACE");
  if (!text) return false;
  for (const char* on : {"1", "true", "yes"})
    if (strcasecmp(text, on) == 0) return true;
  return false;
}

// A call the judge's system-call filter denied: name it for the judge
// ("judge-denied-syscall: 41"), then die of the signal.
void on_denied_syscall(int signal_number, siginfo_t* info, void*) {
  char line[64] = "judge-denied-syscall: ";
  char* end = line + std::strlen(line);
  char digits[16];
  int count = 0;
  for (unsigned number = static_cast<unsigned>(info->si_syscall); count == 0 || number > 0; number /= 10)
    digits[count++] = static_cast<char>('0' + number % 10);
  while (count > 0) *end++ = digits[--count];
  *end++ = '\n';
  [[maybe_unused]] ssize_t written = write(2, line, static_cast<std::size_t>(end - line));
  ::signal(signal_number, SIG_DFL);
  raise(signal_number);
}
}  // namespace

void install_denied_syscall_report() {
  struct sigaction action {};
  action.sa_sigaction = on_denied_syscall;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSYS, &action, nullptr);
}

void install_crash_trace() {
  // The judge turns traces off under sanitizers, which print their own.
  if (crash_trace_disabled()) return;
  dl_iterate_phdr(find_program, nullptr);
  if (text_begin == 0) return;
  void* warm_up[2];
  backtrace(warm_up, 2);  // loads the unwinder now, not in the handler
  stack_t stack{};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_sigaction = on_fatal_signal;
  action.sa_flags = SA_ONSTACK | SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  for (int signal_number : kSignals) sigaction(signal_number, &action, nullptr);
}

}  // namespace judge_harness
