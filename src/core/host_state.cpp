#include "perfmodel/host_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace perfmodel {

HostDrift host_drift(const HostState &reference, const HostState &now) {
  auto rel = [](double ref, double v) { return ref > 0 && v > 0 ? v / ref - 1 : 0.0; };
  HostDrift d;
  d.compute = rel(reference.fp32_flops_per_second, now.fp32_flops_per_second);
  d.memory = rel(reference.dram_bytes_per_second, now.dram_bytes_per_second);
  d.cross_core = rel(reference.cross_core_bytes_per_second, now.cross_core_bytes_per_second);
  d.conv = rel(reference.conv_flops_per_second, now.conv_flops_per_second);
  d.round_trip = rel(reference.core_round_trip_seconds, now.core_round_trip_seconds);
  d.placement_by_round_trip =
      reference.core_round_trip_seconds > 0 && now.core_round_trip_seconds > 0;
  return d;
}

bool steady_compute(const HostState &probe, double undisturbed_flops) {
  return !(undisturbed_flops > 0) || !(probe.fp32_flops_per_second > 0) ||
         probe.fp32_flops_per_second >= kSteadyComputeFraction * undisturbed_flops;
}

std::vector<bool> steady_probes(const std::vector<HostState> &probes, double undisturbed_flops) {
  double fastest_conv = 0;
  for (const HostState &p : probes)
    fastest_conv = std::max(fastest_conv, p.conv_flops_per_second);
  std::vector<bool> steady;
  for (const HostState &p : probes)
    steady.push_back(steady_compute(p, undisturbed_flops) &&
                     p.conv_flops_per_second >= (1 - kHostConvTolerance) * fastest_conv);
  return steady;
}

double HostDrift::placement() const {
  if (!placement_by_round_trip)
    return std::abs(cross_core) / kHostCrossCoreTolerance;
  const double ratio = 1 + round_trip; // now / reference, > 0
  return (std::max(ratio, 1 / ratio) - 1) / (kHostRoundTripFactor - 1);
}

HostDrift::Figure HostDrift::worst() const {
  const Figure figures[] = {
      {"compute", compute, std::abs(compute) / kHostComputeTolerance},
      {placement_by_round_trip ? "core round trip" : "cross-core read",
       placement_by_round_trip ? round_trip : cross_core, placement()},
      {"conv", conv, std::abs(conv) / kHostConvTolerance}};
  Figure w;
  for (const Figure &f : figures)
    if (f.tolerances > w.tolerances)
      w = f;
  return w;
}

double HostDrift::severity() const { return worst().tolerances; }

bool HostDrift::beyond_tolerance() const { return severity() > 1; }

std::pair<std::optional<HostState>, std::optional<HostState>>
with_faster_conv(std::optional<HostState> before, std::optional<HostState> after) {
  const double faster = std::max(before ? before->conv_flops_per_second : 0.0,
                                 after ? after->conv_flops_per_second : 0.0);
  for (auto *probe : {&before, &after})
    if (*probe)
      (*probe)->conv_flops_per_second = faster;
  return {before, after};
}

std::string worst_drift(const HostState &reference, const std::optional<HostState> &before,
                        const std::optional<HostState> &after) {
  const auto [b, a] = with_faster_conv(before, after);
  HostDrift::Figure worst;
  const char *when = "";
  for (const auto &[probe, at] : {std::pair{&b, "before"}, std::pair{&a, "after"}})
    if (*probe)
      if (const HostDrift::Figure f = host_drift(reference, **probe).worst();
          f.tolerances > worst.tolerances)
        worst = f, when = at;
  if (!(worst.tolerances > 0))
    return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s %+.0f%% %s the passes", worst.name, 100 * worst.drift, when);
  return buf;
}

double measurement_severity(const HostState &reference, const std::optional<HostState> &before,
                            const std::optional<HostState> &after) {
  const auto [b, a] = with_faster_conv(before, after);
  return std::max(b ? host_drift(reference, *b).severity() : 0.0,
                  a ? host_drift(reference, *a).severity() : 0.0);
}

bool measurement_changed(const HostState &reference, const std::optional<HostState> &before,
                         const std::optional<HostState> &after) {
  return measurement_severity(reference, before, after) > 1;
}

bool placement_changed(const HostState &median, const std::vector<HostState> &probes) {
  return std::any_of(probes.begin(), probes.end(),
                     [&](const HostState &p) { return host_drift(median, p).placement() > 1; });
}

bool calibration_changed(const HostState &median, const std::vector<HostState> &probes) {
  if (placement_changed(median, probes))
    return true;
  size_t off = 0;       // probes with their compute or convolution figure beyond its tolerance
  size_t conv_near = 0; // probes with their convolution figure within half its tolerance
  for (const HostState &p : probes) {
    const HostDrift d = host_drift(median, p);
    off += std::abs(d.compute) > kHostComputeTolerance || std::abs(d.conv) > kHostConvTolerance;
    conv_near += std::abs(d.conv) <= kHostConvTolerance / 2;
  }
  const bool conv_probed = median.conv_flops_per_second > 0;
  return 3 * off > probes.size() || (conv_probed && 3 * conv_near < 2 * probes.size());
}

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

CalibrationChoice choose_calibration(const std::vector<bool> &foreign,
                                     const std::vector<std::optional<HostState>> &states,
                                     const std::optional<HostState> &before_passes,
                                     const std::optional<HostState> &after_passes) {
  CalibrationChoice c;
  const auto [before, after] = with_faster_conv(before_passes, after_passes);
  const std::optional<HostState> probe = before ? before : after;
  const auto first_local = std::find(foreign.begin(), foreign.end(), false);
  const bool any_local = first_local != foreign.end();
  if (any_local) {
    c.index = size_t(first_local - foreign.begin());
    c.left_out = size_t(std::count(foreign.begin(), foreign.end(), true));
  }
  if (!probe)
    return c;
  std::vector<std::optional<HostState>> candidates;
  for (size_t i = 0; i < states.size(); ++i)
    candidates.push_back(!any_local || (i < foreign.size() && !foreign[i]) ? states[i]
                                                                          : std::nullopt);
  c.index = nearest_state(candidates, *probe).value_or(c.index);
  return c;
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
          median(&HostState::cross_core_bytes_per_second),
          median(&HostState::conv_flops_per_second),
          median(&HostState::core_round_trip_seconds)};
}

} // namespace perfmodel
