// The ranges of values the model accepts in hardware specs and calibrations (docs/formats.md,
// "Ranges"). They are wide enough for any real device and narrow enough that every figure the
// model derives stays finite: a FLOP or byte count (at most about 2^60) divided by a rate, or a
// time multiplied by a rate or a power, can neither overflow to infinity nor lose itself in
// denormals. A value outside them is an input error, never a silent inf or NaN.
#pragma once

#include <string>

namespace perfmodel {

/// Rates: FLOP/s, B/s (peaks, bandwidths, fitted term rates).
inline constexpr double kMinRate = 1.0;
inline constexpr double kMaxRate = 1e21;
/// Energy per FLOP or per byte, in joules: 0 means not given.
inline constexpr double kMaxEnergyPerUnit = 1e-3;
/// Capacities in bytes.
inline constexpr double kMinCapacity = 1.0;
inline constexpr double kMaxCapacity = 1e21;
/// Power in watts (TDP, static power).
inline constexpr double kMinPower = 1e-3;
inline constexpr double kMaxPower = 1e7;
/// Clock in Hz.
inline constexpr double kMinClock = 1e3;
inline constexpr double kMaxClock = 1e12;
/// Compute units (SMs, cores).
inline constexpr long long kMaxUnits = 10000000;
/// Per-kernel and per-layer times in seconds (launch overhead, fitted overheads).
inline constexpr double kMaxOverheadSeconds = 1.0;

/// lo <= v <= hi; false for NaN.
inline bool in_range(double v, double lo, double hi) { return v >= lo && v <= hi; }
inline bool sane_rate(double v) { return in_range(v, kMinRate, kMaxRate); }

/// "from 1 to 1e+21" for messages.
std::string range_str(double lo, double hi);

} // namespace perfmodel
