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
  s += "unset title\n";
  s += "set multiplot layout 1,3 title " + gp_quote("batch sweep: " + r.model) + "\n";
  s += "set logscale x 2\n";
  s += "set logscale y\n";
  s += "set format x '%g'\n";
  s += "set format y '%.0s%c'\n";
  s += "set xlabel 'batch'\n";
  s += "set grid lc rgb '#dddddd'\n";
  s += "set key top left font ',9'\n";
  s += "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n";

  struct Panel {
    const char *title;
    const char *ylabel;
    int column;
  };
  const Panel panels[] = {{"latency", "latency (s)", 2},
                          {"throughput", "throughput (samples/s)", 3},
                          {"energy per sample", "energy per sample (J)", 4}};
  for (const Panel &pn : panels) {
    s += std::string("set title '") + pn.title + "'\n";
    s += std::string("set ylabel '") + pn.ylabel + "'\n";
    std::vector<std::string> clauses;
    for (size_t k = 0; k < series.size(); ++k)
      clauses.push_back("datafile index " + std::to_string(k) + " using 1:" +
                        std::to_string(pn.column) + " with linespoints pt 7 ps 0.8 lw 2 lc rgb '" +
                        std::string(palette_color(k)) + "' title " + gp_quote(series[k]));
    if (any_unfit)
      for (size_t k = 0; k < series.size(); ++k)
        clauses.push_back("datafile index " + std::to_string(k) + " using 1:($5 == 0 ? $" +
                          std::to_string(pn.column) +
                          " : 1/0) with points pt 6 ps 2 lw 2 lc rgb '#000000' " +
                          (k == 0 ? "title 'does not fit in memory'" : "notitle"));
    s += "plot \\\n";
    for (size_t i = 0; i < clauses.size(); ++i)
      s += "  " + clauses[i] + (i + 1 < clauses.size() ? ", \\\n" : "\n");
  }
  s += "unset multiplot\n";
  return out;
}

} // namespace perfmodel::report::plot
