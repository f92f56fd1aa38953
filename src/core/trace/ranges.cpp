// Range lists: the merge, intersection and subtraction the step breakdown is built from.
#include "core/trace/ranges.hpp"

#include <algorithm>

namespace perfmodel::trace {

Ranges merge_ranges(Ranges r) {
  std::stable_sort(r.begin(), r.end(),
                   [](const Range &x, const Range &y) { return x.start < y.start; });
  Ranges out;
  out.reserve(r.size());
  for (const Range &x : r) {
    if (!out.empty() && x.start <= out.back().end) {
      out.back().end = std::max(out.back().end, x.end);
    } else {
      out.push_back(x);
    }
  }
  return out;
}

Ranges intersect_ranges(const Ranges &a, const Ranges &b) {
  Ranges out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    double s = std::max(a[i].start, b[j].start);
    double e = std::min(a[i].end, b[j].end);
    if (s < e)
      out.push_back({s, e});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

Ranges subtract_ranges(const Ranges &a, const Ranges &b) {
  Ranges out;
  size_t j = 0;
  for (const Range &x : a) {
    double cur = x.start;
    while (j < b.size() && b[j].end <= cur)
      ++j;
    size_t k = j;
    while (k < b.size() && b[k].start < x.end) {
      if (b[k].start > cur)
        out.push_back({cur, b[k].start});
      cur = std::max(cur, b[k].end);
      if (b[k].end > x.end)
        break;
      ++k;
    }
    if (cur < x.end)
      out.push_back({cur, x.end});
    j = k;
  }
  return out;
}

double ranges_sum(const Ranges &r) {
  double s = 0;
  for (const Range &x : r)
    s += x.end - x.start;
  return s;
}

} // namespace perfmodel::trace
