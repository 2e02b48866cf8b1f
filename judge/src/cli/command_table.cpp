// The table of commands, and running the one the command line names.
#include <fmt/format.h>

#include "cli/command.hpp"
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
    std::unique_ptr<Command> command = entry.make();
    command->define(*parser);
    commands.push_back({parser, std::move(command)});
  }
  return commands;
}

int run_guarded(Command& command, const CLI::App& app) {
  try {
    return command.run(CommandContext{Paths::discover(), app});
  } catch (const JudgeFault& fault) {  // may name a submission's file: escaped
    fmt::print(stderr, "judge: {}\n", terminal_safe(fault.message));
  } catch (const SpecError& error) {
    fmt::print(stderr, "judge: {}\n", terminal_safe(error.message));
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
      {"doctor", "which sandbox protections are active here, and why any is missing", make_doctor_command},
      {"cache", "the size of the cache of runners and results, or `judge cache clear` to empty it", make_cache_command},
      {"validate", "check problem packages: spec, cases, reference, stub, known solutions", make_validate_command},
      {"new", "scaffold a new problem package", make_new_command},
      {"run", "judge your solution (or --solution FILE, or --reference)", make_run_command},
      {"try", "run one op on your own --input beside the reference, and show the difference", make_try_command},
      {"grade", "judge every solution file in DIR, in parallel, resumably; CSV and JSON summary", make_grade_command},
      {"watch", "judge your solution again on every save (Ctrl-C to stop)", make_watch_command},
      {"completion", "print a shell completion script (see README)", make_completion_command},
      {"__slugs", "the problem slugs, one a line (for completion)", make_slugs_command, /*hidden=*/true},
  };
  return table;
}

int run_command_line(int argc, char** argv) {
  CLI::App app{"judge: a practice judge for LLM decoding problems"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "all commands' options");
  std::vector<DefinedCommand> commands = define_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
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
