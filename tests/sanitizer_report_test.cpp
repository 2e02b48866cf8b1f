// Crash explanations: sanitizer reports, failed _GLIBCXX_ASSERTIONS checks
// and the harness's crash trace, read into "what, at the learner's
// file:line" (unit tests with a fake symbolizer), and end to end: a heap
// overflow under --sanitize and an out-of-range std::vector index by default.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "check/crash_report.hpp"
#include "check/registry.hpp"
#include "judging/judging.hpp"
#include "package/problem.hpp"
#include "util/paths.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

const CrashContext kContext{"/cache/runners/top_p-0123", "/home/ada/workspace/top_p.hpp", "workspace/top_p.hpp"};

// Knows three addresses: one in the harness, one in the standard library
// inlined into the learner's function, one in the learner's caller.
std::vector<std::vector<SourceFrame>> fake_symbolizer(const std::string& binary,
                                                      const std::vector<std::uint64_t>& addresses) {
  EXPECT_EQ(binary, kContext.binary);
  std::vector<std::vector<SourceFrame>> chains;
  for (std::uint64_t address : addresses) {
    if (address == 0x1000)
      chains.push_back({{"serve_one", "/judge/harness/src/serve.cpp", 120}});
    else if (address == 0x2000)
      chains.push_back(
          {{"std::vector<double>::operator[](unsigned long)", "/usr/include/c++/12/bits/stl_vector.h", 1123},
           {"top_p_probs(std::vector<double> const&, double)", "/home/ada/workspace/top_p.hpp", 23}});
    else if (address == 0x3000)
      chains.push_back({{"helper()", "/home/ada/workspace/top_p.hpp", 40}});
    else
      chains.push_back({});
  }
  return chains;
}

CrashReport read(const std::string& output) {
  std::optional<CrashReport> report = read_crash_report(output, kContext, fake_symbolizer);
  EXPECT_TRUE(report.has_value()) << output;
  return report.value_or(CrashReport{});
}

TEST(CrashReport, AddressSanitizerReportNamesTheErrorAndTheLearnersLine) {
  CrashReport report = read(
      "=================================================================\n"
      "==2==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x603000000328 at pc 0x560d32b1026a bp "
      "0x7fff6b968530 sp 0x7fff6b968528\n"
      "READ of size 8 at 0x603000000328 thread T0\n"
      "    #0 0x560d32b10269  (/lib/x86_64-linux-gnu/libc.so.6+0x1000)\n"
      "    #1 0x560d32b0e872  (/cache/runners/top_p-0123+0x1001)\n"
      "    #2 0x560d32b0db9b  (/cache/runners/top_p-0123+0x2001)\n"
      "    #3 0x7f57f3c45249  (/cache/runners/top_p-0123+0x3001)\n"
      "\n"
      "0x603000000328 is located 0 bytes to the right of 24-byte region [0x603000000310,0x603000000328)\n"
      "allocated by thread T0 here:\n"
      "    #0 0x7f57f3c45249  (/cache/runners/top_p-0123+0x3000)\n");
  EXPECT_EQ(report.what, "AddressSanitizer: heap-buffer-overflow (READ of size 8)");
  EXPECT_EQ(report.where, "");  // the fake knows 0x2000, not 0x2001: ASan offsets are used as printed
  report = read(
      "==7==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6 at pc 0x5 bp 0x4 sp 0x3\n"
      "WRITE of size 4 at 0x6 thread T0\n"
      "    #0 0x5  (/cache/runners/top_p-0123+0x1000)\n"
      "    #1 0x5  (/cache/runners/top_p-0123+0x2000)\n"
      "    #2 0x5  (/cache/runners/top_p-0123+0x3000)\n");
  EXPECT_EQ(report.what, "AddressSanitizer: heap-buffer-overflow (WRITE of size 4)");
  EXPECT_EQ(report.where, "workspace/top_p.hpp:23")
      << "the innermost frame in the learner's file, inlined ones included";
  EXPECT_EQ(report.function, "top_p_probs(std::vector<double> const&, double)");
}

TEST(CrashReport, AFailedAssertIsCutToItsCondition) {
  CrashReport eigen = read(
      "speculative_decoding-a680: /usr/include/eigen3/Eigen/src/Core/DenseCoeffsBase.h:118: "
      "Eigen::DenseCoeffsBase<Derived, 0>::CoeffReturnType Eigen::DenseCoeffsBase<Derived, "
      "0>::operator()(Eigen::Index, Eigen::Index) const [with Derived = Eigen::Matrix<double, -1, -1>; "
      "CoeffReturnType = const double&; Eigen::Index = long int]: Assertion `row >= 0 && row < rows() && col >= 0 && "
      "col < cols()' failed.\n");
  EXPECT_EQ(eigen.what,
            "Eigen assertion failed in Eigen::DenseCoeffsBase::operator(): 'row >= 0 && row < rows() && col >= 0 && "
            "col < cols()' (an index out of range?)");
  CrashReport own = read("top_p-0123: /home/ada/workspace/top_p.hpp:12: int f(int): Assertion `x > 0' failed.\n");
  EXPECT_EQ(own.what, "assertion failed: 'x > 0' (top_p.hpp:12)");
}

