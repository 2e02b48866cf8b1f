// Hints from known mistakes: the known-wrong solutions of a problem are its
// teaching catalog. After a solution is judged, the judge runs them on the
// same cases and names the mistakes whose failures look like the learner's,
// compared value by value, across every failed case.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "check/reference_oracle.hpp"
#include "package/problem.hpp"
#include "package/solutions_index.hpp"
#include "package/verdict.hpp"
#include "util/paths.hpp"

namespace judge {

// Known mistakes run on every case that is cheap to repeat (not statistical,
// not timed), and on this many of the failed costly ones: the first of each
// op and check, then the next ones. Cases failed for slowness are compared,
// one at a time, with the known mistakes that may be slow (may_be_slow).
inline constexpr std::size_t kCostlyFailuresCompared = 3;
// A known mistake is named only if it explains this many of the compared
// failures (or all of them, when fewer were compared).
inline constexpr std::size_t kMinExplained = 2;

struct CasesToCompare;  // below

class HintFinder {
 public:
  HintFinder(const Paths& paths, const Problem& problem, SolutionsIndex index);
  ~HintFinder();

  // The known mistakes that explain a judged solution's failures; `results`
  // holds what `cases` gave, in the same order. A known-wrong solution
  // explains a failed case when it fails that case the same way
  // (same_failure). It is ruled out when it fails a cheap case the learner
  // passed: the learner does not make that mistake. Of the rest, the one
  // that explains the most failed cases is named first, then the one that
  // explains the most of those still unexplained, and so on; a solution
  // wrong in two known ways gets both. None: no hint. Builds and runs the
  // known-wrong solutions (their runners are cached). Never throws: a hint
  // is a courtesy.
  std::vector<Hint> explain(const std::vector<const TestCase*>& cases, const std::vector<TestResult>& results);

  // Why explain() made fewer comparisons than it set out to, in words for
  // the report; empty when it made them all. A comparison is
  // lost to a judge fault: a known mistake that does not build, a runner a
  // busy machine kept from a CPU past the clock's backstop (after one more
  // try on a fresh runner). The hints are then what the comparisons made
  // show, and the report says the search was cut short rather than
  // silently naming fewer mistakes.
  std::string cut_short() const;

 private:
  struct Runner;
  void build_wrong_runners();
  // Records a comparison that could not be made, and why.
  void lose(std::string why);
  // How `wrong` fares on `test` (inputs expanded; `written_input` is its
  // input as its file gives it): run once, then remembered, on disk too
  // when untimed (mistake_results.hpp).
  // Speed is compared with the reference only when `timing`. Null when the
  // comparison could not be made (the reference does not build, a judge
  // fault).
  const TestResult* result_of(Runner& wrong, const TestCase& test, const nlohmann::json& written_input, bool timing);
  nlohmann::json reference(const std::string& op, const nlohmann::json& args);
  // Whether `wrong` is worth timing on a case of `op` the learner failed for
  // slowness: it is a known slow mistake, or its answers to `op` were right
  // on every case it ran (so its mistake, if in `op`, is speed).
  bool may_be_slow(const Runner& wrong, const std::string& op) const;
  // explained[w]: the failed cases known mistake w explains. ruled_out[w]:
  // the ops in which it fails a case the learner passed, so that the
  // learner's code of that op does not make it (running out of time proves
  // nothing either way). A problem's ops are separate functions: a mistake
  // in one says nothing about another.
  struct Comparison {
    std::vector<std::set<std::size_t>> explained;
    std::vector<std::set<std::string>> ruled_out;
  };
  // The known mistakes on the passed and failed cases, on every core.
  void compare_untimed(const CasesToCompare& chosen, const std::vector<const TestCase*>& cases,
                       const std::vector<TestCase>& expanded, const std::vector<TestResult>& results,
                       Comparison* comparison);
  // The slow mistakes on the cases failed for slowness, one at a time.
  void compare_slowness(const CasesToCompare& chosen, const std::vector<const TestCase*>& cases,
                        const std::vector<TestCase>& expanded, const std::vector<TestResult>& results,
                        Comparison* comparison);
  // The mistakes that may be slow on the untimed cases the learner's code
  // never finished: one that never finishes them either explains them.
  void compare_timeouts(const CasesToCompare& chosen, const std::vector<const TestCase*>& cases,
                        const std::vector<TestCase>& expanded, Comparison* comparison);

  const Paths& paths_;
  const Problem& problem_;
  SolutionsIndex index_;
  std::vector<std::unique_ptr<Runner>> runners_;  // one per known-wrong solution that builds
  std::mutex oracle_mutex_;                       // the wrong solutions run on several threads
  std::string reference_binary_;                  // built with the known mistakes
  std::unique_ptr<ReferenceOracle> oracle_;       // started at the first result not stored
  bool oracle_failed_ = false;
  mutable std::mutex lost_mutex_;  // lose() is called from several threads
  std::vector<std::string> lost_;  // the comparisons not made, each with its reason
};

// Whether two failures of the same case are the same mistake: the same kind
// of failure and, where the failure carries a value (a returned value, a
// histogram of draws), alike values.
bool same_failure(const TestCase& test, const TestResult& a, const TestResult& b);

// The cases a judged solution's known mistakes are run on, as indices into
// its cases: the cheap ones it passed (to rule mistakes out), the failed
// ones that can be compared (the cheap ones, and at most
// kCostlyFailuresCompared costly ones), and the timed ones failed for
// slowness (compared with slow mistakes only, one at a time: timing several
// runners at once would measure the machine).
// And the untimed cases that ran out of time (at most
// kCostlyFailuresCompared): a loop that ends only by luck never ends on
// some small input, which a mistake stated too slow shows too.
struct CasesToCompare {
  std::vector<std::size_t> passed;
  std::vector<std::size_t> failed;
  std::vector<std::size_t> slow;
  std::vector<std::size_t> timed_out;
};
CasesToCompare cases_to_compare(const std::vector<const TestCase*>& cases, const std::vector<TestResult>& results);

// The hints from what each known mistake explains: explained[w] holds the
// failed cases (indices into `case_names`) that mistake w, noted `notes[w]`,
// fails the same way; `compared` is how many failures were compared. A
// mistake that explains fewer than kMinExplained of them (or than all,
// when fewer were compared) is a coincidence and not named, unless one of
// them is `conclusive`: a failure that alone names its mistake (state shown
// in fresh runners, whose every answer the mistake repeats). Then the one
// that explains the most, then the most of the rest; the catalog's order
// breaks ties.
std::vector<Hint> rank_mistakes(std::vector<std::set<std::size_t>> explained, const std::vector<std::string>& notes,
                                const std::vector<std::string>& case_names, std::size_t compared,
                                const std::set<std::size_t>& conclusive = {});

}  // namespace judge
