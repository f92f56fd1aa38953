// A graph measured again while the host is in another state than a reference (calibrate's
// networks: the rounds' state).
#pragma once

#include <functional>
#include <optional>

#include "kernels/cpu/executor.hpp"
#include "perfmodel/host_state.hpp"

namespace perfmodel::kernels::cpu {

struct StateMeasurement {
  GraphMeasurement measurement; // the attempt that drifted least (the first of equals)
  int attempts = 0;             // measurements taken
  double severity = 0;          // its drift from the reference, in tolerances (0: no reference)
};

/// measure_graph with the host probed before and after the timed passes, taken again while its
/// probes find the host in another state than `reference` (measurement_severity > 1), up to
/// `attempts` measurements in all. Without a reference, one measurement. `on_retry(attempt,
/// severity)` is called before each further attempt.
StateMeasurement measure_graph_in_state(const Graph &g, MeasureOptions opts,
                                        const std::optional<HostState> &reference, int attempts,
                                        const std::function<void(int, double)> &on_retry = {});

} // namespace perfmodel::kernels::cpu
