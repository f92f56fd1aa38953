#include "perfmodel/kernels/cpu/measure_in_state.hpp"

#include <algorithm>

#include "perfmodel/policy/retry.hpp"

namespace perfmodel::kernels::cpu {

StateMeasurement
measure_graph_in_state(const Graph &g, MeasureOptions opts,
                       const std::optional<HostState> &reference, int attempts,
                       const policy::HostStatePolicy &host_policy,
                       const std::function<void(int, const StateMeasurement &)> &on_retry) {
  opts.probe_host = true;
  StateMeasurement best;
  for (int attempt = 1; attempt <= std::max(1, attempts); ++attempt) {
    if (attempt > 1 && on_retry)
      on_retry(attempt, best);
    GraphMeasurement m = measure_graph(g, opts);
    policy::StateDrift drift;
    if (reference)
      drift = policy::state_drift(*reference, m.host_before, m.host_after,
                                  m.quiet ? m.quiet->probes : std::vector<policy::PassProbe>{},
                                  host_policy);
    if (attempt == 1 || drift.severity < best.severity) {
      best.worst = drift.worst;
      best.measurement = std::move(m);
      best.severity = drift.severity;
    }
    best.attempts = attempt;
    if (!reference || best.severity <= 1)
      break;
  }
  return best;
}

} // namespace perfmodel::kernels::cpu
