// The state of a shared host at one moment, as two probe figures, and how far it drifted from
// the state a calibration was taken in (docs/measure.md, "Host state").
#pragma once

namespace perfmodel {

/// Two probe figures of the host's state at one moment (kernels/cpu/host_probe.hpp): on a
/// shared host the neighbours can halve a core's compute (a busy SMT sibling) or move the DRAM
/// bandwidth by half (40-48 against 65-72 GB/s on the 2-core VM), for seconds at a time.
struct HostState {
  double fp32_flops_per_second = 0; // FMA chains on every thread
  double dram_bytes_per_second = 0; // a read sweep over a working set well beyond the LLC
};

/// now / reference - 1 for each probe figure (0 where the reference is missing).
struct HostDrift {
  double compute = 0;
  double memory = 0;
  double largest() const; // the one of larger magnitude
};
HostDrift host_drift(const HostState &reference, const HostState &now);

/// A measurement whose host probes drift further than this from the calibration's was taken in
/// another host state than the one calibrated: its errors reflect the host, not the model.
inline constexpr double kHostDriftTolerance = 0.10;

} // namespace perfmodel
