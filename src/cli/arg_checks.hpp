// Option validators with plain messages: bounded numbers ("--batch: must be at least 1, got 0")
// and names from a fixed set, matched without regard to case, with aliases and "did you mean".
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace perfmodel::cli {

// Every numeric option has one of these checks. Each refuses NaN and infinities, a fraction
// where a whole number is meant, and values outside its bounds, with a message that names the
// value as typed ("--batch: must be at least 1, got 0"; CLI11 puts the option's name first);
// text that is not a number at all is left to CLI11's conversion error.

/// The largest whole number an integer option takes unless it says otherwise (INT32_MAX: the
/// counts the CLI takes, batch sizes included, are far below it, and every count the model
/// derives from them stays inside 64 bits).
inline constexpr double kMaxIntOption = 2147483647.0;

/// A whole number in [1, max] (`integer`) or a finite real number in (0, max]; max 0 means
/// kMaxIntOption for a whole number and no bound but finiteness for a real one. Help text
/// POSITIVE.
CLI::Validator positive(bool integer, double max = 0);
/// A number in [0, max] (max 0: as for positive). Help text NONNEGATIVE.
CLI::Validator non_negative(bool integer, double max = 0);
/// A number in [lo, hi] ("must be between 1 and 20, got 25"); help text as CLI::Range's.
CLI::Validator between_values(double lo, double hi, bool integer, const std::string &description);
template <typename T> CLI::Validator between(T lo, T hi) {
  std::ostringstream d;
  d << CLI::detail::type_name<T>() << " in [" << lo << " - " << hi << "]";
  return between_values(double(lo), double(hi), std::is_integral_v<T>, d.str());
}

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
/// "unknown WHAT 'x': a, b (alias c) (did you mean 'a'?)": what an option reports for a name
/// that is not among `choices`.
std::string unknown_name_message(const std::string &what, const std::vector<NameChoice> &choices,
                                 const std::string &typed);
/// A transform that turns any spelling of a choice into its canonical name and rejects the
/// rest with unknown_name_message. Help text "{a,b,c}", as CLI::IsMember's.
CLI::Validator one_of(const std::string &what, std::vector<NameChoice> choices);

/// The spellings of --dtype (compute data types), --pass and --format.
const std::vector<NameChoice> &dtype_choices();
const std::vector<NameChoice> &pass_choices();
const std::vector<NameChoice> &format_choices();

} // namespace perfmodel::cli
