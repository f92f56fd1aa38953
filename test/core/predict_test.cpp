// Whole-model prediction: totals are the sums of the layers; conv/matrix totals; --runtime.
#include <doctest/doctest.h>

#include "perfmodel/calibration.hpp"
#include "perfmodel/predict.hpp"
#include "test_graphs.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

namespace {
HwSpec gpu() {
  HwSpec hw;
  hw.name = "g";
  hw.kind = "gpu";
  hw.compute = {{"simt", DType::fp32, 1e13, false, 1e-12},
                {"tensor", DType::fp16, 1e14, true, 1e-13}};
  hw.memory = {{"dram", 1e12, 1e10, 3e-11}};
  hw.launch_overhead_seconds = 2e-6;
  hw.tdp_watts = 300;
  hw.static_watts = 90;
  return hw;
}
Graph small() {
  return make_graph(
      {{"x", {8, 3, 32, 32}}},
      {make_layer("c1", "conv2d",
                  {{"out_channels", int64_t{16}}, {"kernel", int64_t{3}}, {"pad", int64_t{1}}}),
       make_layer("r1", "relu", {}, {"c1"}),
       make_layer("p1", "maxpool", {{"kernel", int64_t{2}}}, {"r1"}),
       make_layer("f", "flatten", {}, {"p1"}),
       make_layer("fc", "linear", {{"out_features", int64_t{10}}}, {"f"})});
}
} // namespace

TEST_CASE("totals sum the layers; gemm totals only conv/matrix layers") {
  const Graph g = small();
  const Prediction p = predict(g, gpu(), {});
  REQUIRE(p.layers.size() == 5);
  int64_t flops = 0, gemm_flops = 0;
  double secs = 0, energy = 0;
  for (const auto &lp : p.layers) {
    flops += lp.cost.total.flops;
    if (lp.cost.gemm_like)
      gemm_flops += lp.cost.total.flops;
    secs += lp.timing.seconds;
    energy += lp.energy_joules;
  }
  CHECK(p.totals.cost.flops == flops);
  CHECK(p.gemm_totals.cost.flops == gemm_flops);
  CHECK(p.gemm_totals.layers == 2);
  CHECK(p.totals.predicted_seconds == doctest::Approx(secs));
  CHECK(p.totals.energy_joules == doctest::Approx(energy));
  CHECK(p.totals.params == g.param_count());
  CHECK(p.totals.predicted.flops_per_second == doctest::Approx(flops / secs));
  CHECK(p.totals.predicted.flops_per_second_per_watt == doctest::Approx(flops / energy));
  CHECK(p.layers[3].timing.bound == Bound::none); // flatten is a view
  CHECK(p.power_watts == 300);
  CHECK_FALSE(p.totals.measured);
}

TEST_CASE("--runtime and --power give boda's measured rates") {
  PredictOptions o;
  o.runtime_seconds = 0.01;
  o.power_watts = 200;
  const Prediction p = predict(small(), gpu(), o);
  REQUIRE(p.gemm_totals.measured);
  CHECK(p.gemm_totals.measured->energy_joules == doctest::Approx(2.0));
  CHECK(p.gemm_totals.measured->flops_per_second ==
        doctest::Approx(p.gemm_totals.cost.flops / 0.01));
  CHECK(p.layers[0].energy_power_time_joules == doctest::Approx(200 * p.layers[0].timing.seconds));
}

TEST_CASE("set_dtype switches element sizes and compute units") {
  Graph g = small();
  const Prediction p32 = predict(g, gpu(), {});
  set_dtype(g, DType::fp16);
  const Prediction p16 = predict(g, gpu(), {});
  CHECK(p16.totals.cost.flops == p32.totals.cost.flops);
  CHECK(p16.totals.cost.bytes() * 2 == p32.totals.cost.bytes());
  CHECK(p16.layers[0].timing.unit.unit == "tensor");
  CHECK(p16.layers[1].timing.unit.unit == "simt");
  set_dtype(g, DType::bf16);
  CHECK_THROWS_AS(predict(g, gpu(), {}), InputError);
}

TEST_CASE("train pass costs more than forward") {
  PredictOptions o;
  o.pass = Pass::train;
  const Prediction t = predict(small(), gpu(), o);
  const Prediction f = predict(small(), gpu(), {});
  CHECK(t.totals.cost.flops > 2 * f.totals.cost.flops);
  CHECK(t.totals.predicted_seconds > f.totals.predicted_seconds);
}

TEST_CASE(
    "a calibration's pass excess adds to the layers' sum per kernel layer and in proportion") {
  const Graph g = small();
  CHECK(kernel_layer_count(g) == 4); // the flatten is a view
  Calibration c;                     // no classes: every layer falls back to the roofline
  c.memory_levels = {{"dram", 0}};
  PredictOptions o;
  o.calibration = &c;
  const Prediction none = predict(g, gpu(), o);
  CHECK(none.pass_excess_seconds == 0);
  CHECK(none.pass_seconds() == none.totals.predicted_seconds);
  c.pass_excess = PassExcess{5e-6, 0.02, 3};
  const Prediction p = predict(g, gpu(), o);
  CHECK(p.totals.predicted_seconds ==
        doctest::Approx(none.totals.predicted_seconds)); // layers unchanged
  CHECK(p.pass_excess_seconds == doctest::Approx(4 * 5e-6 + 0.02 * p.totals.predicted_seconds));
  CHECK(p.pass_seconds() == doctest::Approx(p.totals.predicted_seconds + p.pass_excess_seconds));
  CHECK(predict(g, gpu(), {}).pass_excess_seconds == 0); // the roofline has none
}
