// The state of a shared host at one moment, as five probe figures: what a calibration records
// of the host it was taken on (Calibration::host_state). Data only: how the figures are judged
// is src/policy/host_state_policy.hpp, how they are probed kernels/cpu/host_probe.hpp, and what
// each figure sees docs/measurement-policy.md, "The host probes".
#pragma once

namespace perfmodel {

/// The probe figures of the host's state at one moment; 0: not probed.
struct HostState {
  double fp32_flops_per_second = 0; // FMA chains on every thread
  double dram_bytes_per_second = 0; // a read sweep over a working set well beyond the LLC
  /// Each thread reads the block another thread has just written (0: not probed, one thread).
  double cross_core_bytes_per_second = 0;
  /// A 3x3 convolution through the executor's im2col path on every thread (0: not probed, a
  /// calibration from before this probe): it sees the caches' and memory bus's contention,
  /// which the FMA chains do not.
  double conv_flops_per_second = 0;
  /// The core round trip: the median of empty parallel_for calls over every thread, seconds (0:
  /// not probed, one thread, a calibration from before this probe): where the threads were
  /// placed.
  double core_round_trip_seconds = 0;
};

} // namespace perfmodel