TEST(CrashReport, SegvKeepsTheAddressOtherErrorsDropIt) {
  CrashReport report = read(
      "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x55 bp 0x7f sp 0x7f T0)\n"
      "==1==The signal is caused by a WRITE memory access.\n"
      "    #0 0x5  (/cache/runners/top_p-0123+0x3000)\n");
  EXPECT_EQ(report.what, "AddressSanitizer: SEGV on unknown address 0x000000000000");
  EXPECT_EQ(report.where, "workspace/top_p.hpp:40");
  report = read("==1==ERROR: AddressSanitizer: stack-overflow on address 0x7ffd (pc 0x55 bp 0x7f sp 0x7f T0)\n");
  EXPECT_EQ(report.what, "AddressSanitizer: stack-overflow");
}

TEST(CrashReport, UndefinedBehaviorSanitizerGivesItsOwnLocation) {
  CrashReport report = read(
      "/home/ada/workspace/top_p.hpp:6:7: runtime error: signed integer overflow: 2147483647 + 3 cannot be represented "
      "in type 'int'\n");
  EXPECT_EQ(report.what,
            "UndefinedBehaviorSanitizer: signed integer overflow: 2147483647 + 3 cannot be represented in type 'int'");
  EXPECT_EQ(report.where, "workspace/top_p.hpp:6");
}

TEST(CrashReport, ResidentMemoryLimitIsAMemoryVerdict) {
  // As libasan 8 prints it: the limit, then the resident memory.
  CrashReport report =
      read("==9==AddressSanitizer: hard rss limit exhausted (1792Mb vs 1800Mb)\n==9==Process memory map follows:\n");
  EXPECT_TRUE(report.memory_limit);
  EXPECT_EQ(report.what, "AddressSanitizer: resident memory 1800 MiB over the limit of 1792 MiB");
}

struct LibraryCheckCase {
  std::string assertion;
  std::string what;
};

TEST(CrashReport, GlibcxxAssertionsAreNamedInWords) {
  const LibraryCheckCase cases[] = {
      {"/usr/include/c++/12/bits/stl_vector.h:1123: std::vector<_Tp, _Alloc>::reference std::vector<_Tp, "
       "_Alloc>::operator[](size_type) "
       "[with _Tp = double; _Alloc = std::allocator<double>; reference = double&; size_type = long unsigned int]: "
       "Assertion '__n < this->size()' failed.",
       "out-of-range index in std::vector::operator[] (a _GLIBCXX_ASSERTIONS check)"},
      {"/usr/include/c++/12/bits/stl_vector.h:1142: constexpr std::vector<_Tp, _Alloc>::const_reference "
       "std::vector<_Tp, _Alloc>::operator[](size_type) const "
       "[with _Tp = double; _Alloc = std::allocator<double>; const_reference = const double&; size_type = long "
       "unsigned int]: "
       "Assertion '__n < this->size()' failed.",
       "out-of-range index in std::vector::operator[] (a _GLIBCXX_ASSERTIONS check)"},
      {"/usr/include/c++/12/bits/stl_vector.h:1230: std::vector<_Tp, _Alloc>::reference std::vector<_Tp, "
       "_Alloc>::back() "
       "[with _Tp = int; _Alloc = std::allocator<int>; reference = int&]: Assertion '!this->empty()' failed.",
       "std::vector::back on an empty container (a _GLIBCXX_ASSERTIONS check)"},
      {"/usr/include/c++/12/bits/basic_string.h:1256: std::__cxx11::basic_string<_CharT, _Traits, _Alloc>::reference "
       "std::__cxx11::basic_string<_CharT, _Traits, _Alloc>::operator[](size_type) [with _CharT = char]: "
       "Assertion '__pos <= size()' failed.",
       "a _GLIBCXX_ASSERTIONS check failed in std::basic_string::operator[]: '__pos <= size()'"},
  };
  for (const LibraryCheckCase& test : cases) {
    CrashReport report = read(test.assertion + "\n\njudge-crash-trace: 0x1001 0x2001 0x3001\n");
    EXPECT_EQ(report.what, test.what);
    EXPECT_EQ(report.where, "workspace/top_p.hpp:23") << "return addresses are looked up one byte earlier";
  }
}

TEST(CrashReport, CrashTraceAloneGivesOnlyThePlace) {
  CrashReport report = read("\njudge-crash-trace: pc=0x3000 0x1001\n");
  EXPECT_EQ(report.what, "");
  EXPECT_EQ(report.where, "workspace/top_p.hpp:40") << "pc= is the faulting instruction itself";
  EXPECT_FALSE(read_crash_report("just some output\n", kContext, fake_symbolizer).has_value());
}

TEST(CrashReport, TerminateNamesTheException) {
  CrashReport report = read("terminate called after throwing an instance of 'std::runtime_error'\n  what():  boom\n");
  EXPECT_EQ(report.what,
            "std::terminate: uncaught std::runtime_error: boom (thrown out of a noexcept function or a destructor?)");
}

