// Time-range algebra for the overview: merge, intersect, subtract and sum sorted range lists
// (the TensorBoard plugin's range_utils.py, same semantics, linear two-pointer passes).
#pragma once

#include <utility>
#include <vector>

namespace perfmodel::trace {

struct Range {
  double start = 0, end = 0; // seconds, start <= end
};
using Ranges = std::vector<Range>;

/// Sorts by start and merges overlapping or touching ranges into a disjoint sorted list.
Ranges merge_ranges(Ranges r);
/// Intersection of two disjoint sorted lists (empty overlaps dropped).
Ranges intersect_ranges(const Ranges &a, const Ranges &b);
/// `a` minus `b`, both disjoint sorted lists.
Ranges subtract_ranges(const Ranges &a, const Ranges &b);
/// Total length.
double ranges_sum(const Ranges &r);

} // namespace perfmodel::trace
