#include "kernels/cpu/pass_placement.hpp"

#include <algorithm>
#include <numeric>

#include "kernels/cpu/timing.hpp"

namespace perfmodel::kernels::cpu {

PassSelection select_faster_placement(const std::vector<double> &round_trips) {
  PassSelection s;
  if (round_trips.size() < 2)
    return s;
  const size_t passes = round_trips.size() - 1;
  std::vector<double> sorted = round_trips;
  std::sort(sorted.begin(), sorted.end());
  s.reference_seconds = quantile_sorted(sorted, kPlacementReferenceQuantile);
  const double limit = kPlacementRoundTripFactor * s.reference_seconds;
  for (size_t i = 0; i < passes; ++i)
    if (round_trips[i] <= limit && round_trips[i + 1] <= limit)
      s.kept.push_back(i);
  if (s.kept.size() < std::min(kPlacementMinPasses, passes)) {
    s.kept.resize(passes);
    std::iota(s.kept.begin(), s.kept.end(), size_t(0));
    s.all_kept_for_too_few = true;
  }
  return s;
}

} // namespace perfmodel::kernels::cpu
