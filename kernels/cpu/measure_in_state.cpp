#include "kernels/cpu/measure_in_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace perfmodel::kernels::cpu {

std::optional<double> passes_drift(const HostState &reference,
                                   const std::vector<PassProbe> &probes) {
  if (!(reference.conv_flops_per_second > 0) || probes.empty())
    return std::nullopt;
  std::vector<double> v;
  for (const PassProbe &p : probes)
    v.push_back(p.conv_flops_per_second);
  std::sort(v.begin(), v.end());
  return quantile_sorted(v, 0.5) / reference.conv_flops_per_second - 1;
}

StateMeasurement measure_graph_in_state(
    const Graph &g, MeasureOptions opts, const std::optional<HostState> &reference, int attempts,
    const std::function<void(int, const StateMeasurement &)> &on_retry) {
  opts.probe_host = true;
  StateMeasurement best;
  for (int attempt = 1; attempt <= std::max(1, attempts); ++attempt) {
    if (attempt > 1 && on_retry)
      on_retry(attempt, best);
    GraphMeasurement m = measure_graph(g, opts);
    double severity =
        reference ? measurement_severity(*reference, m.host_before, m.host_after) : 0.0;
    std::string worst = reference ? worst_drift(*reference, m.host_before, m.host_after) : "";
    if (reference && m.quiet) // the convolution probes among the passes: their median
      if (const auto among = passes_drift(*reference, m.quiet->probes);
          among && std::abs(*among) / kHostConvTolerance > severity) {
        severity = std::abs(*among) / kHostConvTolerance;
        char buf[96];
        std::snprintf(buf, sizeof buf, "conv %+.0f%% among the passes (median of %zu probes)",
                      100 * *among, m.quiet->probes.size());
        worst = buf;
      }
    if (attempt == 1 || severity < best.severity) {
      best.worst = worst;
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
