#include "perfmodel/host_state.hpp"

#include <algorithm>
#include <cmath>

namespace perfmodel {

HostDrift host_drift(const HostState &reference, const HostState &now) {
  auto rel = [](double ref, double v) { return ref > 0 && v > 0 ? v / ref - 1 : 0.0; };
  return {rel(reference.fp32_flops_per_second, now.fp32_flops_per_second),
          rel(reference.dram_bytes_per_second, now.dram_bytes_per_second),
          rel(reference.cross_core_bytes_per_second, now.cross_core_bytes_per_second)};
}

bool steady_compute(const HostState &probe, double undisturbed_flops) {
  return !(undisturbed_flops > 0) ||
         probe.fp32_flops_per_second >= kSteadyComputeFraction * undisturbed_flops;
}

double HostDrift::severity() const {
  return std::max(std::abs(compute) / kHostComputeTolerance,
                  std::abs(cross_core) / kHostCrossCoreTolerance);
}

bool HostDrift::beyond_tolerance() const { return severity() > 1; }

std::optional<size_t> nearest_state(const std::vector<std::optional<HostState>> &references,
                                    const HostState &now) {
  std::optional<size_t> best;
  double best_severity = 0;
  for (size_t i = 0; i < references.size(); ++i) {
    if (!references[i])
      continue;
    const double s = host_drift(*references[i], now).severity();
    if (!best || s < best_severity) {
      best = i;
      best_severity = s;
    }
  }
  return best;
}

HostState median_state(const std::vector<HostState> &probes) {
  auto median = [&probes](double HostState::*figure) {
    std::vector<double> v;
    for (const HostState &p : probes)
      v.push_back(p.*figure);
    if (v.empty())
      return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  };
  return {median(&HostState::fp32_flops_per_second), median(&HostState::dram_bytes_per_second),
          median(&HostState::cross_core_bytes_per_second)};
}

} // namespace perfmodel
