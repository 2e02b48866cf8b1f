// `judge doctor`: which sandbox protections are active here, and why any
// is missing.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "compile/compiler.hpp"
#include "package/result_codec.hpp"
#include "sandbox/protections.hpp"
#include "sandbox/untrusted_code.hpp"

namespace judge {
namespace {
// Whether `grade`, the course platforms' formats and another user's file
// may be judged here, and how to get what they need.
void print_others_code(const std::vector<SandboxGap>& gaps) {
  if (gaps.empty()) {
    fmt::print("\nother people's code (grade, gradescope, exercism): judged; every protection it needs is here\n");
    return;
  }
  fmt::print(
      "\nother people's code (grade, gradescope, exercism, another user's file): REFUSED without "
      "--trust-submissions; your own code is judged with what is here\n");
  for (const SandboxGap& gap : gaps)
    fmt::print("  no {}: {}\n    missing: {}\n    to get it: {}\n", gap.protection, gap.allows, gap.missing, gap.how);
}

class DoctorCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("--format", format_, "output format")->check(CLI::IsMember({"text", "json"}));
  }

  int run(const CommandContext&) override {
    std::vector<ProtectionReport> protections = describe_protections();
    std::vector<SandboxGap> gaps = gaps_for_untrusted_code();
    if (format_ == "json") {
      nlohmann::json out = nlohmann::json::array();
      for (const ProtectionReport& p : protections)
        out.push_back({{"name", p.name}, {"active", p.active}, {"detail", p.detail}});
      nlohmann::json missing = nlohmann::json::array();
      for (const SandboxGap& gap : gaps)
        missing.push_back(
            {{"protection", gap.protection}, {"missing", gap.missing}, {"allows", gap.allows}, {"how", gap.how}});
      fmt::print("{}\n",
                 json_text(with_schema_version({{"compiler", compiler_command()},
                                                {"protections", out},
                                                {"others_code", {{"allowed", gaps.empty()}, {"missing", missing}}}})));
      return 0;
    }
    fmt::print("compiler: {} (set CXX to change)\n\nprotections for learners' code:\n", compiler_command());
    std::size_t missing = 0;
    for (const ProtectionReport& p : protections) {
      fmt::print("  {:<8} {:<28} {}\n", p.active ? "ok" : "MISSING", p.name, p.detail);
      missing += !p.active;
    }
    if (missing) fmt::print("\n{} protection(s) missing.\n", missing);
    print_others_code(gaps);
    return 0;
  }

 private:
  std::string format_ = "text";
};
}  // namespace

std::unique_ptr<Command> make_doctor_command() { return std::make_unique<DoctorCommand>(); }

}  // namespace judge
