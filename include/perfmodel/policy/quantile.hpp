// Order statistics the measurement policy judges runs by.
#pragma once

#include <cstddef>
#include <vector>

namespace perfmodel::policy {

/// The q-quantile (q in [0, 1], clamped) of ascending `sorted`, interpolated linearly between
/// neighbours; 0 when empty.
double quantile_sorted(const std::vector<double> &sorted, double q);

/// The median of `values` over the indices `idx` (0 when idx is empty). Throws std::out_of_range
/// for an index past the end.
double median_at(const std::vector<double> &values, const std::vector<size_t> &idx);

} // namespace perfmodel::policy
