// Which layers a calibration prices far outside the sizes it was fitted on.
#include <doctest/doctest.h>

#include "perfmodel/extrapolation.hpp"
#include "test_graphs.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

namespace {

// Four relus over 10^2, 10^4, 10^6 and 10^8 elements (fp32: 4 B each way).
Graph relus() {
  return make_graph({{"x", {100000000}}}, {make_layer("a", "relu"), make_layer("b", "relu"),
                                           make_layer("c", "relu"), make_layer("d", "relu")});
}

Graph sized_relus() {
  std::vector<std::pair<std::string, Shape>> inputs = {
      {"x2", {100}}, {"x4", {10000}}, {"x6", {1000000}}, {"x8", {100000000}}};
  return make_graph(
      inputs, {make_layer("small", "relu", {}, {"x2"}), make_layer("mid", "relu", {}, {"x4"}),
               make_layer("big", "relu", {}, {"x6"}), make_layer("huge", "relu", {}, {"x8"})});
}

Calibration elementwise_fitted_on(double bytes_min, double bytes_max) {
  Calibration c;
  c.memory_levels = {{"dram", 0}};
  ClassCalibration e;
  e.op_class = OpClass::elementwise;
  e.params.peak_flops_per_second = 1e12;
  e.params.bytes_per_second = {1e11};
  e.fitted_range = FittedRange{bytes_min / 8, bytes_max / 8, bytes_min, bytes_max};
  c.classes.push_back(e);
  return c;
}

} // namespace

TEST_CASE("calls more than 10x outside their class's fitted sizes are listed, those inside not") {
  const Graph g = sized_relus();
  const std::vector<LayerCost> costs = graph_cost(g, Pass::fwd);
  // Fitted on 8e4..8e6 bytes: the 8e2-byte and 8e8-byte relus lie 100x outside; 8e6 inside.
  const Calibration cal = elementwise_fitted_on(8e4, 8e6);
  const std::vector<ExtrapolatedCall> out = extrapolated_calls(cal, g, costs, Pass::fwd);
  REQUIRE(out.size() == 2);
  CHECK(out[0].layer == "small");
  CHECK(out[1].layer == "huge");
  CHECK(out[1].op_class == OpClass::elementwise);
  CHECK(out[1].bytes == doctest::Approx(8e8));
  // Exactly 10x outside is not "more than" 10x.
  CHECK(extrapolated_calls(elementwise_fitted_on(8e3, 8e7), g, costs, Pass::fwd).empty());
  // The train pass judges the backward calls too, and a layer counts once in the warning.
  const std::vector<ExtrapolatedCall> train =
      extrapolated_calls(cal, g, graph_cost(g, Pass::train), Pass::train);
  CHECK(train.size() > out.size());
  const std::vector<std::string> lines = extrapolation_warnings(train);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "elementwise/fp32: 2 layers lie more than 10x outside the sizes the "
                    "calibration fitted this class on (per call: FLOPs 1e+04 to 1e+06, bytes "
                    "8e+04 to 8e+06): small, huge");
}

TEST_CASE("no warning without a fitted range, or for a class the calibration does not fit") {
  const Graph g = relus();
  const std::vector<LayerCost> costs = graph_cost(g, Pass::fwd);
  Calibration cal = elementwise_fitted_on(1, 2);
  REQUIRE(extrapolated_calls(cal, g, costs, Pass::fwd).size() == 4);
  cal.classes[0].fitted_range.reset(); // a calibration from before the range was recorded
  CHECK(extrapolated_calls(cal, g, costs, Pass::fwd).empty());
  cal.classes[0].op_class = OpClass::gemm; // relus are priced by the roofline
  cal.classes[0].fitted_range = FittedRange{1, 2, 1, 2};
  CHECK(extrapolated_calls(cal, g, costs, Pass::fwd).empty());
}

TEST_CASE("the warning names the first layers and counts the rest") {
  std::vector<ExtrapolatedCall> calls;
  for (const char *name : {"l1", "l2", "l3", "l4", "l5", "l6", "l2"})
    calls.push_back({name, KernelPart::fwd, OpClass::conv, DType::fp16, 1, 1, {5, 6, 7, 8}});
  const std::vector<std::string> lines = extrapolation_warnings(calls, 4);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind("conv/fp16: 6 layers lie more than 10x", 0) == 0);
  CHECK(lines[0].find("): l1, l2, l3, l4 and 2 more") != std::string::npos);
}
