// The pieces the sweep plots share (sweep_series.hpp).
#include "report/plot/sweep_series.hpp"

#include "perfmodel/report/plot/gnuplot.hpp"

namespace perfmodel::report::plot {

std::string block_line(size_t k, const std::string &name) {
  return "\n\n# block " + std::to_string(k) + ": " + gp_comment(name) + "\n";
}

std::string series_style(size_t k) {
  return "with linespoints pt 7 ps 0.8 lw 2 lc rgb '" + std::string(palette_color(k)) + "'";
}

std::string plot_command(const std::vector<std::string> &clauses) {
  std::string s = "plot \\\n";
  for (size_t i = 0; i < clauses.size(); ++i)
    s += "  " + clauses[i] + (i + 1 < clauses.size() ? ", \\\n" : "\n");
  return s;
}

double key_height(size_t entries, size_t columns) {
  const size_t rows = (entries + columns - 1) / columns;
  return 0.03 + 0.045 * double(rows);
}

std::string legend_frame(double height, size_t columns) {
  std::string s = "set origin 0, 0\n";
  s += "set size 1, " + gp_num(height) + "\n";
  s += "unset title\nunset xlabel\nunset ylabel\nunset border\nunset tics\nunset grid\n";
  s += "unset logscale\nset offsets 0, 0, 0, 0\nset xrange [0:1]\nset yrange [0:1]\n";
  s += "set key at screen 0.5, screen " + gp_num(height / 2) +
       " center center horizontal maxcols " + std::to_string(columns) + " font ',10'\n";
  return s;
}

} // namespace perfmodel::report::plot
