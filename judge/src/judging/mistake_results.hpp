// Known mistakes' results on cases, kept on disk. A known-wrong solution
// fails a case the same way every time while its runner, the reference's,
// the problem's files and the judge are unchanged (a case's seeds come from
// its name), so hints read what it did instead of running it again: after
// the first wrong run of a problem, naming the mistake costs milliseconds.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "package/problem.hpp"
#include "package/verdict.hpp"
#include "util/paths.hpp"

namespace judge {

// What a stored result depends on besides the two runners: the problem's
// files (its cases) and the judge binary. Hashes the problem's folder: call
// once per judging, not per case.
std::string mistake_problem_key(const Problem& problem);

// One known mistake's results on one problem's cases, as far as stored: the
// parts hints compare (verdict, failure kind, returned value), never the
// timing of a case. Reads the store when made; save() writes what was added.
// Never throws: a store that cannot be read or written is empty.
class MistakeResults {
 public:
  MistakeResults(const Paths& paths, const std::string& problem_key, const std::string& mistake_binary,
                 const std::string& reference_binary);

  // The stored result of case `name`, or nullopt.
  std::optional<TestResult> find(const std::string& name) const;

  // Keeps `result` for case `name`, unless it depends on the machine's
  // speed (a time or memory limit) or its returned value is too large to
  // be worth a file (kMaxStoredBytes).
  void remember(const std::string& name, const TestResult& result);

  // Writes the store if remember() added to it (atomically; of two judges
  // writing at once, one store wins, and the other's results are run again
  // next time).
  void save() const;

  static constexpr std::size_t kMaxStoredBytes = 4 << 20;

 private:
  std::string file_;
  std::map<std::string, TestResult> results_;
  bool changed_ = false;
};

}  // namespace judge
