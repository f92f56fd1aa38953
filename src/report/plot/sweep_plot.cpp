// Generates the sweep plot's gnuplot script (three panels) and data file from a SweepResult.
#include "perfmodel/report/plot/sweep_plot.hpp"

#include <algorithm>
#include <map>

namespace perfmodel::report::plot {

PlotScript sweep_plot(const SweepResult &r, const PlotPaths &paths, ImageKind kind,
                      const SweepPlotOptions &opts) {
  // Series in order of first appearance; points of a series sorted by batch.
  std::vector<std::string> series;
  std::map<std::string, std::vector<const SweepPoint *>> points;
  for (const SweepPoint &p : r.points) {
    if (p.skipped)
      continue;
    std::string key =
        p.hw + " " + std::string(to_string(p.dtype)) + " " + std::string(to_string(p.pass));
    if (!points.count(key))
      series.push_back(key);
    points[key].push_back(&p);
  }
  if (series.empty())
    throw InputError("sweep plot: every point was skipped; nothing to draw");
  bool any_unfit = false;

  PlotScript out;
  std::string &dat = out.data;
  dat += "# sweep data: " + gp_comment(r.model) + "\n";
  dat += "# columns: batch latency(s) throughput(samples/s) energy_per_sample(J) "
         "fits_in_memory(1/0)\n";
  for (size_t k = 0; k < series.size(); ++k) {
    auto &ps = points[series[k]];
    std::stable_sort(ps.begin(), ps.end(), [](auto *a, auto *b) { return a->batch < b->batch; });
    dat += "\n\n# block " + std::to_string(k) + ": " + gp_comment(series[k]) + "\n";
    for (const SweepPoint *p : ps) {
      dat += std::to_string(p->batch) + " " + gp_num(p->latency_seconds) + " " +
             gp_num(p->throughput_samples_per_second) + " " + gp_num(p->energy_per_sample_joules) +
             " " + (p->fits_in_memory ? "1" : "0") + "\n";
      any_unfit = any_unfit || !p->fits_in_memory;
    }
  }

  std::string &s = out.script;
  s += script_header(paths, kind, opts.width_px, opts.height_px, "sweep plot",
                     "batch sweep: " + r.model);
  // Three panels side by side above one legend for the figure: a strip at the bottom, outside
  // every panel's data, tall enough for its rows.
  constexpr size_t kKeyColumns = 6;
  const size_t entries = series.size() + (any_unfit ? 1 : 0);
  const size_t key_rows = (entries + kKeyColumns - 1) / kKeyColumns;
  const double key_height = 0.03 + 0.045 * double(key_rows);
  const double title_height = 0.07;
  const double panel_height = 1 - key_height - title_height;
  s += "unset title\n";
  s += "set multiplot title " + gp_quote("batch sweep: " + r.model) + "\n";
  s += "set logscale x 2\n";
  s += "set logscale y\n";
  s += "set format x '%g'\n";
  s += "set format y '%.0s%c'\n";
  s += "set xlabel 'batch'\n";
  s += "set grid lc rgb '#dddddd'\n";
  s += "unset key\n";
  s += "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n";
  s += "set size " + gp_num(1.0 / 3) + ", " + gp_num(panel_height) + "\n";

  struct Panel {
    const char *title;
    const char *ylabel;
    int column;
  };
  const Panel panels[] = {{"latency", "latency (s)", 2},
                          {"throughput", "throughput (samples/s)", 3},
                          {"energy per sample", "energy per sample (J)", 4}};
  auto series_style = [&](size_t k) {
    return "with linespoints pt 7 ps 0.8 lw 2 lc rgb '" + std::string(palette_color(k)) + "'";
  };
  const std::string unfit_style = "with points pt 6 ps 2 lw 2 lc rgb '#000000'";
  auto emit_plot = [&](const std::vector<std::string> &clauses) {
    s += "plot \\\n";
    for (size_t i = 0; i < clauses.size(); ++i)
      s += "  " + clauses[i] + (i + 1 < clauses.size() ? ", \\\n" : "\n");
  };
  for (size_t p = 0; p < 3; ++p) {
    const Panel &pn = panels[p];
    s += "set origin " + gp_num(double(p) / 3) + ", " + gp_num(key_height) + "\n";
    s += std::string("set title '") + pn.title + "'\n";
    s += std::string("set ylabel '") + pn.ylabel + "'\n";
    std::vector<std::string> clauses;
    for (size_t k = 0; k < series.size(); ++k)
      clauses.push_back("datafile index " + std::to_string(k) + " using 1:" +
                        std::to_string(pn.column) + " " + series_style(k) + " notitle");
    if (any_unfit)
      for (size_t k = 0; k < series.size(); ++k)
        clauses.push_back("datafile index " + std::to_string(k) + " using 1:($5 == 0 ? $" +
                          std::to_string(pn.column) + " : 1/0) " + unfit_style + " notitle");
    emit_plot(clauses);
  }
  // The legend: the same styles, drawn out of an empty frame's range so only the key shows.
  s += "set origin 0, 0\n";
  s += "set size 1, " + gp_num(key_height) + "\n";
  s += "unset title\nunset xlabel\nunset ylabel\nunset border\nunset tics\nunset grid\n";
  s += "unset logscale\nset offsets 0, 0, 0, 0\nset xrange [0:1]\nset yrange [0:1]\n";
  s += "set key at screen 0.5, screen " + gp_num(key_height / 2) +
       " center center horizontal maxcols " + std::to_string(kKeyColumns) + " font ',10'\n";
  std::vector<std::string> legend;
  for (size_t k = 0; k < series.size(); ++k)
    legend.push_back("2 " + series_style(k) + " title " + gp_quote(series[k]));
  if (any_unfit)
    legend.push_back("2 " + unfit_style + " title 'does not fit in memory'");
  emit_plot(legend);
  s += "unset multiplot\n";
  return out;
}

} // namespace perfmodel::report::plot
