// Reading sanitizer reports, failed library checks and crash traces.
#include "check/crash_report.hpp"

#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

#include "check/addr2line_run.hpp"
#include "sandbox/syscall_filter.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
constexpr const char* kTraceMarker = "judge-crash-trace:";

// A report line is a few hundred characters; what the learner's code
// printed may be anything. Lines are cut to this before any regular
// expression sees them (std::regex recurses per character).
constexpr std::size_t kMaxMatchedReportLine = 2000;

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.size() > kMaxMatchedReportLine) line.resize(kMaxMatchedReportLine);
    lines.push_back(line);
  }
  return lines;
}

// Numbers in text the learner's code may have printed: never throw, 0 when
// not a number or out of range.
std::uint64_t parse_number(const std::string& text, int base = 10) {
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return error == std::errc() ? value : 0;
}
int parse_line(const std::string& text) {
  std::uint64_t value = parse_number(text);
  return value > 100000000 ? 0 : static_cast<int>(value);
}

bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  if (fs::path(a).lexically_normal() == fs::path(b).lexically_normal()) return true;
  std::error_code error_a, error_b;
  fs::path canonical_a = fs::weakly_canonical(a, error_a), canonical_b = fs::weakly_canonical(b, error_b);
  return !error_a && !error_b && canonical_a == canonical_b;
}

// A frame of a sanitizer stack: "#3 0x55d0c1e0 in f(int) (/path/runner+0x1c3b)",
// or symbolized: "#3 0x55d0c1e0 in f(int) /path/file.hpp:23:5".
struct StackFrame {
  std::string module;  // with an offset
  std::uint64_t offset = 0;
  SourceFrame source;  // when the sanitizer symbolized it
};

std::optional<StackFrame> parse_stack_frame(const std::string& line) {
  static const std::regex kFrame(R"(^\s*#\d+ 0x[0-9a-fA-F]+ (.*)$)");
  static const std::regex kModule(R"(\(([^()]+)\+0x([0-9a-fA-F]+)\)\s*$)");
  static const std::regex kSource(R"(^in (.*) (\S+):(\d+)(?::\d+)?\s*$)");
  std::smatch match;
  if (!std::regex_match(line, match, kFrame)) return std::nullopt;
  std::string body = match[1];
  StackFrame frame;
  if (std::regex_search(body, match, kModule)) {
    frame.module = match[1];
    frame.offset = parse_number(match[2], 16);
  } else if (std::regex_match(body, match, kSource)) {
    frame.source = {match[1], match[2], parse_line(match[3])};
  }
  return frame;
}

// "std::vector<_Tp, _Alloc>::reference std::vector<_Tp, _Alloc>::operator[](size_type) [with ...]"
// gives "std::vector::operator[]".
std::string library_function(const std::string& signature) {
  std::string head = signature.substr(0, signature.find(" [with "));
  static const std::regex kMember(
      R"((std::(?:__cxx11::|__debug::)?\w+)(?:<[^()]*>)?::(operator\[\]|operator\*|operator->|~?\w+)\s*\()");
  static const std::regex kInlineNamespace("__cxx11::|__debug::");
  std::string found;
  for (std::sregex_iterator it(head.begin(), head.end(), kMember), end; it != end; ++it)
    found = std::regex_replace((*it)[1].str(), kInlineNamespace, "") + "::" + (*it)[2].str();
  return found;
}

// A failed assert(): glibc prints "PROGRAM: FILE:LINE: FUNCTION: Assertion
// `CONDITION' failed." Eigen's checks are such asserts, with a signature of
// several hundred characters; its first useful words are the condition.
std::string describe_assertion(const std::string& file, const std::string& line, const std::string& signature,
                               const std::string& condition) {
  if (file.find("/Eigen/") != std::string::npos) {
    std::string head = signature.substr(0, signature.find(" [with "));
    static const std::regex kEigenMember(R"((Eigen::\w+)(?:<[^()]*>)?::(operator\(\)|operator\[\]|~?\w+)\s*\()");
    std::smatch match;
    std::string function = std::regex_search(head, match, kEigenMember) ? match[1].str() + "::" + match[2].str() : "";
    bool index = condition.find("rows()") != std::string::npos || condition.find("size()") != std::string::npos;
    return fmt::format("Eigen assertion failed{}: '{}'{}", function.empty() ? "" : " in " + function, condition,
                       index ? " (an index out of range?)" : "");
  }
  return fmt::format("assertion failed: '{}' ({}:{})", condition, file.substr(file.rfind('/') + 1), line);
}

