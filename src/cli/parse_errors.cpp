// Messages for CLI11's parse errors: the first argument it could not place, and what it is
// nearest to.
#include "cli/parse_errors.hpp"

#include <cctype>
#include <vector>

#include "perfmodel/nearest_name.hpp"

namespace perfmodel::cli {

namespace {

bool is_option(const std::string &arg) {
  if (arg.size() < 2 || arg[0] != '-')
    return false;
  const char c = arg[1];
  return !(std::isdigit(static_cast<unsigned char>(c)) || c == '.'); // "-1" is a value
}

// Every spelling of the options of `cmd` ("--batch", "-b"), in the order they were added.
std::vector<std::string> option_names(const CLI::App &cmd) {
  std::vector<std::string> names;
  for (const CLI::Option *o : cmd.get_options()) {
    for (const std::string &l : o->get_lnames())
      names.push_back("--" + l);
    for (const std::string &s : o->get_snames())
      names.push_back("-" + s);
  }
  return names;
}

std::string command_list(const CLI::App &app) {
  std::string list;
  for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
    list += (list.empty() ? "" : ", ") + sub->get_name();
  return list;
}

} // namespace

std::string parse_error_message(const CLI::App &app, const CLI::ParseError &e) {
  const std::vector<CLI::App *> used = app.get_subcommands();
  const CLI::App *cmd = used.empty() ? &app : used.front();
  // What the command in use could not place (typed after its name) comes first, then what
  // perfmodel itself could not (typed before any command, or the command's name itself).
  const std::vector<std::string> after =
      used.empty() ? std::vector<std::string>{} : cmd->remaining();
  const std::vector<std::string> before = app.remaining();
  std::vector<std::string> commands;
  for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
    commands.push_back(sub->get_name());

  if (used.empty() && !before.empty() && !is_option(before.front())) {
    const std::string near = did_you_mean(before.front(), commands);
    return "unknown command '" + before.front() + "'" +
           (near.empty() ? "; the commands are " + command_list(app) : near);
  }
  for (const std::string &arg : after)
    if (is_option(arg)) {
      const std::string name = arg.substr(0, arg.find('='));
      return "unknown option '" + name + "' for " + cmd->get_name() +
             did_you_mean(name, option_names(*cmd));
    }
  for (const std::string &arg : before)
    if (is_option(arg)) {
      const std::string name = arg.substr(0, arg.find('='));
      // Perhaps a command's option typed in front of the command: name the command it belongs
      // to (the one in use when it has it).
      std::vector<const CLI::App *> subs(used.begin(), used.end());
      for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
        subs.push_back(sub);
      for (const CLI::App *sub : subs)
        for (const std::string &o : option_names(*sub))
          if (o == name)
            return "unknown option '" + name + "': options follow the command (perfmodel " +
                   sub->get_name() + " " + name + " ...)";
      return "unknown option '" + name + "'" + did_you_mean(name, option_names(app));
    }
  const std::vector<std::string> &left = after.empty() ? before : after;
  if (!left.empty())
    return "unexpected argument '" + left.front() + "' for " + cmd->get_name() + " (perfmodel " +
           cmd->get_name() + " --help)";
  if (used.empty() && dynamic_cast<const CLI::RequiredError *>(&e))
    return "a command is required: " + command_list(app) + " (perfmodel --help)";
  return e.what();
}

} // namespace perfmodel::cli
