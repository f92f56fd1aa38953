// The fingerprint of the machine a calibration was measured on (CPU model name, threads, ISA
// flags, vendor/family/model), so that a calibration used on another machine can be noticed.
#pragma once

#include <string>

#include "perfmodel/calibration.hpp"

namespace perfmodel::calibrate {

/// FNV-1a (64 bit) of the sorted, space-separated flags, as "fnv1a:%016x".
std::string isa_hash(const std::string &flags);

/// Parses /proc/cpuinfo text: model name, flags, vendor, family and model of the first
/// processor; `threads` as given.
DeviceFingerprint cpu_fingerprint_from(const std::string &cpuinfo, int threads);

/// This machine's CPU (reads /proc/cpuinfo; name "unknown cpu" where it cannot).
DeviceFingerprint this_cpu(int threads);

/// The current UTC time as ISO 8601 (YYYY-MM-DDThh:mm:ssZ).
std::string utc_now_iso8601();

/// "" when `cal` was measured on a machine like `here`, else one line saying how it differs.
std::string fingerprint_mismatch(const DeviceFingerprint &cal, const DeviceFingerprint &here);

/// "" when a calibration with fingerprint `cal` may describe the CPU `here` runs on, else why
/// not. Only a CPU calibration taken from microbenchmarks (an ISA hash) fingerprints a machine:
/// one fitted from files (measurement CSV, samples, a trace) names its hardware spec instead and
/// is compared by kind only, a GPU's never describes a CPU.
std::string host_mismatch(const DeviceFingerprint &cal, const DeviceFingerprint &here);

} // namespace perfmodel::calibrate