std::string describe_library_check(const std::string& signature, const std::string& condition) {
  std::string function = library_function(signature);
  if (function.empty()) function = "the standard library";
  if (condition.find("__n < this->size()") != std::string::npos || condition.find("__n < size()") != std::string::npos)
    return fmt::format("out-of-range index in {} (a _GLIBCXX_ASSERTIONS check)", function);
  if (condition.find("empty()") != std::string::npos)
    return fmt::format("{} on an empty container (a _GLIBCXX_ASSERTIONS check)", function);
  return fmt::format("a _GLIBCXX_ASSERTIONS check failed in {}: '{}'", function, condition);
}

// Trims a sanitizer's headline to what a learner needs.
std::string asan_headline(const std::string& tool, std::string text) {
  std::size_t cut = text.find(" (pc ");
  if (cut == std::string::npos) cut = text.find(" at pc ");
  text = text.substr(0, cut);
  if (text.rfind("SEGV", 0) != 0) text = text.substr(0, text.find(" on address "));
  return tool + ": " + text;
}
}  // namespace

std::vector<std::vector<SourceFrame>> addr2line_symbolizer(const std::string& binary,
                                                           const std::vector<std::uint64_t>& addresses) {
  std::vector<std::vector<SourceFrame>> chains(addresses.size());
  if (addresses.empty()) return chains;
  std::vector<std::string> arguments = {"-f", "-C", "-i", "-a"};
  for (std::uint64_t address : addresses) arguments.push_back(fmt::format("0x{:x}", address));
  std::optional<std::string> output = run_addr2line(binary, arguments);
  if (!output) return chains;
  // "0x...." starts an address; then function and file:line pairs, innermost first.
  std::vector<std::string> lines = split_lines(*output);
  int index = -1;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("0x", 0) == 0) {
      ++index;
      continue;
    }
    if (index < 0 || index >= static_cast<int>(chains.size()) || i + 1 >= lines.size()) continue;
    SourceFrame frame;
    frame.function = lines[i];
    const std::string& place = lines[++i];
    std::size_t colon = place.rfind(':');
    frame.file = place.substr(0, colon);
    if (colon != std::string::npos) {
      std::string number = place.substr(colon + 1, place.find_first_not_of("0123456789", colon + 1) - colon - 1);
      frame.line = parse_line(number);
    }
    chains[static_cast<std::size_t>(index)].push_back(frame);
  }
  return chains;
}

namespace {
// What a crashed runner's output says, line by line: the first sanitizer
// report and its stack, a failed library check, std::terminate's message,
// and the harness's crash trace.
class CrashOutput {
 public:
  explicit CrashOutput(const std::string& output) : lines_(split_lines(output)) {
    for (i_ = 0; i_ < lines_.size(); ++i_) read_line(lines_[i_]);
  }

  // The headline: a failed check wins over the abort it causes.
  std::string what() const {
    bool abort_of_check = !check_.empty() && (sanitizer_.empty() || sanitizer_.find("ABRT") != std::string::npos);
    if (abort_of_check) return check_;
    return !sanitizer_.empty() ? sanitizer_ : terminate_;
  }
  bool found() const { return trace_found_ || !what().empty(); }
  bool memory_limit() const { return memory_limit_; }
  const std::optional<SourceFrame>& undefined_at() const { return undefined_at_; }
  const std::vector<StackFrame>& frames() const { return frames_; }
  const std::vector<std::uint64_t>& trace() const { return trace_; }

