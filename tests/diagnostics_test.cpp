// The compiler-output filter on made-up compiler output: what a learner
// reads of a failed compile (filter_diagnostics, compile/diagnostics.hpp).
#include <gtest/gtest.h>

#include <string>

#include "compile/diagnostics.hpp"

namespace judge {
namespace {

DiagnosticsContext context() {
  DiagnosticsContext c;
  c.solution_path = "/judge-build/solution.hpp";
  c.solution_display = "workspace/top_p.hpp";
  c.adapter_path = "/judge-build/adapter.cpp";
  c.adapter_display = "harness/problems/top_p.cpp";
  c.signature = "std::vector<double> top_p_filter(const std::vector<double>& logits, double p);\n";
  c.renames = {{"/usr/include/c++/12", "<c++>"}};
  return c;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// GCC 12's own words for std::sort on a type without operator<: the error
// is inside a standard header, and "required from here" is the learner's
// line that caused it. That line stays (the reason the filter reads GCC's
// text: its JSON diagnostics drop the instantiation context), the header's
// error is one line, and the chain through the library and its candidate
// notes go.
TEST(Diagnostics, AnErrorInAStandardHeaderKeepsTheLearnersLineThatCausedIt) {
  const std::string raw =
      "In file included from /usr/include/c++/12/bits/stl_algobase.h:71,\n"
      "                 from /usr/include/c++/12/algorithm:60,\n"
      "                 from /judge-build/solution.hpp:1:\n"
      "/usr/include/c++/12/bits/predefined_ops.h: In instantiation of 'constexpr bool "
      "__gnu_cxx::__ops::_Iter_less_iter::operator()(_Iterator1, _Iterator2) const [with _Iterator1 = "
      "__gnu_cxx::__normal_iterator<S*, std::vector<S> >]':\n"
      "/usr/include/c++/12/bits/stl_algo.h:1809:14:   required from 'constexpr void "
      "std::__insertion_sort(_RandomAccessIterator, _RandomAccessIterator, _Compare)'\n"
      "/usr/include/c++/12/bits/stl_algo.h:4820:18:   required from 'constexpr void std::sort(_RAIter, _RAIter) "
      "[with _RAIter = __gnu_cxx::__normal_iterator<S*, vector<S> >]'\n"
      "/judge-build/solution.hpp:4:45:   required from here\n"
      "/usr/include/c++/12/bits/predefined_ops.h:45:23: error: no match for 'operator<' (operand types are 'S' "
      "and 'S')\n"
      "   45 |       { return *__it1 < *__it2; }\n"
      "      |                ~~~~~~~^~~~~~~~\n"
      "In file included from /usr/include/c++/12/bits/stl_algobase.h:67:\n"
      "/usr/include/c++/12/bits/stl_iterator.h:1185:5: note: candidate: 'template<class _IteratorL> constexpr "
      "auto __gnu_cxx::operator<=>(...)' (reversed)\n"
      " 1185 |     operator<=>(const __normal_iterator<_IteratorL, _Container>& __lhs,\n"
      "      |     ^~~~~~~~\n"
      "/usr/include/c++/12/bits/stl_iterator.h:1185:5: note:   template argument deduction/substitution failed:\n";
  const std::string out = filter_diagnostics(raw, context());
  EXPECT_TRUE(has(out, "workspace/top_p.hpp:4:45:   required from here")) << out;
  EXPECT_TRUE(has(out, "<c++>/bits/predefined_ops.h:45:23: error: no match for 'operator<'")) << out;
  EXPECT_FALSE(has(out, "__insertion_sort")) << "the chain inside the library goes: " << out;
  EXPECT_FALSE(has(out, "candidate")) << out;
  EXPECT_FALSE(has(out, "*__it1 < *__it2")) << "a system header's error is its one line: " << out;
}

TEST(Diagnostics, TheLearnersErrorIsKeptUnderTheNameTheyKnowAndIncludeChainsGo) {
  const std::string raw =
      "In file included from /judge-build/adapter.cpp:3:\n"
      "                 from /judge-build/learner.cpp:1:\n"
      "/judge-build/solution.hpp: In function 'std::vector<double> top_p_filter(...)':\n"
      "/judge-build/solution.hpp:7:3: error: 'retrun' was not declared in this scope\n"
      "    7 |   retrun out;\n"
      "      |   ^~~~~~\n";
  const std::string out = filter_diagnostics(raw, context());
  EXPECT_TRUE(has(out, "workspace/top_p.hpp:7:3: error: 'retrun' was not declared")) << out;
  EXPECT_TRUE(has(out, "      |   ^~~~~~")) << "the caret stays under its line: " << out;
  EXPECT_FALSE(has(out, "In file included from")) << out;
  EXPECT_FALSE(has(out, "/judge-build/")) << "paths as the learner knows them: " << out;
  EXPECT_FALSE(has(out, "The harness calls your code")) << "the adapter has no error: " << out;
}

TEST(Diagnostics, AnErrorInTheAdapterAddsTheSignatureTheHarnessExpects) {
  const std::string raw =
      "/judge-build/adapter.cpp: In function 'judge_harness::Value filter_op(const judge_harness::Value&)':\n"
      "/judge-build/adapter.cpp:20:10: error: 'top_p_filter' was not declared in this scope\n";
  const std::string out = filter_diagnostics(raw, context());
  EXPECT_TRUE(has(out, "harness/problems/top_p.cpp:20:10: error: 'top_p_filter' was not declared")) << out;
  EXPECT_FALSE(has(out, "In function 'judge_harness::Value")) << "the adapter's context is noise: " << out;
  EXPECT_TRUE(has(out, "The harness calls your code with exactly these declarations")) << out;
  EXPECT_TRUE(has(out, context().signature)) << out;
}

TEST(Diagnostics, SystemHeaderErrorsAreOneLineEachAndAtMostThree) {
  std::string raw;
  for (int i = 0; i < 5; ++i)
    raw += "/usr/include/c++/12/bits/stl_vector.h:" + std::to_string(100 + i) +
           ":5: error: no match for 'operator='\n  100 |     long excerpt\n      |     ^\n";
  const std::string out = filter_diagnostics(raw, context());
  EXPECT_TRUE(has(out, "<c++>/bits/stl_vector.h:100:5: error: no match")) << "renamed: " << out;
  EXPECT_TRUE(has(out, "<c++>/bits/stl_vector.h:102:5")) << out;
  EXPECT_FALSE(has(out, "<c++>/bits/stl_vector.h:103:5")) << "at most three: " << out;
  EXPECT_FALSE(has(out, "long excerpt")) << "no excerpt of a system header: " << out;
}

TEST(Diagnostics, AnIncludeOfAnotherFileIsExplainedAndATypoIsLeftToTheCompiler) {
  const std::string raw =
      "/judge-build/solution.hpp:2:10: fatal error: ../reference.hpp: No such file or directory\n"
      "/judge-build/solution.hpp:3:10: fatal error: vectr: No such file or directory\n";
  const std::string out = filter_diagnostics(raw, context());
  EXPECT_TRUE(has(out, "cannot open ../reference.hpp: a solution is one file")) << out;
  EXPECT_FALSE(has(out, "cannot open vectr")) << "a bare name is a typo: " << out;
  EXPECT_TRUE(has(out, "workspace/top_p.hpp:3:10: fatal error: vectr")) << out;
}

TEST(Diagnostics, LongOutputIsCappedInLinesAndInLineLength) {
  std::string raw;
  for (int i = 0; i < 60; ++i)
    raw += "/judge-build/solution.hpp:" + std::to_string(i + 1) + ":1: error: e" + std::to_string(i) + "\n";
  raw += "/judge-build/solution.hpp:99:1: error: " + std::string(30000, 'x') + "\n";
  const std::string out = filter_diagnostics(raw, context());
  EXPECT_TRUE(has(out, "e39\n")) << out;
  EXPECT_FALSE(has(out, "e40\n")) << out;
  EXPECT_TRUE(has(out, "... (21 more lines omitted)")) << out;
  EXPECT_LT(out.size(), 10000u);
}

TEST(Diagnostics, AMainOfTheLearnersIsExplainedInsteadOfTheLinkersWords) {
  for (const char* quoted : {"`main'", "'main'", "\u2018main\u2019"}) {
    const std::string raw = std::string(
                                "/usr/bin/ld.gold: error: ../inputs-1f/libjudge_harness.a(main.o): multiple "
                                "definition of ") +
                            quoted +
                            "\n/usr/bin/ld.gold: /judge/builds/scratch/work/cc1.o: previous definition here\n"
                            "collect2: error: ld returned 1 exit status\n";
    std::string out = filter_diagnostics(raw, context());
    EXPECT_TRUE(has(out, "workspace/top_p.hpp defines main()")) << quoted << ": " << out;
    EXPECT_FALSE(has(out, "ld.gold") || has(out, "libjudge_harness") || has(out, "scratch")) << out;
  }
  // Another multiple definition is the linker's to tell.
  std::string other = filter_diagnostics(
      "/usr/bin/ld.gold: error: a.o: multiple definition of 'helper()'\ncollect2: error: ld returned 1 exit status\n",
      context());
  EXPECT_FALSE(has(other, "defines main()")) << other;
}

TEST(Diagnostics, OutputItDoesNotRecognizeIsShownRatherThanNothing) {
  const std::string out =
      filter_diagnostics("collect2: fatal error: ld terminated with signal 9 [Killed]\n", context());
  EXPECT_TRUE(has(out, "ld terminated with signal 9")) << out;
  EXPECT_EQ(filter_diagnostics("", context()), "");
}

}  // namespace
}  // namespace judge
