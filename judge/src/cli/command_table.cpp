// The table of commands, and running the one the command line names.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <cstdio>
#include <optional>
#include <system_error>

#include "cli/command.hpp"
#include "sandbox/sandbox_policy.hpp"
#include "util/errors.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
struct DefinedCommand {
  CLI::App* parser;
  std::unique_ptr<Command> command;
};

std::vector<DefinedCommand> define_commands(CLI::App& app) {
  std::vector<DefinedCommand> commands;
  for (const CommandEntry& entry : command_table()) {
    CLI::App* parser = app.add_subcommand(entry.name, entry.description);
    if (entry.hidden) parser->group("");
    parser->footer(command_examples(entry.name));
    std::unique_ptr<Command> command = entry.make();
    command->define(*parser);
    commands.push_back({parser, std::move(command)});
  }
  return commands;
}

int run_guarded(Command& command, const CLI::App& app) {
  try {
    Paths paths = Paths::discover();
    hide_judge_files(paths);
    int status = command.run(CommandContext{paths, app});
    // Output still in stdout's buffer meets a closed pipe only now.
    if (std::fflush(stdout) != 0 && errno == EPIPE) throw std::system_error(EPIPE, std::generic_category());
    return status;
  } catch (const JudgeFault& fault) {  // may name a submission's file: escaped
    fmt::print(stderr, "judge: {}\n", terminal_safe(fault.message));
  } catch (const SpecError& error) {
    fmt::print(stderr, "judge: {}\n", terminal_safe(error.message));
  } catch (const std::system_error& error) {
    // A reader that stopped early (`judge show top_p | head`) closed the
    // pipe: the judge's fault only in that it has no one left to write to.
    if (error.code() == std::errc::broken_pipe)
      fmt::print(stderr, "judge: output cut short: the reader closed the pipe\n");
    else
      fmt::print(stderr, "judge: internal error: {}\n", terminal_safe(error.what()));
  } catch (const std::exception& error) {
    fmt::print(stderr, "judge: internal error: {}\n", terminal_safe(error.what()));
  }
  return 2;
}
}  // namespace

const std::vector<CommandEntry>& command_table() {
  static const std::vector<CommandEntry> table = {
      {"list", "the problems in course order, with your status of each", make_list_command},
      {"show", "a problem's statement, signature and sample cases", make_show_command},
      {"start", "copy a problem's stub to your workspace (never overwrites)", make_start_command},
      {"history", "every judged attempt at a problem: when, verdict, cases passed, seconds", make_history_command},
      {"solution", "the reference and why it is written so, once you have solved the problem", make_solution_command},
      {"doctor", "which sandbox protections are active here, and why any is missing", make_doctor_command},
      {"cache", "the size of the cache of runners and results, or `judge cache clear` to empty it", make_cache_command},
      {"validate", "check problem packages: spec, cases, reference, stub, known solutions", make_validate_command},
      {"new", "scaffold a new problem package", make_new_command},
      {"run", "judge your solution (or --solution FILE, or --reference)", make_run_command},
      {"try", "run one op on your own --input beside the reference, and show the difference", make_try_command},
      {"lab", "generate text with a small trained model, your solutions plugged into its decoding loop",
       make_lab_command},
      {"grade", "judge every solution file in DIR, in parallel, resumably; CSV and JSON summary", make_grade_command},
      {"export", "write a course platform's autograder: judge export gradescope PROBLEM... --out autograder.zip",
       make_export_command},
      {"watch", "judge your solution again on every save (Ctrl-C to stop)", make_watch_command},
      {"serve", "the practice page in your browser: statement, editor, Run (127.0.0.1 only)", make_serve_command},
      {"completion", "print a shell completion script (see README)", make_completion_command},
      {"__slugs", "the problem slugs, one a line (for completion)", make_slugs_command, /*hidden=*/true},
  };
  return table;
}

constexpr const char* kExamples = R"(
Examples:
  judge list                        the problems, your status and best results
  judge show top_p                  a statement, its signature and samples
  judge start top_p                 copy the stub to workspace/top_p.hpp
  judge run top_p                   judge workspace/top_p.hpp
  judge try top_p --input '{logits: [2, 1, 0.1], p: 0.8}'
                                    your answer beside the reference's on an input
  judge history top_p               your attempts
  judge solution top_p              the reference explained, once solved
  judge serve                       the same in a browser page
  judge COMMAND --help              a command's options
)";

// The first word that is not an option, when it names no command: "judge
// bogus" should say so, not that a command is missing.
std::optional<std::string> unknown_command(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return std::nullopt;
  std::vector<std::string> names;
  for (const CommandEntry& entry : command_table()) {
    if (argv[1] == std::string(entry.name)) return std::nullopt;
    if (!entry.hidden) names.push_back(entry.name);
  }
  std::string near = nearest_name(argv[1], names);
  return fmt::format("unknown command '{}'{}; the commands are: {} (see judge --help)", argv[1],
                     near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near), fmt::join(names, ", "));
}

int run_command_line(int argc, char** argv) {
  CLI::App app{"judge: a practice judge for LLM decoding problems", "judge"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "all commands' options");
  app.set_version_flag("--version", std::string("judge ") + JUDGE_VERSION);
  app.footer(kExamples);
  std::vector<DefinedCommand> commands = define_commands(app);
  if (std::optional<std::string> unknown = unknown_command(argc, argv)) {
    fmt::print(stderr, "judge: {}\n", terminal_safe(*unknown));
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "judge: {} (see judge --help)\n", e.what());
    return 2;
  }
  for (DefinedCommand& defined : commands)
    if (*defined.parser) return run_guarded(*defined.command, app);
  return 2;
}

}  // namespace judge
