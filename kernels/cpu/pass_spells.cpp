#include "kernels/cpu/pass_spells.hpp"

#include <algorithm>

#include "kernels/cpu/pass_placement.hpp"

namespace perfmodel::kernels::cpu {

QuietSelection select_quiet_passes(const std::vector<PassProbe> &probes,
                                   const std::vector<double> &pass_seconds,
                                   const std::vector<size_t> &candidates,
                                   double reference_flops_per_second) {
  QuietSelection s;
  s.kept = candidates;
  if (candidates.empty() || probes.size() < 2 || probes.front().before_pass > candidates.front() ||
      probes.back().before_pass <= candidates.back())
    return s;
  s.reference_flops_per_second = std::max(reference_flops_per_second, 0.0);
  for (const PassProbe &p : probes)
    s.reference_flops_per_second = std::max(s.reference_flops_per_second, p.conv_flops_per_second);
  const double floor = (1 - kHostConvTolerance) * s.reference_flops_per_second;
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
  s.quiet_median_seconds = median_pass_seconds(pass_seconds, quiet);
  s.spell_median_seconds = median_pass_seconds(pass_seconds, spell);
  if (quiet.size() >= std::min(kPlacementMinPasses, candidates.size()))
    s.kept = std::move(quiet);
  else
    s.all_kept_for_too_few = true;
  return s;
}

} // namespace perfmodel::kernels::cpu
