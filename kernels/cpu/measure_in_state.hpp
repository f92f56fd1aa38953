// A graph measured again while the host is in another state than a reference (calibrate's
// networks: the rounds' state).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "kernels/cpu/executor.hpp"
#include "perfmodel/host_state.hpp"

namespace perfmodel::kernels::cpu {

struct StateMeasurement {
  GraphMeasurement measurement; // the attempt that drifted least (the first of equals)
  int attempts = 0;             // measurements taken
  double severity = 0;          // its drift from the reference, in tolerances (0: no reference)
  std::string worst;            // the figure that drifted most (worst_drift; "": none)
};

/// The median of the convolution probes among a measurement's passes against the reference's
/// convolution figure: median / reference - 1 (nullopt: no probes, or a reference without it).
std::optional<double> passes_drift(const HostState &reference,
                                   const std::vector<PassProbe> &probes);

/// measure_graph with the host probed before and after the timed passes, taken again while its
/// probes find the host in another state than `reference` (measurement_severity > 1, or with
/// MeasureOptions::quiet_probe_interval_seconds the median probe among the passes, passes_drift,
/// beyond kHostConvTolerance of the reference's convolution), up to
/// `attempts` measurements in all. Without a reference, one measurement. `on_retry(attempt,
/// best)` is called before each further attempt with the least-drifted attempt so far.
StateMeasurement measure_graph_in_state(
    const Graph &g, MeasureOptions opts, const std::optional<HostState> &reference, int attempts,
    const std::function<void(int, const StateMeasurement &)> &on_retry = {});

} // namespace perfmodel::kernels::cpu
