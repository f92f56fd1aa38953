// Tests of the range algebra behind the step breakdown.
#include "core/trace/ranges.hpp"

#include <doctest/doctest.h>

#include <cstddef>

using namespace perfmodel::trace;

namespace {
bool same(const Ranges &a, const Ranges &b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].start != b[i].start || a[i].end != b[i].end)
      return false;
  return true;
}
} // namespace

TEST_CASE("merge sorts and joins overlapping and touching ranges") {
  CHECK(same(merge_ranges({{5, 6}, {1, 3}, {2, 4}, {4, 4.5}, {7, 8}, {7.5, 7.6}}),
             {{1, 4.5}, {5, 6}, {7, 8}}));
  CHECK(merge_ranges({}).empty());
}

TEST_CASE("intersect and subtract") {
  Ranges a{{0, 10}, {20, 30}}, b{{5, 25}, {28, 40}};
  CHECK(same(intersect_ranges(a, b), {{5, 10}, {20, 25}, {28, 30}}));
  CHECK(same(subtract_ranges(a, b), {{0, 5}, {25, 28}}));
  CHECK(same(subtract_ranges(b, a), {{10, 20}, {30, 40}}));
  CHECK(same(subtract_ranges(a, {}), a));
  CHECK(subtract_ranges(a, {{-1, 50}}).empty());
  CHECK(same(subtract_ranges({{0, 10}}, {{2, 3}, {4, 5}}), {{0, 2}, {3, 4}, {5, 10}}));
  CHECK(ranges_sum(a) == 20);
}
