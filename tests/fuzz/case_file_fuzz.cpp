// Fuzzes the reader of problem packages' case files (package/problem.hpp,
// package/yaml_reader.hpp): a hidden/*.yaml of arbitrary bytes beside a
// fixed problem.yaml. Any input must load or be refused with a SpecError
// that names the file, never crash or hang.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "package/problem.hpp"
#include "util/errors.hpp"

namespace {
namespace fs = std::filesystem;

// Two checks, one that supplies an input (as a sampler's seed) and one that
// takes more calls: enough for the reader's every branch on check names.
class FuzzRules : public judge::CaseRules {
 public:
  std::vector<std::string> check_names() const override { return {"sequence", "values"}; }
  bool knows(const std::string& check) const override { return check == "values" || check == "sequence"; }
  std::vector<std::string> supplied_inputs(const judge::TestCase&) const override { return {}; }
  bool takes_then(const judge::TestCase& test) const override { return test.check == "sequence"; }
  std::optional<std::string> problem_with(const judge::TestCase&, const judge::Operation&) const override {
    return std::nullopt;
  }
};

const char kProblem[] = R"(title: Fuzz
order: 1
statement: A problem for the case file fuzzer.
signature: std::vector<double> f(const std::vector<double>& xs, double t, int k);
ops:
  f:
    inputs: {xs: doubles, t: number, k: integer, m: matrix, ids: ints, s: seed, any: any}
    output: doubles
    shrink:
      - {axis: xs, entries: [xs], ids: [ids]}
limits: {time_ms: 1000, memory_mb: 64}
tolerance: {atol: 1.0e-9, rtol: 1.0e-6}
samples: []
)";

// A scratch package, made once per process.
const fs::path& package() {
  static const fs::path dir = [] {
    fs::path made = fs::temp_directory_path() / ("judge-case-fuzz-" + std::to_string(getpid()));
    fs::create_directories(made / "hidden");
    std::ofstream(made / "problem.yaml") << kProblem;
    return made;
  }();
  return dir;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream cases(package() / "hidden" / "cases.yaml", std::ios::binary | std::ios::trunc);
    cases.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  static const FuzzRules rules;
  try {
    static const judge::Paths paths = [] {
      judge::Paths in_scratch;
      in_scratch.problems_dir = package().parent_path().string();
      return in_scratch;
    }();
    judge::Problem problem = judge::load_problem(judge::package_of(paths, package().filename().string()), rules);
    for (const judge::TestCase* test : problem.cases()) (void)judge::with_inputs_expanded(*test);
  } catch (const judge::SpecError& error) {
    if (error.message.find("cases.yaml") == std::string::npos &&
        error.message.find("problem.yaml") == std::string::npos)
      std::abort();  // an error that names no file
  }
  return 0;
}
