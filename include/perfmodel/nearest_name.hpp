// Name matching for messages that help: case-insensitive comparison and the nearest known name
// by edit distance ("did you mean ...?"). Shared by every lookup of a name a user typed
// (hardware, models, calibrations; subcommands, options, dtypes, passes).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace perfmodel {

/// ASCII lower case of `s` (names here are ASCII; other bytes are kept).
std::string ascii_lower(const std::string &s);

/// True when `a` and `b` are equal ignoring ASCII case.
bool iequals(const std::string &a, const std::string &b);

/// Optimal string alignment distance (Levenshtein plus transposition of two adjacent
/// characters, each edit costing 1), ignoring ASCII case: "a10O" -> "a100" is 1, "pred" ->
/// "perd" is 1, "" -> "abc" is 3.
size_t edit_distance(const std::string &a, const std::string &b);

/// The name in `known` nearest to `typed` by edit_distance, when it is close enough to be a
/// typo: at most max(1, length of `typed` / 3) edits, or `typed` is a prefix of it (case
/// ignored). Ties go to the earlier name in `known`. nullopt when none is that close, or when
/// `typed` equals a known name (nothing to suggest).
std::optional<std::string> nearest_name(const std::string &typed,
                                        const std::vector<std::string> &known);

/// " (did you mean 'X'?)" when nearest_name finds X, else "": appended to an error message.
std::string did_you_mean(const std::string &typed, const std::vector<std::string> &known);

} // namespace perfmodel
