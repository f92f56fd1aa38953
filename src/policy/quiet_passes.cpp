#include "perfmodel/policy/quiet_passes.hpp"

#include <algorithm>

#include "perfmodel/policy/quantile.hpp"

namespace perfmodel::policy {

QuietSelection select_quiet_passes(const std::vector<PassProbe> &probes,
                                   const std::vector<double> &pass_seconds,
                                   const std::vector<size_t> &candidates,
                                   double reference_flops_per_second, const QuietPassPolicy &p) {
  QuietSelection s;
  s.kept = candidates;
  if (candidates.empty() || probes.size() < 2 || probes.front().before_pass > candidates.front() ||
      probes.back().before_pass <= candidates.back())
    return s;
  s.reference_flops_per_second = std::max(reference_flops_per_second, 0.0);
  for (const PassProbe &probe : probes)
    s.reference_flops_per_second =
        std::max(s.reference_flops_per_second, probe.conv_flops_per_second);
  const double floor = (1 - p.conv_tolerance) * s.reference_flops_per_second;
  std::vector<size_t> quiet, spell;
  size_t next = 0; // the first probe after the pass
  for (size_t i : candidates) {
    while (next < probes.size() && probes[next].before_pass <= i)
      ++next;
    // probes[next - 1] is the last one before pass i (next >= 1: the first encloses it)
    const bool q = probes[next - 1].conv_flops_per_second >= floor &&
                   probes[next].conv_flops_per_second >= floor;
    (q ? quiet : spell).push_back(i);
  }
  s.quiet_passes = quiet.size();
  s.spell_passes = spell.size();
  s.quiet_median_seconds = median_at(pass_seconds, quiet);
  s.spell_median_seconds = median_at(pass_seconds, spell);
  if (quiet.size() >= std::min(p.min_passes, candidates.size()))
    s.kept = std::move(quiet);
  else
    s.all_kept_for_too_few = true;
  return s;
}

bool passes_in_spell(double calibration_flops_per_second, size_t quiet_passes, size_t spell_passes,
                     bool all_kept_for_too_few, const QuietPassPolicy &p) {
  const size_t judged = quiet_passes + spell_passes;
  return calibration_flops_per_second > 0 && judged > 0 &&
         (all_kept_for_too_few || double(quiet_passes) < p.min_quiet_fraction * double(judged));
}

std::optional<double> passes_drift(const HostState &reference,
                                   const std::vector<PassProbe> &probes) {
  if (!(reference.conv_flops_per_second > 0) || probes.empty())
    return std::nullopt;
  std::vector<double> v;
  for (const PassProbe &probe : probes)
    v.push_back(probe.conv_flops_per_second);
  std::sort(v.begin(), v.end());
  return quantile_sorted(v, 0.5) / reference.conv_flops_per_second - 1;
}

} // namespace perfmodel::policy
