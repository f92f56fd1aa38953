// The measurement policy as one object: every rule that decides which measured runs count,
// each a named object with documented defaults (docs/measurement-policy.md). `calibrate` and
// `measure` each hold one and hand its parts to the probes, the executor and the judges.
#pragma once

#include "perfmodel/policy/host_state_policy.hpp"
#include "perfmodel/policy/placement.hpp"
#include "perfmodel/policy/quiet_passes.hpp"
#include "perfmodel/policy/retry.hpp"

namespace perfmodel::policy {

/// How the host probes run (kernels/cpu/host_probe.hpp runs them).
struct ProbePolicy {
  /// Timed runs of each microbenchmark of the full host probe and of the convolution probe,
  /// each after one warm-up; the cross-core probe takes 3x this many rounds, the core round
  /// trip 3x this many calls.
  int runs = 7;
  /// Seconds between the convolution probes inside `calibrate`'s microbenchmark rounds
  /// (`calibrate --probe-interval`; 0: between rounds only). Each run counts only between two
  /// steady probes (steady_probes), so the interval bounds how much of a spell a run can miss.
  double round_probe_interval_seconds = 0.25;
};

struct MeasurementPolicy {
  ProbePolicy probe;
  HostStatePolicy host;
  PlacementPolicy placement;
  QuietPassPolicy quiet;
  CalibrationRetryPolicy calibration;
  MeasureRetryPolicy measure;
};

} // namespace perfmodel::policy
