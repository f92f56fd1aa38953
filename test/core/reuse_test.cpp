// Tests of input_reuse_bytes (how much data moved since a layer's inputs were written) and of
// the spill it causes in the calibrated model.
#include <doctest/doctest.h>

#include "perfmodel/calibration.hpp"
#include "perfmodel/cost.hpp"
#include "perfmodel/predict.hpp"
#include "test_graphs.hpp"

using namespace perfmodel;
using perfmodel::test::make_graph;
using perfmodel::test::make_layer;

namespace {

// c1 (3x3 conv) -> r1 -> r2 -> add(r2, c1) -> flat (view) -> r3
Graph residual_chain() {
  return make_graph(
      {{"x", {1, 8, 32, 32}}},
      {make_layer("c1", "conv2d",
                  {{"out_channels", int64_t(16)}, {"kernel", int64_t(3)}, {"pad", int64_t(1)}}),
       make_layer("r1", "relu", {}, {"c1"}), make_layer("r2", "relu", {}, {"r1"}),
       make_layer("add", "add", {}, {"r2", "c1"}), make_layer("flat", "flatten", {}, {"add"}),
       make_layer("r3", "relu", {}, {"flat"})});
}

} // namespace

TEST_CASE("reuse distance: distinct bytes touched since an input was last touched") {
  const Graph g = residual_chain();
  const auto costs = graph_cost(g, Pass::fwd);
  const double x = 4.0 * 8 * 32 * 32, act = 4.0 * 16 * 32 * 32; // input, every later tensor
  const double w = double(g.layers[0].params[0].bytes() + g.layers[0].params[1].bytes());
  const double im2col = 4.0 * 72 * 1024;   // 8*9 rows x 32*32 columns
  REQUIRE(g.layers[0].params.size() == 2); // weight and bias
  const std::vector<double> r = input_reuse_bytes(g, costs);
  REQUIRE(r.size() == 6);
  CHECK(r[0] == 0);                               // the graph input: handed over
  CHECK(r[1] == doctest::Approx(x + w + im2col)); // c1 wrote it (its input, weights, scratch)
  CHECK(r[2] == doctest::Approx(act));            // r1 wrote it, reading c1's output
  // add reads c1's output, last touched by r1: r1's and r2's outputs moved since.
  CHECK(r[3] == doctest::Approx(2 * act));
  CHECK(r[4] == 0);                        // a view touches nothing
  CHECK(r[5] == doctest::Approx(2 * act)); // through the view: add wrote it, reading r2 and c1
}

TEST_CASE("reuse distance: a storage counts once, the workspace once, weights per layer") {
  // Two lowered convolutions in a row after the input; the ReLU at the end re-reads x.
  const Graph g = make_graph({{"x", {1, 4, 16, 16}}}, {make_layer("a", "conv2d",
                                                                  {{"out_channels", int64_t(4)},
                                                                   {"kernel", int64_t(3)},
                                                                   {"pad", int64_t(1)},
                                                                   {"bias", int64_t(0)}}),
                                                       make_layer("b", "conv2d",
                                                                  {{"out_channels", int64_t(4)},
                                                                   {"kernel", int64_t(3)},
                                                                   {"pad", int64_t(1)},
                                                                   {"bias", int64_t(0)}},
                                                                  {"a"}),
                                                       make_layer("c", "add", {}, {"b", "x"})});
  const auto costs = graph_cost(g, Pass::fwd);
  const double t = 4.0 * 4 * 16 * 16, w = 4.0 * 4 * 4 * 9, im2col = 4.0 * 36 * 256;
  const auto r = input_reuse_bytes(g, costs);
  // c re-reads x, last touched by a: a's output, b's output, both weights, one workspace.
  CHECK(r[2] == doctest::Approx(2 * t + 2 * w + im2col));
}

TEST_CASE("a calibrated prediction gives each layer its reuse bytes") {
  const Graph g = residual_chain();
  Calibration c;
  c.cores = 1;
  c.memory_levels = {{"l2", 2e5}, {"dram", 0}};
  for (OpClass k : {OpClass::conv, OpClass::elementwise, OpClass::data_movement}) {
    ClassCalibration cc;
    cc.op_class = k;
    cc.params.peak_flops_per_second = 1e11;
    cc.params.bytes_per_second = {1e11, 1e10};
    c.classes.push_back(cc);
  }
  HwSpec hw;
  hw.compute = {ComputeUnit{"vector", DType::fp32, 1e11, false, 0}};
  hw.memory = {MemoryLevel{"dram", 1e10, 0, 0}};
  PredictOptions o;
  o.calibration = &c;
  const Prediction p = predict(g, hw, o);
  const auto costs = graph_cost(g, Pass::fwd);
  const auto reuse = input_reuse_bytes(g, costs);
  for (size_t i = 0; i < g.layers.size(); ++i) {
    INFO(g.layers[i].name);
    const KernelFeatures f = layer_features(g, g.layers[i], costs[i], KernelPart::fwd, reuse[i]);
    CHECK(p.layers[i].timing.seconds == doctest::Approx(calibrated_time(c, hw, f).seconds));
  }
  // r1 (16x32x32 floats in and out, 128 KB: the cache level by itself) comes after the conv
  // touched its input, weights and im2col matrix (0.4 MB, beyond the cache): slower than alone.
  CHECK(p.layers[1].timing.seconds >
        1.2 * calibrated_time(c, hw, layer_features(g, g.layers[1], costs[1], KernelPart::fwd))
                  .seconds);
  o.calibration = nullptr; // the roofline knows nothing of reuse
  CHECK(predict(g, hw, o).layers[1].timing.seconds ==
        doctest::Approx(roofline_time(hw, costs[1], DType::fp32).seconds));
}

TEST_CASE("the level is the one holding the working set or the reuse distance") {
  Calibration c;
  c.memory_levels = {{"l2", 1e6}, {"l3", 1e7}, {"dram", 0}};
  KernelFeatures f;
  f.op_class = OpClass::elementwise;
  f.bytes = 1e5;
  CHECK(efficiency_terms(c, 1, 1, f).level == 0); // isolated: its own working set decides
  f.reuse_bytes = 5e6;
  CHECK(efficiency_terms(c, 1, 1, f).level == 1); // an LRU L2 no longer holds its inputs
  f.reuse_bytes = 2e7;
  CHECK(efficiency_terms(c, 1, 1, f).level == 2);
  f.reuse_bytes = 5e5;
  f.bytes = 3e6; // a working set beyond the distance: the working set decides
  CHECK(efficiency_terms(c, 1, 1, f).level == 1);
}
