// Tests of the roofline plot's script and data (structure; the full script is a golden case).
#include <doctest/doctest.h>

#include <sstream>

#include "perfmodel/report/plot/roofline_plot.hpp"
#include "../core/sweep_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::report::plot;

namespace {

report::RooflineData data(const std::map<std::string, double> &measured = {}) {
  static Graph g = test::tiny_net(4);
  static HwSpec hw = test::tiny_gpu();
  return report::make_roofline(predict(g, hw, PredictOptions{}), hw, measured);
}

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    ++n;
  return n;
}

} // namespace

TEST_CASE("roofline script: log-log, ceilings, diagonals, ridges, a block per op type") {
  auto d = data();
  PlotScript ps = roofline_plot(d, plot_paths("out/r.svg"), ImageKind::svg);
  const std::string &s = ps.script;
  CHECK(s.find("set terminal svg size 1200,800") != std::string::npos);
  CHECK(s.find("outfile = 'r.svg'") != std::string::npos);
  CHECK(s.find("datafile = 'r.dat'") != std::string::npos);
  CHECK(s.find("set logscale xy") != std::string::npos);
  CHECK(s.find("set title 'roofline: tiny on gpu1, batch 4, fp32, fwd'") != std::string::npos);
  // A segment per memory level, one per ceiling of a used dtype and a dotted one from the DRAM
  // ridge up: dram from the left edge up to the used ceiling (10 TF/s at 10 F/B), the fp32
  // ceiling from the fastest level (l2: 2.5 F/B) rightwards. The fp16 tensor ceiling (100 TF/s)
  // serves no layer: not drawn, not named.
  CHECK(count(s, "set arrow ") == 2 + 1 + 1);
  CHECK(s.find("to first 10, first 1e+13 nohead lw 2 lc rgb '#555555' dt 2") != std::string::npos);
  CHECK(s.find("from first 2.5, first 1e+13 to first 100, first 1e+13 nohead lw 2") !=
        std::string::npos);
  CHECK(s.find("tensor") == std::string::npos);
  // Ceiling names and the DRAM ridge are tics of the right and top axes, outside the data.
  CHECK(s.find("set y2tics scale 0.5 font ',9' ('simt fp32 10.0TF/s' 1e+13)") != std::string::npos);
  CHECK(s.find("set x2tics scale 0.5 font ',9' ('10.0' 10)") != std::string::npos);
  CHECK(s.find("set x2label 'ridge with dram (FLOP/byte)'") != std::string::npos);
  CHECK(s.find("'dram 1.00TB/s'") != std::string::npos);
  // Three drawable layers of three op types: three blocks, then the ridge block (index 3).
  CHECK(s.find("title 'conv2d'") != std::string::npos);
  CHECK(s.find("title 'relu'") != std::string::npos);
  CHECK(s.find("title 'linear'") != std::string::npos);
  CHECK(s.find("datafile index 3 using 1:2 with points pt 2") != std::string::npos);
  CHECK(s.find("measured") == std::string::npos); // none given
  CHECK(s.find("1 layer(s) without FLOPs or bytes not drawn") != std::string::npos);
  CHECK(count(ps.data, "\n\n# block ") == 4);
  CHECK(ps.data.find("#   2 flat (flatten)") != std::string::npos);
}

TEST_CASE("roofline script: top-N labels and hollow measured points") {
  auto d = data({{"conv", 1e-3}});
  RooflinePlotOptions o;
  o.label_top = 1;
  PlotScript ps = roofline_plot(d, plot_paths("r.png"), ImageKind::png, o);
  size_t top = report::top_points_by_time(d, 1).at(0);
  CHECK(ps.script.find("'" + d.points[top].name + "' at first") != std::string::npos);
  CHECK(count(ps.script, "left offset 1,1") == 1);
  CHECK(ps.script.find("using 1:5:6 with points pt 6") != std::string::npos);
  CHECK(ps.script.find("title 'measured (hollow)'") != std::string::npos);
  // The conv row carries its measured FLOP/s; the other rows NaN.
  CHECK(ps.data.find(" NaN NaN ") != std::string::npos);
}

TEST_CASE("roofline script: point area proportional to time") {
  auto d = data();
  PlotScript ps = roofline_plot(d, plot_paths("r.svg"), ImageKind::svg);
  // Parse "ai flops size seconds ..." rows; size^2 / seconds is constant above the minimum.
  std::vector<std::pair<double, double>> rows;
  std::istringstream lines(ps.data);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    double ai, f, size, secs;
    if (line.empty() || line[0] == '#' || !(in >> ai >> f >> size >> secs))
      continue;
    if (size > 0.4 + 1e-9)
      rows.emplace_back(size, secs); // above the minimum size
  }
  REQUIRE(rows.size() >= 2);
  double k = rows[0].first * rows[0].first / rows[0].second;
  for (auto [size, secs] : rows)
    CHECK(size * size / secs == doctest::Approx(k).epsilon(1e-4));
}

TEST_CASE("a hostile layer name reaches the script only as a quoted string") {
  auto d = data();
  d.points[0].name = "x'); system(\"touch /tmp/pwned\") #\n`id` @m";
  RooflinePlotOptions o;
  o.label_top = 10;
  PlotScript ps = roofline_plot(d, plot_paths("r.svg"), ImageKind::svg, o);
  CHECK(ps.script.find("'x''); system(\"touch /tmp/pwned\") # `id` @m'") != std::string::npos);
  // No line of the script starts with anything the name could have injected.
  CHECK(ps.script.find("\nsystem") == std::string::npos);
  CHECK(ps.script.find("\n`id`") == std::string::npos);
  CHECK(ps.data.find("\n`id`") == std::string::npos); // the comment line was not broken
}
