// Tests of the sweep plot's script and data.
#include <doctest/doctest.h>

#include "perfmodel/report/plot/sweep_plot.hpp"

using namespace perfmodel;
using namespace perfmodel::report::plot;

namespace {

SweepPoint point(const std::string &hw, DType dt, int64_t batch, bool fits = true) {
  SweepPoint p;
  p.hw = hw;
  p.dtype = dt;
  p.batch = batch;
  p.latency_seconds = 1e-3 * double(batch);
  p.throughput_samples_per_second = 1000;
  p.energy_per_sample_joules = 0.01;
  p.fits_in_memory = fits;
  return p;
}

} // namespace

TEST_CASE("sweep plot: three panels, log2 batch axis, a line per hw/dtype/pass") {
  SweepResult r;
  r.model = "m";
  r.points = {point("a100", DType::fp16, 4), point("a100", DType::fp16, 1),
              point("v100", DType::fp16, 1), point("v100", DType::fp16, 4, false)};
  SweepPoint skipped = point("t4", DType::fp8, 1);
  skipped.skipped = "no unit";
  r.points.push_back(skipped);
  PlotScript ps = sweep_plot(r, plot_paths("s.pdf"), ImageKind::pdf);
  const std::string &s = ps.script;
  CHECK(s.find("set terminal pdfcairo") != std::string::npos);
  CHECK(s.find("set multiplot title 'batch sweep: m'") != std::string::npos);
  CHECK(s.find("set logscale x 2") != std::string::npos);
  CHECK(s.find("set title 'latency'") != std::string::npos);
  CHECK(s.find("set title 'throughput'") != std::string::npos);
  CHECK(s.find("set title 'energy per sample'") != std::string::npos);
  CHECK(s.find("t4") == std::string::npos); // skipped points draw nothing
  // One legend for the figure: each entry once, in the strip below the panels, none in a panel.
  auto count = [&](const std::string &what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
      ++n;
    return n;
  };
  CHECK(count("title 'a100 fp16 fwd'") == 1);
  CHECK(count("title 'v100 fp16 fwd'") == 1);
  CHECK(count("title 'does not fit in memory'") == 1);
  CHECK(count(" notitle") == 3 * (2 + 2)); // 3 panels x (2 lines + 2 rings)
  CHECK(count("set origin ") == 4);        // three panels, then the legend
  const size_t key = s.find("set key at screen 0.5");
  REQUIRE(key != std::string::npos);
  CHECK(s.find("title 'a100 fp16 fwd'") > key);
  CHECK(s.find("unset key") < s.find("set title 'latency'"));
  CHECK(s.find("unset multiplot") != std::string::npos);
  // Block 0 (a100) sorted by batch; block 1 (v100) marks batch 4 as not fitting.
  CHECK(ps.data.find("# block 0: a100 fp16 fwd\n1 0.001 1000 0.01 1\n4 0.004 1000 0.01 1\n") !=
        std::string::npos);
  CHECK(ps.data.find("4 0.004 1000 0.01 0\n") != std::string::npos);
}

TEST_CASE("sweep plot: nothing evaluated is an error, not an empty picture") {
  SweepResult r;
  r.model = "m";
  SweepPoint p = point("t4", DType::fp8, 1);
  p.skipped = "no unit";
  r.points = {p};
  CHECK_THROWS_AS(sweep_plot(r, plot_paths("s.svg"), ImageKind::svg), InputError);
}
