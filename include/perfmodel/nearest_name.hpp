// "Did you mean": the known name nearest to a mistyped one (subcommands, options, data types,
// op names). One rule for every name so the suggestions are predictable.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfmodel {

/// `s` with ASCII capitals made small (names compare without case).
std::string ascii_lower(std::string_view s);

/// True when a and b are equal ignoring ASCII case.
bool iequals(std::string_view a, std::string_view b);

/// Optimal-string-alignment distance (insertions, deletions, substitutions and swaps of two
/// adjacent characters each cost 1), comparing ASCII letters case-insensitively.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate a typo of `typed` most likely meant, or nullopt when none is close. Leading
/// dashes and the separators '-' and '_' are ignored when comparing ("--batch-size" is near
/// "--batch"). Close means: an edit distance of at most max(1, length / 3) of the longer name,
/// or one name starting with the other when the shorter has 3 or more characters. Among close
/// candidates the smallest distance wins, then the earliest in `candidates`. A candidate equal
/// to `typed` is returned as it is (the caller asked because it did not match exactly).
std::optional<std::string> nearest_name(std::string_view typed,
                                        const std::vector<std::string> &candidates);

/// " (did you mean 'X'?)" for the nearest candidate, or "" when none is close.
std::string did_you_mean(std::string_view typed, const std::vector<std::string> &candidates);

} // namespace perfmodel
