#include "kernels/cpu/measure_in_state.hpp"

#include <algorithm>

namespace perfmodel::kernels::cpu {

StateMeasurement measure_graph_in_state(
    const Graph &g, MeasureOptions opts, const std::optional<HostState> &reference, int attempts,
    const std::function<void(int, const StateMeasurement &)> &on_retry) {
  opts.probe_host = true;
  StateMeasurement best;
  for (int attempt = 1; attempt <= std::max(1, attempts); ++attempt) {
    if (attempt > 1 && on_retry)
      on_retry(attempt, best);
    GraphMeasurement m = measure_graph(g, opts);
    const double severity =
        reference ? measurement_severity(*reference, m.host_before, m.host_after) : 0.0;
    if (attempt == 1 || severity < best.severity) {
      best.worst = reference ? worst_drift(*reference, m.host_before, m.host_after) : "";
      best.measurement = std::move(m);
      best.severity = severity;
    }
    best.attempts = attempt;
    if (!reference || best.severity <= 1)
      break;
  }
  return best;
}

} // namespace perfmodel::kernels::cpu
