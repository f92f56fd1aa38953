// Generates the LLM sweep plot's gnuplot script (two panels) and data file.
#include "perfmodel/report/plot/llm_sweep_plot.hpp"

#include <algorithm>
#include <cmath>

#include "report/plot/sweep_series.hpp"

namespace perfmodel::report::plot {

namespace {

std::string series_name(const llm::LlmSweepPoint &p) {
  std::string s = p.hw + " " + std::string(to_string(p.dtype));
  if (p.gpus > 1)
    s += " tp" + std::to_string(p.tp) + " pp" + std::to_string(p.pp);
  return s + " prompt " + std::to_string(p.prompt) + " generate " + std::to_string(p.generate);
}

} // namespace

PlotScript llm_sweep_plot(const llm::LlmSweepResult &r, const PlotPaths &paths, ImageKind kind,
                          const LlmSweepPlotOptions &opts) {
  const Series<llm::LlmSweepPoint> series = sweep_series(r.points, series_name);
  std::vector<std::pair<std::string, double>> capacities; // per hardware, first appearance
  for (const llm::LlmSweepPoint &p : r.points)
    if (!p.skipped && p.memory_capacity_bytes > 0 &&
        std::none_of(capacities.begin(), capacities.end(),
                     [&](const auto &c) { return c.first == p.hw; }))
      capacities.emplace_back(p.hw, p.memory_capacity_bytes);
  bool any_unfit = false, any_tpot = false;

  PlotScript out;
  std::string &dat = out.data;
  dat += "# LLM sweep data: " + gp_comment(r.model) + "\n";
  dat += "# columns: batch tpot_mean(s) tokens_per_second_batch(1/s) memory_per_device(B) "
         "fits_in_memory(1/0)\n";
  for (size_t k = 0; k < series.names.size(); ++k) {
    dat += block_line(k, series.names[k]);
    for (const llm::LlmSweepPoint *p : series.points[k]) {
      dat += std::to_string(p->batch) + " " + gp_num(p->tpot_mean_seconds.value_or(NAN)) + " " +
             gp_num(p->tokens_per_second_batch) + " " + gp_num(double(p->memory_bytes)) + " " +
             (p->fits_in_memory ? "1" : "0") + "\n";
      any_unfit = any_unfit || !p->fits_in_memory;
      any_tpot = any_tpot || p->tpot_mean_seconds.has_value();
    }
  }

  std::string &s = out.script;
  const std::string title = "LLM serving sweep: " + r.model;
  s += script_header(paths, kind, opts.width_px, opts.height_px, "LLM sweep plot", title);
  // Two panels side by side above one legend for the figure (as the sweep plot).
  constexpr size_t kKeyColumns = 3;
  const double key_h =
      key_height(series.names.size() + capacities.size() + (any_unfit ? 1 : 0), kKeyColumns);
  const double title_height = 0.07;
  const double panel_height = std::max(0.3, 1 - key_h - title_height);
  s += "unset title\n";
  s += "set multiplot title " + gp_quote(title) + "\n";
  s += "set grid lc rgb '#dddddd'\n";
  s += "unset key\n";
  s += "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n";
  s += "set size 0.5, " + gp_num(panel_height) + "\n";
  auto capacity_style = [&](size_t i) {
    return "with lines dt 2 lw 2 lc rgb '" + std::string(palette_color(series.names.size() + i)) +
           "'";
  };
  // Throughput against latency: each curve runs over the batch, each point labelled with it.
  s += "set origin 0, " + gp_num(key_h) + "\n";
  s += "set title 'throughput vs latency (each point: its batch)'\n";
  s += "set logscale xy\n";
  s += "set format x '%.0s%cs'\n";
  s += "set format y '%.0s%c'\n";
  s += "set xlabel 'mean TPOT (s per output token)'\n";
  s += "set ylabel 'output tokens/s (batch)'\n";
  {
    std::vector<std::string> clauses;
    for (size_t k = 0; k < series.names.size(); ++k) {
      const std::string idx = "datafile index " + std::to_string(k);
      clauses.push_back(idx + " using 2:3 " + series_style(k) + " notitle");
      clauses.push_back(idx +
                        " using 2:3:(stringcolumn(1)) with labels offset char 0.9, 0.6 "
                        "font ',8' tc rgb '" +
                        std::string(palette_color(k)) + "' notitle");
      if (any_unfit)
        clauses.push_back(idx + " using 2:($5 == 0 ? $3 : 1/0) " + kUnfitStyle + " notitle");
    }
    if (!any_tpot) // generate 1 everywhere: no decode step, nothing to draw here
      s += "set label 1 'no decode step (generate 1)' at graph 0.5, graph 0.5 center\n"
           "set xrange [1e-3:1]\nset yrange [1:10]\n";
    s += plot_command(any_tpot ? clauses : std::vector<std::string>{"1/0 notitle"});
    if (!any_tpot)
      s += "unset label 1\nset autoscale xy\n";
  }
  // Memory per device against the batch, with each device's capacity.
  s += "set origin 0.5, " + gp_num(key_h) + "\n";
  s += "set title 'memory per device vs batch'\n";
  s += "unset logscale\n";
  s += "set logscale x 2\n";
  s += "set format x '%g'\n";
  s += "set format y '%.0s%cB'\n";
  s += "set xlabel 'batch'\n";
  s += "set ylabel 'weights + KV cache (B)'\n";
  s += "set yrange [0:*]\n";
  {
    std::vector<std::string> clauses;
    for (size_t k = 0; k < series.names.size(); ++k) {
      const std::string idx = "datafile index " + std::to_string(k);
      clauses.push_back(idx + " using 1:4 " + series_style(k) + " notitle");
      if (any_unfit)
        clauses.push_back(idx + " using 1:($5 == 0 ? $4 : 1/0) " + kUnfitStyle + " notitle");
    }
    for (size_t i = 0; i < capacities.size(); ++i)
      clauses.push_back(gp_num(capacities[i].second) + " " + capacity_style(i) + " notitle");
    s += plot_command(clauses);
  }
  // The legend: the same styles, drawn out of an empty frame's range so only the key shows.
  s += legend_frame(key_h, kKeyColumns);
  std::vector<std::string> legend;
  for (size_t k = 0; k < series.names.size(); ++k)
    legend.push_back("2 " + series_style(k) + " title " + gp_quote(series.names[k]));
  for (size_t i = 0; i < capacities.size(); ++i)
    legend.push_back("2 " + capacity_style(i) + " title " +
                     gp_quote(capacities[i].first + " capacity"));
  if (any_unfit)
    legend.push_back("2 " + kUnfitStyle + " title 'does not fit in memory'");
  s += plot_command(legend);
  s += "unset multiplot\n";
  return out;
}

} // namespace perfmodel::report::plot
