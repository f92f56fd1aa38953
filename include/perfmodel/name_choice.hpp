// Names from a fixed set, matched without regard to case, with aliases and "did you mean": the
// spellings of data types, passes and output formats that every front end (the CLI's options,
// the Python module's arguments) accepts, with one message for a name that is not among them.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace perfmodel {

/// One accepted name and the other spellings that mean it.
struct NameChoice {
  NameChoice(std::string n, std::vector<std::string> a = {})
      : name(std::move(n)), aliases(std::move(a)) {}
  std::string name;
  std::vector<std::string> aliases;
};

/// `typed`'s canonical name among `choices` (names and aliases, any case); nullopt if none.
std::optional<std::string> canonical_name(const std::vector<NameChoice> &choices,
                                          const std::string &typed);
/// "unknown WHAT 'x': a, b (alias c) (did you mean 'a'?)": what a front end reports for a name
/// that is not among `choices`.
std::string unknown_name_message(const std::string &what, const std::vector<NameChoice> &choices,
                                 const std::string &typed);

/// The spellings of a compute data type, of a pass and of an output format.
const std::vector<NameChoice> &dtype_choices();
const std::vector<NameChoice> &pass_choices();
const std::vector<NameChoice> &format_choices();
/// The spellings of an activation layout (perfmodel/layout.hpp): nchw, nhwc (channels-last).
const std::vector<NameChoice> &layout_choices();

} // namespace perfmodel