 private:
  void read_line(const std::string& line) {
    static const std::regex kSanitizerError(
        R"(^==\d+==ERROR: (AddressSanitizer|LeakSanitizer|ThreadSanitizer|MemorySanitizer): (.*)$)");
    static const std::regex kRssLimit(R"(^==\d+==(AddressSanitizer): hard rss limit exhausted \((\d+)Mb vs (\d+)Mb\))");
    static const std::regex kUndefined(R"(^(.*?):(\d+):(\d+): runtime error: (.*)$)");
    static const std::regex kLibraryCheck(R"(^(\S+):(\d+): (.*): Assertion '(.*)' failed\.\s*$)");
    static const std::regex kAssertion(R"(^(?:[^:\s]+: )?(\S+):(\d+): (.*): Assertion `(.*)' failed\.\s*$)");
    static const std::regex kTerminate(R"(^terminate called after throwing an instance of '(.*)'$)");
    std::smatch match;
    if (std::regex_match(line, match, kSanitizerError) && sanitizer_.empty()) {
      sanitizer_error(match[1], match[2]);
    } else if (std::regex_search(line, match, kRssLimit)) {
      memory_limit_ = true;
      // "(limit vs now)"
      sanitizer_ = fmt::format("{}: resident memory {} MiB over the limit of {} MiB", match[1].str(), match[3].str(),
                               match[2].str());
    } else if (std::regex_match(line, match, kUndefined) && sanitizer_.empty()) {
      sanitizer_ = "UndefinedBehaviorSanitizer: " + match[4].str();
      undefined_at_ = SourceFrame{"", match[1], parse_line(match[2])};
      in_stack_ = !stack_done_;
    } else if (std::regex_match(line, match, kLibraryCheck) && check_.empty()) {
      check_ = describe_library_check(match[3], match[4]);
    } else if (std::regex_match(line, match, kAssertion) && check_.empty()) {
      check_ = describe_assertion(match[1], match[2], match[3], match[4]);
    } else if (std::regex_match(line, match, kTerminate) && terminate_.empty()) {
      terminated(match[1]);
    } else if (line.rfind(kTraceMarker, 0) == 0 && trace_.empty()) {
      crash_trace(line);
    } else if (in_stack_) {
      stack_line(line);
    }
  }

  void sanitizer_error(const std::string& tool, const std::string& text) {
    static const std::regex kAccess(R"(^(READ|WRITE) of size (\d+) at )");
    sanitizer_ = asan_headline(tool, text);
    std::smatch match;
    if (i_ + 1 < lines_.size() && std::regex_search(lines_[i_ + 1], match, kAccess))
      sanitizer_ += fmt::format(" ({} of size {})", match[1].str(), match[2].str());
    in_stack_ = !stack_done_;
  }

  void terminated(const std::string& type) {
    static const std::regex kWhat(R"(^\s+what\(\):\s+(.*)$)");
    terminate_ = fmt::format("std::terminate: uncaught {}", type);
    std::smatch match;
    if (i_ + 1 < lines_.size() && std::regex_match(lines_[i_ + 1], match, kWhat)) terminate_ += ": " + match[1].str();
    terminate_ += " (thrown out of a noexcept function or a destructor?)";
  }

  void crash_trace(const std::string& line) {
    std::istringstream addresses(line.substr(std::string(kTraceMarker).size()));
    std::string word;
    while (addresses >> word) {
      // pc= is the faulting instruction; the rest are return addresses,
      // whose call is the instruction just before.
      bool exact = word.rfind("pc=", 0) == 0;
      std::string digits = word.substr(exact ? 3 : 0);
      if (digits.rfind("0x", 0) == 0) digits.erase(0, 2);
      std::uint64_t address = parse_number(digits, 16);
      if (address > 0) trace_.push_back(exact ? address : address - 1);
    }
    trace_found_ = true;
  }

  void stack_line(const std::string& line) {
    if (auto frame = parse_stack_frame(line)) {
      frames_.push_back(*frame);
    } else if (!frames_.empty()) {
      in_stack_ = false;
      stack_done_ = true;
    }
  }

  std::vector<std::string> lines_;
  std::size_t i_ = 0;
  std::string sanitizer_, check_, terminate_;
  bool memory_limit_ = false;
  std::optional<SourceFrame> undefined_at_;  // UBSan's own location
  std::vector<StackFrame> frames_;           // the first sanitizer stack
  std::vector<std::uint64_t> trace_;         // the harness's crash trace
  bool trace_found_ = false;
  bool in_stack_ = false, stack_done_ = false;
};

// Where: the innermost frame in the learner's file, sanitizer stack first,
// then the crash trace. Sets report->where and report->function.
void locate(const CrashOutput& crash, const CrashContext& context, const Symbolizer& symbolize, CrashReport* report) {
  auto take = [&](const SourceFrame& frame) {
    std::string file = frame.file;
    if (!file.empty() && file[0] != '/' && !context.compile_dir.empty()) file = context.compile_dir + "/" + file;
    if (!report->where.empty() || frame.line <= 0 || !same_file(file, context.solution_path)) return;
    report->where = fmt::format("{}:{}", context.solution_display, frame.line);
    report->function = frame.function;
  };
  if (crash.undefined_at()) take(*crash.undefined_at());
  const std::vector<StackFrame>& frames = crash.frames();
  std::vector<std::uint64_t> addresses;
  std::vector<int> frame_address(frames.size(), -1);
  std::string binary_name = fs::path(context.binary).filename().string();
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].module.empty()) continue;
    if (!same_file(frames[i].module, context.binary) && fs::path(frames[i].module).filename() != binary_name) continue;
    frame_address[i] = static_cast<int>(addresses.size());
    addresses.push_back(frames[i].offset);
  }
  std::size_t trace_start = addresses.size();
  addresses.insert(addresses.end(), crash.trace().begin(), crash.trace().end());
  std::vector<std::vector<SourceFrame>> chains;
  if (!addresses.empty()) chains = symbolize(context.binary, addresses);
  chains.resize(addresses.size());
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frame_address[i] >= 0)
      for (const SourceFrame& source : chains[static_cast<std::size_t>(frame_address[i])]) take(source);
    else
      take(frames[i].source);
  }
  for (std::size_t i = trace_start; i < chains.size(); ++i)
    for (const SourceFrame& source : chains[i]) take(source);
}
}  // namespace

