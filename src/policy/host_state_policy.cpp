#include "perfmodel/policy/host_state_policy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace perfmodel::policy {

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

bool steady_compute(const HostState &probe, double undisturbed_flops, const HostStatePolicy &p) {
  return !(undisturbed_flops > 0) || !(probe.fp32_flops_per_second > 0) ||
         probe.fp32_flops_per_second >= p.steady_compute_fraction * undisturbed_flops;
}

std::vector<bool> steady_probes(const std::vector<HostState> &probes, double undisturbed_flops,
                                const HostStatePolicy &p) {
  double fastest_conv = 0;
  for (const HostState &s : probes)
    fastest_conv = std::max(fastest_conv, s.conv_flops_per_second);
  std::vector<bool> steady;
  for (const HostState &s : probes)
    steady.push_back(steady_compute(s, undisturbed_flops, p) &&
                     s.conv_flops_per_second >= (1 - p.conv_tolerance) * fastest_conv);
  return steady;
}

double HostDrift::placement(const HostStatePolicy &p) const {
  if (!placement_by_round_trip)
    return std::abs(cross_core) / p.cross_core_tolerance;
  const double ratio = 1 + round_trip; // now / reference, > 0
  return (std::max(ratio, 1 / ratio) - 1) / (p.round_trip_factor - 1);
}

HostDrift::Figure HostDrift::worst(const HostStatePolicy &p) const {
  const Figure figures[] = {{"compute", compute, std::abs(compute) / p.compute_tolerance},
                            {placement_by_round_trip ? "core round trip" : "cross-core read",
                             placement_by_round_trip ? round_trip : cross_core, placement(p)},
                            {"conv", conv, std::abs(conv) / p.conv_tolerance}};
  Figure w;
  for (const Figure &f : figures)
    if (f.tolerances > w.tolerances)
      w = f;
  return w;
}

double HostDrift::severity(const HostStatePolicy &p) const { return worst(p).tolerances; }

bool HostDrift::beyond_tolerance(const HostStatePolicy &p) const { return severity(p) > 1; }

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
                        const std::optional<HostState> &after, const HostStatePolicy &p) {
  const auto [b, a] = with_faster_conv(before, after);
  HostDrift::Figure worst;
  const char *when = "";
  for (const auto &[probe, at] : {std::pair{&b, "before"}, std::pair{&a, "after"}})
    if (*probe)
      if (const HostDrift::Figure f = host_drift(reference, **probe).worst(p);
          f.tolerances > worst.tolerances)
        worst = f, when = at;
  if (!(worst.tolerances > 0))
    return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s %+.0f%% %s the passes", worst.name, 100 * worst.drift, when);
  return buf;
}

double measurement_severity(const HostState &reference, const std::optional<HostState> &before,
                            const std::optional<HostState> &after, const HostStatePolicy &p) {
  const auto [b, a] = with_faster_conv(before, after);
  return std::max(b ? host_drift(reference, *b).severity(p) : 0.0,
                  a ? host_drift(reference, *a).severity(p) : 0.0);
}

bool measurement_changed(const HostState &reference, const std::optional<HostState> &before,
                         const std::optional<HostState> &after, const HostStatePolicy &p) {
  return measurement_severity(reference, before, after, p) > 1;
}

bool placement_changed(const HostState &median, const std::vector<HostState> &probes,
                       const HostStatePolicy &p) {
  return std::any_of(probes.begin(), probes.end(),
                     [&](const HostState &s) { return host_drift(median, s).placement(p) > 1; });
}

bool calibration_changed(const HostState &median, const std::vector<HostState> &probes,
                         const HostStatePolicy &p) {
  if (placement_changed(median, probes, p))
    return true;
  if (probes.empty())
    return false;
  size_t off = 0;       // probes with their compute or convolution figure beyond its tolerance
  size_t conv_near = 0; // probes with their convolution figure near the median
  for (const HostState &s : probes) {
    const HostDrift d = host_drift(median, s);
    off += std::abs(d.compute) > p.compute_tolerance || std::abs(d.conv) > p.conv_tolerance;
    conv_near += std::abs(d.conv) <= p.conv_near_fraction * p.conv_tolerance;
  }
  const double n = double(probes.size());
  const bool conv_probed = median.conv_flops_per_second > 0;
  return double(off) / n > p.max_off_probe_share ||
         (conv_probed && double(conv_near) / n < p.min_conv_near_share);
}

std::optional<size_t> nearest_state(const std::vector<std::optional<HostState>> &references,
                                    const HostState &now, const HostStatePolicy &p) {
  std::optional<size_t> best;
  double best_severity = 0;
  for (size_t i = 0; i < references.size(); ++i) {
    if (!references[i])
      continue;
    const double s = host_drift(*references[i], now).severity(p);
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
                                     const std::optional<HostState> &after_passes,
                                     const HostStatePolicy &p) {
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
  c.index = nearest_state(candidates, *probe, p).value_or(c.index);
  return c;
}

HostState median_state(const std::vector<HostState> &probes) {
  auto median = [&probes](double HostState::*figure) {
    std::vector<double> v;
    for (const HostState &s : probes)
      v.push_back(s.*figure);
    if (v.empty())
      return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  };
  return {median(&HostState::fp32_flops_per_second), median(&HostState::dram_bytes_per_second),
          median(&HostState::cross_core_bytes_per_second),
          median(&HostState::conv_flops_per_second), median(&HostState::core_round_trip_seconds)};
}

} // namespace perfmodel::policy
