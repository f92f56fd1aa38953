// Internal to src/report: what the two sweep views (sweep_view.cpp, llm_sweep_view.cpp) do alike
// to their points, for any point type P with an optional `skipped` reason: measures that a
// skipped point lacks, the grid with a skipped point's reason spanning its row, and the sort keys.
#pragma once

#include <algorithm>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "report/columns.hpp"

namespace perfmodel::report {

/// A measure of an evaluated point (none for a skipped one).
template <class P, class T> std::function<Value(const P &)> of(T P::*f) {
  return [f](const P &p) { return p.skipped ? Value() : to_value(p.*f); };
}

/// The grid of `points`: CSV numbers to 6 significant digits, Markdown rules spaced, and a
/// skipped point's row the reason "skipped: ..." in place of its measures.
template <class P> Grid points_grid(const std::vector<Column<P>> &cols, std::span<const P> points) {
  return make_grid(cols, points, Style{6, true, true},
                   std::function<std::string(const P &)>([](const P &p) {
                     return p.skipped ? "skipped: " + *p.skipped : std::string();
                   }));
}

/// A sort key: how two evaluated points compare (true: `a` goes first).
template <class P> struct SortKey {
  const char *name;
  std::function<bool(const P &, const P &)> before;
};

template <class P, class T> SortKey<P> ascending(const char *name, T P::*f) {
  return {name, [f](const P &a, const P &b) { return a.*f < b.*f; }};
}
template <class P, class T> SortKey<P> descending(const char *name, T P::*f) {
  return {name, [f](const P &a, const P &b) { return a.*f > b.*f; }};
}

/// The keys' names, in their order.
template <class P> std::vector<std::string> sort_key_names(const std::vector<SortKey<P>> &keys) {
  std::vector<std::string> names;
  for (const SortKey<P> &k : keys)
    names.push_back(k.name);
  return names;
}

/// Sorts `points` by the key named `key` (stable: ties keep their order), skipped points last
/// in their order; false, and `points` untouched, when no key has that name.
template <class P>
bool sort_points(std::vector<P> &points, const std::vector<SortKey<P>> &keys,
                 const std::string &key) {
  const auto it =
      std::find_if(keys.begin(), keys.end(), [&](const SortKey<P> &k) { return key == k.name; });
  if (it == keys.end())
    return false;
  std::stable_sort(points.begin(), points.end(), [&](const P &a, const P &b) {
    if (a.skipped || b.skipped)
      return !a.skipped && b.skipped; // skipped points last, in axis order
    return it->before(a, b);
  });
  return true;
}

} // namespace perfmodel::report
