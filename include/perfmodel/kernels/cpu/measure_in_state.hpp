// A graph measured again while the host is in another state than a reference (calibrate's
// networks: the rounds' state).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "perfmodel/host_state.hpp"
#include "perfmodel/kernels/cpu/executor.hpp"
#include "perfmodel/policy/host_state_policy.hpp"

namespace perfmodel::kernels::cpu {

struct StateMeasurement {
  GraphMeasurement measurement; // the attempt that drifted least (the first of equals)
  int attempts = 0;             // measurements taken
  double severity = 0;          // its drift from the reference, in tolerances (0: no reference)
  std::string worst;            // the figure that drifted most (state_drift; "": none)
};

/// measure_graph with the host probed before and after the timed passes, taken again while its
/// probes (and, with MeasureOptions::quiet_probe_interval_seconds, the convolution probes among
/// the passes) find the host beyond one tolerance of `reference` (policy/retry.hpp state_drift,
/// by `host_policy`), up to `attempts` measurements in all. Without a reference, one
/// measurement. `on_retry(attempt, best)` is called before each further attempt with the
/// least-drifted attempt so far.
StateMeasurement
measure_graph_in_state(const Graph &g, MeasureOptions opts,
                       const std::optional<HostState> &reference, int attempts,
                       const policy::HostStatePolicy &host_policy,
                       const std::function<void(int, const StateMeasurement &)> &on_retry = {});

} // namespace perfmodel::kernels::cpu
