// Parses quantities with units ("15.7 TFLOP/s", "900 GB/s", "6 MiB", "5 us", "4.6 pJ/FLOP")
// into SI base units; prefixes are decimal, except Ki/Mi/Gi/Ti which are binary.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace perfmodel::io {

/// Parses "<number> [<prefix>]<unit>" where the unit must equal `unit` ("FLOP/s", "B/s", "B",
/// "s", "W", "Hz", "J/FLOP", "J/B"). A bare number is taken in base units. Returns nullopt and
/// sets `error` on failure.
std::optional<double> parse_quantity(std::string_view text, std::string_view unit,
                                     std::string *error);

} // namespace perfmodel::io
