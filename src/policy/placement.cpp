#include "perfmodel/policy/placement.hpp"

#include <algorithm>
#include <numeric>

#include "perfmodel/policy/quantile.hpp"

namespace perfmodel::policy {

PassSelection select_faster_placement(const std::vector<double> &round_trips,
                                      const std::vector<double> &pass_seconds,
                                      const PlacementPolicy &p) {
  PassSelection s;
  if (round_trips.size() < 2 || pass_seconds.size() + 1 != round_trips.size())
    return s;
  const size_t passes = pass_seconds.size();
  std::vector<double> sorted = round_trips;
  std::sort(sorted.begin(), sorted.end());
  s.reference_seconds = quantile_sorted(sorted, p.reference_quantile);
  const double limit = p.round_trip_factor * s.reference_seconds;
  std::vector<size_t> short_rt, long_rt;
  for (size_t i = 0; i < passes; ++i) {
    const bool before = round_trips[i] <= limit, after = round_trips[i + 1] <= limit;
    if (before && after)
      short_rt.push_back(i);
    else if (!before && !after)
      long_rt.push_back(i);
  }
  s.short_passes = short_rt.size();
  s.long_passes = long_rt.size();
  s.short_median_seconds = median_at(pass_seconds, short_rt);
  s.long_median_seconds = median_at(pass_seconds, long_rt);
  const size_t enough = std::max<size_t>(1, std::min(p.min_passes, passes));
  const bool short_ok = short_rt.size() >= enough, long_ok = long_rt.size() >= enough;
  if (short_ok && long_ok)
    s.kept_long_round_trip = s.long_median_seconds < s.short_median_seconds;
  else if (long_ok)
    s.kept_long_round_trip = true;
  else if (!short_ok) {
    s.kept.resize(passes);
    std::iota(s.kept.begin(), s.kept.end(), size_t(0));
    s.all_kept_for_too_few = true;
    return s;
  }
  s.kept = s.kept_long_round_trip ? std::move(long_rt) : std::move(short_rt);
  return s;
}

} // namespace perfmodel::policy
