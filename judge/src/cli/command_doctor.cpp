// `judge doctor`: which sandbox protections are active here, and why any
// is missing.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "build/compiler.hpp"
#include "cli/command.hpp"
#include "sandbox/protections.hpp"
#include "spec/result_codec.hpp"

namespace judge {
namespace {
class DoctorCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("--format", format_, "output format")->check(CLI::IsMember({"text", "json"}));
  }

  int run(const CommandContext&) override {
    std::vector<ProtectionReport> protections = describe_protections();
    if (format_ == "json") {
      nlohmann::json out = nlohmann::json::array();
      for (const ProtectionReport& p : protections)
        out.push_back({{"name", p.name}, {"active", p.active}, {"detail", p.detail}});
      fmt::print("{}\n", json_text(with_schema_version({{"compiler", compiler_command()}, {"protections", out}})));
      return 0;
    }
    fmt::print("compiler: {} (set CXX to change)\n\nprotections for learners' code:\n", compiler_command());
    std::size_t missing = 0;
    for (const ProtectionReport& p : protections) {
      fmt::print("  {:<8} {:<28} {}\n", p.active ? "ok" : "MISSING", p.name, p.detail);
      missing += !p.active;
    }
    if (missing) fmt::print("\n{} protection(s) missing: the judge still runs, with less isolation.\n", missing);
    return 0;
  }

 private:
  std::string format_ = "text";
};
}  // namespace

std::unique_ptr<Command> make_doctor_command() { return std::make_unique<DoctorCommand>(); }

}  // namespace judge
