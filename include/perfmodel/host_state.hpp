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

/// A measurement whose compute probe drifts further than this from the calibration's was taken
/// in another host state than the one calibrated (a busy SMT sibling halves a core): its errors
/// reflect the host, not only the model. 10% moves a compute-bound network's time by as much.
/// The DRAM probe is reported but not judged: on a shared host it swings between two modes from
/// one probe to the next (36-48 and 64-72 GB/s here, bursts of seconds), and in 9 accuracy
/// runs its drift (up to +87%) did not go with the errors while the compute drift (-50%) did.
inline constexpr double kHostComputeTolerance = 0.10;

/// now / reference - 1 for each probe figure (0 where the reference is missing).
struct HostDrift {
  double compute = 0;
  double memory = 0;
  bool beyond_tolerance() const; // compute beyond kHostComputeTolerance
};
HostDrift host_drift(const HostState &reference, const HostState &now);

/// The median of each figure over several probes (a steadier reference than any one of them).
HostState median_state(const std::vector<HostState> &probes);

} // namespace perfmodel
