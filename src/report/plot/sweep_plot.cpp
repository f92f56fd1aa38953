// Generates the sweep plot's gnuplot script (three panels) and data file from a SweepResult.
#include "perfmodel/report/plot/sweep_plot.hpp"

#include "report/plot/sweep_series.hpp"

namespace perfmodel::report::plot {

PlotScript sweep_plot(const SweepResult &r, const PlotPaths &paths, ImageKind kind,
                      const SweepPlotOptions &opts) {
  const Series<SweepPoint> series = sweep_series(r.points, [](const SweepPoint &p) {
    return p.hw + " " + std::string(to_string(p.dtype)) + " " + std::string(to_string(p.pass));
  });
  bool any_unfit = false;

  PlotScript out;
  std::string &dat = out.data;
  dat += "# sweep data: " + gp_comment(r.model) + "\n";
  dat += "# columns: batch latency(s) throughput(samples/s) energy_per_sample(J) "
         "fits_in_memory(1/0)\n";
  for (size_t k = 0; k < series.names.size(); ++k) {
    dat += block_line(k, series.names[k]);
    for (const SweepPoint *p : series.points[k]) {
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
  const double key_h = key_height(series.names.size() + (any_unfit ? 1 : 0), kKeyColumns);
  const double title_height = 0.07;
  const double panel_height = 1 - key_h - title_height;
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
  for (size_t p = 0; p < 3; ++p) {
    const Panel &pn = panels[p];
    s += "set origin " + gp_num(double(p) / 3) + ", " + gp_num(key_h) + "\n";
    s += std::string("set title '") + pn.title + "'\n";
    s += std::string("set ylabel '") + pn.ylabel + "'\n";
    std::vector<std::string> clauses;
    for (size_t k = 0; k < series.names.size(); ++k)
      clauses.push_back("datafile index " + std::to_string(k) + " using 1:" +
                        std::to_string(pn.column) + " " + series_style(k) + " notitle");
    if (any_unfit)
      for (size_t k = 0; k < series.names.size(); ++k)
        clauses.push_back("datafile index " + std::to_string(k) + " using 1:($5 == 0 ? $" +
                          std::to_string(pn.column) + " : 1/0) " + kUnfitStyle + " notitle");
    s += plot_command(clauses);
  }
  // The legend: the same styles, drawn out of an empty frame's range so only the key shows.
  s += legend_frame(key_h, kKeyColumns);
  std::vector<std::string> legend;
  for (size_t k = 0; k < series.names.size(); ++k)
    legend.push_back("2 " + series_style(k) + " title " + gp_quote(series.names[k]));
  if (any_unfit)
    legend.push_back("2 " + kUnfitStyle + " title 'does not fit in memory'");
  s += plot_command(legend);
  s += "unset multiplot\n";
  return out;
}

} // namespace perfmodel::report::plot
