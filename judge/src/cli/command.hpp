// A command of the judge's command line: a row in the table of commands
// (command_table.cpp), in the manner of ninja's tool table. Each command
// lives in its own file, command_NAME.cpp.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "util/paths.hpp"

namespace judge {

struct CommandContext {
  Paths paths;
  const CLI::App& app;  // the whole parser, for commands that describe it (completion)
};

class Command {
 public:
  virtual ~Command() = default;
  // Declares the command's arguments and options on `command`.
  virtual void define(CLI::App& command) = 0;
  // Runs it once the arguments are parsed; returns the exit status (0, 1
  // or 2, docs/cli.md). Throws JudgeFault or SpecError when the judge
  // cannot do its job; the caller prints them and exits 2.
  virtual int run(const CommandContext& context) = 0;
};

struct CommandEntry {
  const char* name;
  const char* description;
  std::unique_ptr<Command> (*make)();
  bool hidden = false;  // not listed in --help or completion
};

// Every command, in the order `judge --help` lists them.
const std::vector<CommandEntry>& command_table();

// "\nExamples:\n" and a line or two of `judge COMMAND ...` with what each
// does, for the end of the command's --help; "" for a command without
// (the hidden ones).
std::string command_examples(const std::string& command);

// Parses `argv`, runs the chosen command, and turns its failures into exit
// status 2 with a one-line reason on stderr.
int run_command_line(int argc, char** argv);

std::unique_ptr<Command> make_list_command();
std::unique_ptr<Command> make_show_command();
std::unique_ptr<Command> make_start_command();
std::unique_ptr<Command> make_history_command();
std::unique_ptr<Command> make_solution_command();
std::unique_ptr<Command> make_run_command();
std::unique_ptr<Command> make_try_command();
std::unique_ptr<Command> make_lab_command();
std::unique_ptr<Command> make_watch_command();
std::unique_ptr<Command> make_serve_command();
std::unique_ptr<Command> make_grade_command();
std::unique_ptr<Command> make_export_command();
std::unique_ptr<Command> make_validate_command();
std::unique_ptr<Command> make_new_command();
std::unique_ptr<Command> make_doctor_command();
std::unique_ptr<Command> make_cache_command();
std::unique_ptr<Command> make_completion_command();
std::unique_ptr<Command> make_slugs_command();

}  // namespace judge
