// Bounded-number and name validators with one-line messages.
#include "cli/arg_checks.hpp"

#include <cctype>
#include <cfloat>
#include <charconv>
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

std::string num(double v) {
  char b[40];
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(b, sizeof b, "%.0f", v);
  else
    std::snprintf(b, sizeof b, "%g", v);
  return b;
}

// What a bounded number option accepts.
struct Bounds {
  bool integer = false;     // a whole number (the option is an integer type)
  double lo = 0;            // the least value
  bool lo_open = false;     // lo itself is not accepted (> 0 rather than >= 0)
  double hi = DBL_MAX;      // the largest value
  std::string lo_words;     // "at least 1", "greater than 0" (empty: a range message)
};

// "" when `s` is a number within `b`; else the message after the option's name. Text that is
// not a number at all is left to CLI11's conversion ("" here), except NaN and infinities,
// which strtod reads but no option means: they are refused here, so that no option can carry
// them into the model. A whole number too large for any integer type is ordered against the
// bounds as a double, so that it is reported as it was typed.
std::string check_number(const std::string &s, const Bounds &b) {
  if (s.empty())
    return "";
  char *end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size())
    return ""; // not a number: CLI11 says so
  if (!std::isfinite(v))
    return std::string("must be a ") + (b.integer ? "whole" : "finite") + " number, got " + s;
  if (b.integer) {
    long long i = 0;
    const char *first = s.c_str() + (s[0] == '+' ? 1 : 0);
    const auto [p, ec] = std::from_chars(first, s.c_str() + s.size(), i);
    if (ec == std::errc::invalid_argument || p != s.c_str() + s.size())
      return "must be a whole number, got " + s;
  }
  const bool low = b.lo_open ? !(v > b.lo) : v < b.lo;
  if (b.lo_words.empty() && (low || v > b.hi))
    return "must be between " + num(b.lo) + " and " + num(b.hi) + ", got " + s;
  if (low)
    return "must be " + b.lo_words + ", got " + s;
  if (v > b.hi)
    return "must be at most " + num(b.hi) + ", got " + s;
  return "";
}

double max_or_default(bool integer, double max) {
  return max > 0 ? max : integer ? kMaxIntOption : DBL_MAX;
}

} // namespace

CLI::Validator positive(bool integer, double max) {
  max = max_or_default(integer, max);
  Bounds b{integer, integer ? 1.0 : 0.0, !integer, max,
           integer ? "at least 1" : "greater than 0"};
  return CLI::Validator([b](std::string &s) { return check_number(s, b); }, "POSITIVE");
}

CLI::Validator non_negative(bool integer, double max) {
  max = max_or_default(integer, max);
  Bounds b{integer, 0.0, false, max, "at least 0"};
  return CLI::Validator([b](std::string &s) { return check_number(s, b); }, "NONNEGATIVE");
}

CLI::Validator between_values(double lo, double hi, bool integer, const std::string &description) {
  Bounds b{integer, lo, false, hi, ""};
  return CLI::Validator([b](std::string &s) { return check_number(s, b); }, description);
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
