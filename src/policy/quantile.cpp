#include "perfmodel/policy/quantile.hpp"

#include <algorithm>

namespace perfmodel::policy {

double quantile_sorted(const std::vector<double> &sorted, double q) {
  if (sorted.empty())
    return 0;
  const double pos = std::clamp(q, 0.0, 1.0) * double(sorted.size() - 1);
  const size_t lo = size_t(pos);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - double(lo)) * (sorted[hi] - sorted[lo]);
}

double median_at(const std::vector<double> &values, const std::vector<size_t> &idx) {
  if (idx.empty())
    return 0;
  std::vector<double> v;
  v.reserve(idx.size());
  for (size_t i : idx)
    v.push_back(values.at(i));
  std::sort(v.begin(), v.end());
  return quantile_sorted(v, 0.5);
}

} // namespace perfmodel::policy