std::optional<CrashReport> read_crash_report(const std::string& output, const CrashContext& context,
                                             const Symbolizer& symbolize) {
  CrashOutput crash(output);
  if (!crash.found()) return std::nullopt;
  CrashReport report;
  report.what = crash.what();
  report.memory_limit = crash.memory_limit();
  locate(crash, context, symbolize, &report);
  return report;
}

std::string without_crash_trace(const std::string& output) {
  std::string out;
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    std::size_t next = end == std::string::npos ? output.size() : end + 1;
    if (output.compare(start, std::string(kTraceMarker).size(), kTraceMarker) != 0)
      out.append(output, start, next - start);
    start = next;
  }
  // The trace starts with a newline of its own.
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out == "\n" ? "" : out;
}

namespace {
// A call the system-call filter denied: the harness names it on stderr
// ("judge-denied-syscall: N"); without the harness's handler (under
// --sanitize) only the signal tells.
bool explain_denied_syscall(TestResult* result) {
  const std::string marker = std::string(kDeniedSyscallMarker) + " ";
  std::size_t at = result->output.rfind(marker);
  bool named = at != std::string::npos;
  if (!named && result->failure_kind != fmt::format("signal:{}", SIGSYS)) return false;
  result->verdict = Verdict::kRuntimeError;
  result->failure_kind = "denied_syscall";
  if (!named) {
    result->message =
        "killed by the system-call filter: a system call the judge's sandbox does not allow "
        "(sockets, new processes, namespaces, ptrace and the like)";
    return true;
  }
  std::size_t end = result->output.find('\n', at);
  std::string number =
      result->output.substr(at + marker.size(), end == std::string::npos ? end : end - at - marker.size());
  result->message = fmt::format(
      "the system call {} is not allowed: the judge's sandbox denies it (sockets, new "
      "processes, namespaces, ptrace and the like)",
      syscall_name(static_cast<int>(parse_number(number))));
  result->output.erase(at, end == std::string::npos ? std::string::npos : end + 1 - at);
  return true;
}
}  // namespace

void explain_crash(const CrashContext& context, TestResult* result) {
  bool died = result->failure_kind == "died" || result->failure_kind.rfind("signal:", 0) == 0;
  if (!died) return;
  if (explain_denied_syscall(result)) return;
  if (result->output.empty()) return;
  // A runner that crashes in one case usually crashes in many at the same
  // addresses: addr2line (a quarter second on a cold binary) runs once per set.
  static std::mutex mutex;
  static std::map<std::string, std::vector<std::vector<SourceFrame>>> known;
  auto memoized = [](const std::string& binary, const std::vector<std::uint64_t>& addresses) {
    std::string key = binary;
    for (std::uint64_t address : addresses) key += fmt::format(" {:x}", address);
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (auto found = known.find(key); found != known.end()) return found->second;
    }
    std::vector<std::vector<SourceFrame>> chains = addr2line_symbolizer(binary, addresses);
    std::lock_guard<std::mutex> lock(mutex);
    if (known.size() > 256) known.clear();  // bounded for a long `grade`
    return known[key] = chains;
  };
  std::optional<CrashReport> report = read_crash_report(result->output, context, memoized);
  result->output = without_crash_trace(result->output);
  if (!report) return;
  std::string place = report->where.empty() ? "" : " at " + report->where;
  if (report->memory_limit) {
    result->verdict = Verdict::kMemoryLimitExceeded;
    result->message = report->what + " (under --sanitize, resident memory is limited instead of address space)";
  } else if (!report->what.empty()) {
    result->verdict = Verdict::kRuntimeError;
    result->message = report->what + place;
  } else {
    result->message += place;  // only a crash trace: keep "killed by SIGSEGV ..." and add the line
  }
}

}  // namespace judge
