// Internal to src/report/plot: what the two sweep plots (sweep_plot.cpp, llm_sweep_plot.cpp)
// draw alike: their series, the curves' styles, a `plot` command, and the legend strip below the
// panels.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "perfmodel/error.hpp"

namespace perfmodel::report::plot {

/// A sweep's evaluated points as series: names[k] holds points[k].
template <class P> struct Series {
  std::vector<std::string> names;
  std::vector<std::vector<const P *>> points;
};

/// The evaluated points of `all` grouped by `name_of(point)`: the series in order of their first
/// point, each series's points by batch (stable). InputError when every point was skipped.
template <class P, class NameOf> Series<P> sweep_series(const std::vector<P> &all, NameOf name_of) {
  Series<P> s;
  std::map<std::string, size_t> index;
  for (const P &p : all) {
    if (p.skipped)
      continue;
    const std::string name = name_of(p);
    const auto [it, added] = index.emplace(name, s.names.size());
    if (added) {
      s.names.push_back(name);
      s.points.emplace_back();
    }
    s.points[it->second].push_back(&p);
  }
  if (s.names.empty())
    throw InputError("sweep plot: every point was skipped; nothing to draw");
  for (auto &ps : s.points)
    std::stable_sort(ps.begin(), ps.end(), [](auto *a, auto *b) { return a->batch < b->batch; });
  return s;
}

/// The data file's line that opens series k's block (gnuplot's `index k`).
std::string block_line(size_t k, const std::string &name);

/// Series k's curve: palette colour k, lines through filled points.
std::string series_style(size_t k);

/// The ring drawn around a point that does not fit in memory.
inline const std::string kUnfitStyle = "with points pt 6 ps 2 lw 2 lc rgb '#000000'";

/// A `plot` command of the clauses, one a line.
std::string plot_command(const std::vector<std::string> &clauses);

/// The height (a fraction of the screen) of a legend strip of `entries` in `columns` columns.
double key_height(size_t entries, size_t columns);

/// The commands that set up the legend strip at the bottom of the figure, `height` high (a
/// frame with nothing in range, so that only the key shows), before its `plot_command`.
std::string legend_frame(double height, size_t columns);

} // namespace perfmodel::report::plot
