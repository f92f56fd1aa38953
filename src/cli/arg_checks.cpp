// Bounded-number and name validators with one-line messages.
#include "cli/arg_checks.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "perfmodel/nearest_name.hpp"

namespace perfmodel::cli {

namespace {

std::string lower(std::string s) {
  for (char &c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The value as a number, or nullopt when it is not one (CLI11's conversion then reports it).
std::optional<double> number(const std::string &s) {
  if (s.empty())
    return std::nullopt;
  char *end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || std::isnan(v))
    return std::nullopt;
  return v;
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

} // namespace

CLI::Validator positive(bool integer) {
  return CLI::Validator(
      [integer](std::string &s) -> std::string {
        const auto v = number(s);
        if (!v || *v > 0)
          return "";
        return (integer ? "must be at least 1, got " : "must be greater than 0, got ") + s;
      },
      "POSITIVE");
}

CLI::Validator non_negative() {
  return CLI::Validator(
      [](std::string &s) -> std::string {
        const auto v = number(s);
        return !v || *v >= 0 ? "" : "must be at least 0, got " + s;
      },
      "NONNEGATIVE");
}

CLI::Validator between_values(double lo, double hi, const std::string &description) {
  return CLI::Validator(
      [lo, hi](std::string &s) -> std::string {
        const auto v = number(s);
        if (!v || (*v >= lo && *v <= hi))
          return "";
        return "must be between " + num(lo) + " and " + num(hi) + ", got " + s;
      },
      description);
}

std::optional<std::string> canonical_name(const std::vector<NameChoice> &choices,
                                          const std::string &typed) {
  const std::string t = lower(typed);
  for (const auto &c : choices) {
    if (lower(c.name) == t)
      return c.name;
    for (const auto &a : c.aliases)
      if (lower(a) == t)
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

CLI::Validator one_of(const std::string &what, std::vector<NameChoice> choices) {
  std::string desc = "{";
  for (size_t i = 0; i < choices.size(); ++i)
    desc += (i ? "," : "") + choices[i].name;
  desc += "}";
  return CLI::Validator(
      [what, choices](std::string &s) -> std::string {
        if (auto c = canonical_name(choices, s)) {
          s = *c;
          return "";
        }
        return unknown_name_message(what, choices, s);
      },
      desc);
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

const std::vector<NameChoice> &format_choices() {
  static const std::vector<NameChoice> c{
      {"table", {"text", "txt"}}, {"csv", {}}, {"json", {}}, {"md", {"markdown"}}};
  return c;
}

} // namespace perfmodel::cli
