// Option validators with plain messages: bounded numbers ("--batch: must be at least 1, got 0")
// and names from a fixed set, matched without regard to case, with aliases and "did you mean".
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "perfmodel/name_choice.hpp"

namespace perfmodel::cli {

/// A number >= 1 (`integer`) or > 0 (real). Help text POSITIVE, as CLI::PositiveNumber.
CLI::Validator positive(bool integer);
/// A number >= 0. Help text NONNEGATIVE, as CLI::NonNegativeNumber.
CLI::Validator non_negative();
/// A number in [lo, hi] ("must be between 1 and 20, got 25"); help text as CLI::Range's.
CLI::Validator between_values(double lo, double hi, const std::string &description);
template <typename T> CLI::Validator between(T lo, T hi) {
  std::ostringstream d;
  d << CLI::detail::type_name<T>() << " in [" << lo << " - " << hi << "]";
  return between_values(double(lo), double(hi), d.str());
}

// The names and their messages live in the core (perfmodel/name_choice.hpp), shared with the
// Python module.
using perfmodel::canonical_name;
using perfmodel::dtype_choices;
using perfmodel::format_choices;
using perfmodel::NameChoice;
using perfmodel::pass_choices;
using perfmodel::unknown_name_message;

/// A transform that turns any spelling of a choice into its canonical name and rejects the
/// rest with unknown_name_message. Help text "{a,b,c}", as CLI::IsMember's.
CLI::Validator one_of(const std::string &what, std::vector<NameChoice> choices);

} // namespace perfmodel::cli
