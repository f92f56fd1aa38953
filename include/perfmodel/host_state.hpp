// The state of a shared host at one moment, as two probe figures, and how far it drifted from
// the state a calibration was taken in (docs/measure.md, "Host state").
#pragma once

#include <vector>

namespace perfmodel {

/// Two probe figures of the host's state at one moment (kernels/cpu/host_probe.hpp): on a
/// shared host the neighbours can halve a core's compute (a busy SMT sibling) or move the DRAM
/// bandwidth by half (40-48 against 65-72 GB/s on the 2-core VM), for seconds at a time.
struct HostState {
  double fp32_flops_per_second = 0; // FMA chains on every thread
  double dram_bytes_per_second = 0; // a read sweep over a working set well beyond the LLC
};

/// A measurement whose host probes drift further than these from the calibration's was taken in
/// another host state than the one calibrated: its errors reflect the host, not only the model.
/// Compute: 10%, a change that moves a compute-bound network's time by as much. Memory: 25%,
/// because the DRAM probe itself swings between two modes on a shared host (36-48 and 64-72 GB/s
/// here, seconds each) and the memory-bound layers are 10-30% of a network's time, so that a 25%
/// change moves it by 3-8%.
inline constexpr double kHostComputeTolerance = 0.10;
inline constexpr double kHostMemoryTolerance = 0.25;

/// now / reference - 1 for each probe figure (0 where the reference is missing).
struct HostDrift {
  double compute = 0;
  double memory = 0;
  bool beyond_tolerance() const; // either figure beyond its tolerance
};
HostDrift host_drift(const HostState &reference, const HostState &now);

/// The median of each figure over several probes (a steadier reference than any one of them).
HostState median_state(const std::vector<HostState> &probes);

} // namespace perfmodel