TEST(CrashReport, NumbersTheLearnersCodePrintedNeverThrow) {
  CrashReport report = read(
      "/home/ada/workspace/top_p.hpp:99999999999999999999:1: runtime error: made up\n"
      "judge-crash-trace: pc=0xfffffffffffffffffffff 0xzz\n"
      "    #0 0x5  (/cache/runners/top_p-0123+0xffffffffffffffffffffff)\n");
  EXPECT_EQ(report.what, "UndefinedBehaviorSanitizer: made up");
  EXPECT_EQ(report.where, "");
}

TEST(CrashReport, TraceLinesAreDroppedFromTheOutputShown) {
  EXPECT_EQ(without_crash_trace("hello\n\njudge-crash-trace: 0x1 0x2\n"), "hello\n");
  EXPECT_EQ(without_crash_trace("\njudge-crash-trace: 0x1\n"), "");
  EXPECT_EQ(without_crash_trace("a\nb\n"), "a\nb\n");
}

TEST(ExplainCrash, OnlyRewritesCasesWhoseRunnerDied) {
  TestResult wrong;
  wrong.verdict = Verdict::kWrongAnswer;
  wrong.failure_kind = "value";
  wrong.message = "max error 0.5";
  wrong.output = "Assertion '__n < this->size()' failed.\n";
  explain_crash(kContext, &wrong);
  EXPECT_EQ(wrong.message, "max error 0.5");
}

// ---- end to end, through judge_solution ----

const Paths& source_paths() {
  static const Paths paths = Paths::under_root(JUDGE_SOURCE_DIR);
  return paths;
}

// Judges a temperature fixture; `max_cases` > 0 keeps only that many samples.
ProblemResult judge_fixture(const std::string& fixture, bool sanitize, std::size_t max_cases = 0) {
  Problem problem = load_problem(package_of(source_paths(), "temperature"), checker_case_rules());
  if (max_cases > 0) {
    problem.samples.resize(std::min(problem.samples.size(), max_cases));
    problem.hidden.clear();
  }
  JudgeRequest request;
  request.solution_file = (fs::path(JUDGE_TESTS_DIR) / "fixtures" / "temperature" / fixture).string();
  request.display_name = "fixtures/temperature/" + fixture;
  request.hints = false;
  request.use_result_cache = false;
  request.sanitize = sanitize;
  return judge_solution(source_paths(), problem, request);
}

TEST(CrashEndToEnd, DefaultBuildNamesAnOutOfRangeVectorIndexAndTheLine) {
  ProblemResult result = judge_fixture("vector_index_out_of_range.hpp", false);
  EXPECT_EQ(result.verdict, Verdict::kRuntimeError);
  ASSERT_FALSE(result.tests.empty());
  EXPECT_EQ(result.tests.front().message,
            "out-of-range index in std::vector::operator[] (a _GLIBCXX_ASSERTIONS check) at "
            "fixtures/temperature/vector_index_out_of_range.hpp:15");
  EXPECT_EQ(result.tests.front().output.find("judge-crash-trace"), std::string::npos);
}

TEST(CrashEndToEnd, SanitizeReportsAHeapOverflowAtTheLearnersLine) {
  ProblemResult result = judge_fixture("heap_overflow.hpp", true);
  EXPECT_EQ(result.verdict, Verdict::kRuntimeError);
  ASSERT_FALSE(result.tests.empty());
  EXPECT_EQ(result.tests.front().message,
            "AddressSanitizer: heap-buffer-overflow (READ of size 8) at fixtures/temperature/heap_overflow.hpp:18");
}

TEST(SanitizeEndToEnd, SpeedIsNotComparedWithTheUnsanitizedReference) {
  Problem problem = load_problem(package_of(source_paths(), "top_k"), checker_case_rules());
  problem.samples.clear();
  std::erase_if(problem.hidden, [](const TestCase& test) { return test.check != "performance"; });
  ASSERT_FALSE(problem.hidden.empty()) << "top_k has no performance case";
  // No room at all: a sanitized reference is slower than the plain one, so
  // this fails whenever the two are compared.
  problem.hidden.resize(1);
  problem.hidden[0].check_args = {{"factor", 1}, {"slack_ms", 0}, {"repetitions", 3}};
  JudgeRequest request;
  request.solution_file = (fs::path(JUDGE_SOURCE_DIR) / "solutions/top_k/reference.hpp").string();
  request.display_name = "reference.hpp";
  request.hints = false;
  request.use_result_cache = false;
  request.sanitize = true;
  ProblemResult result = judge_solution(source_paths(), problem, request);
  ASSERT_EQ(result.tests.size(), 1u);
  EXPECT_EQ(result.verdict, Verdict::kAccepted) << result.tests.front().message;
  EXPECT_EQ(result.tests.front().message,
            "speed is not compared with the reference under --sanitize (sanitized code runs 2 to 7 times slower)");
}

TEST(SanitizeEndToEnd, AMemoryHogIsOverTheMemoryLimit) {
  ProblemResult result = judge_fixture("memory_hog.hpp", true, 1);
  EXPECT_EQ(result.verdict, Verdict::kMemoryLimitExceeded) << result.tests.front().message;
}

}  // namespace
}  // namespace judge
