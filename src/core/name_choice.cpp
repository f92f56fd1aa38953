// Names from a fixed set with aliases, any case, and the message for an unknown one.
#include "perfmodel/name_choice.hpp"

#include "perfmodel/nearest_name.hpp"

namespace perfmodel {

std::optional<std::string> canonical_name(const std::vector<NameChoice> &choices,
                                          const std::string &typed) {
  const std::string t = ascii_lower(typed);
  for (const auto &c : choices) {
    if (ascii_lower(c.name) == t)
      return c.name;
    for (const auto &a : c.aliases)
      if (ascii_lower(a) == t)
        return c.name;
  }
  return std::nullopt;
}

std::string unknown_name_message(const std::string &what, const std::vector<NameChoice> &choices,
                                 const std::string &typed) {
  std::string known;
  std::vector<std::string> spellings;
  for (const auto &c : choices) {
    known += (known.empty() ? "" : ", ") + c.name;
    spellings.push_back(c.name);
    if (!c.aliases.empty()) {
      known += " (";
      for (size_t i = 0; i < c.aliases.size(); ++i) {
        known += (i ? ", " : "") + c.aliases[i];
        spellings.push_back(c.aliases[i]);
      }
      known += ")";
    }
  }
  std::string msg = "unknown " + what + " '" + typed + "': " + known;
  if (const auto near = nearest_name(typed, spellings))
    msg += " (did you mean '" + *canonical_name(choices, *near) + "'?)";
  return msg;
}

const std::vector<NameChoice> &dtype_choices() {
  static const std::vector<NameChoice> c{{"fp32", {"float32", "float"}},
                                         {"fp16", {"float16", "half"}},
                                         {"bf16", {"bfloat16"}},
                                         {"tf32", {}},
                                         {"fp8", {}},
                                         {"int8", {}},
                                         {"fp64", {"float64", "double"}}};
  return c;
}

const std::vector<NameChoice> &pass_choices() {
  static const std::vector<NameChoice> c{{"fwd", {"forward", "inference"}},
                                         {"train", {"training"}}};
  return c;
}

const std::vector<NameChoice> &layout_choices() {
  static const std::vector<NameChoice> c{{"nchw", {}},
                                         {"nhwc", {"channels-last", "channels_last"}}};
  return c;
}

const std::vector<NameChoice> &format_choices() {
  static const std::vector<NameChoice> c{
      {"table", {"text", "txt"}}, {"csv", {}}, {"json", {}}, {"md", {"markdown"}}};
  return c;
}

} // namespace perfmodel
