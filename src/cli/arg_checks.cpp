// Bounded-number and name validators with one-line messages.
#include "cli/arg_checks.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "perfmodel/nearest_name.hpp"

namespace perfmodel::cli {

namespace {

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

} // namespace perfmodel::cli
