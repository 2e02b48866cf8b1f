// The completion model (completion_script.hpp) read off the CLI11 parser,
// so the scripts always list the commands and options the command table
// defines.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/completion_script.hpp"

namespace judge {

// What an argument completes to, from its name and its validator's
// description ("TEXT:{text,json}" lists the choices).
inline CompletionValue completion_value_for(const CLI::Option& option) {
  CompletionValue value;
  std::string name = option.get_positional()       ? option.get_name(true)
                     : option.get_lnames().empty() ? ""
                                                   : "--" + option.get_lnames()[0];
  std::string type = option.get_type_name();
  std::size_t open = type.find('{'), close = type.find('}');
  if (open != std::string::npos && close != std::string::npos && close > open) {
    value.kind = CompletionValue::Kind::kChoice;
    std::string list = type.substr(open + 1, close - open - 1);
    for (std::size_t start = 0; start <= list.size();) {
      std::size_t comma = std::min(list.find(',', start), list.size());
      if (comma > start) value.choices.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
  } else if (name == "PROBLEM" || name == "--problem") {
    value.kind = CompletionValue::Kind::kProblem;
  } else if (name == "--solution" || name == "--input" || name == "FILE") {
    value.kind = CompletionValue::Kind::kFile;
  } else if (name == "DIR" || name == "--out") {
    value.kind = CompletionValue::Kind::kDirectory;
  }
  return value;
}

// Every visible subcommand of `app` (a hidden one has an empty group).
inline std::vector<CompletionCommand> completion_model(const CLI::App& app) {
  std::vector<CompletionCommand> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
    CompletionCommand command{sub->get_name(), sub->get_description(), {}, {}};
    for (const CLI::Option* option : sub->get_options()) {
      if (option->get_positional()) {
        command.positionals.push_back({option->get_name(), option->get_description(), option->get_expected_max() > 1,
                                       completion_value_for(*option)});
      } else {
        for (const std::string& long_name : option->get_lnames())
          command.options.push_back({"--" + long_name, option->get_description(), option->get_expected_max() > 0,
                                     completion_value_for(*option)});
      }
    }
    commands.push_back(std::move(command));
  }
  return commands;
}

}  // namespace judge
