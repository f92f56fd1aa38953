// Tests of the calibration networks: they load, cover the op classes of the models they stand
// in for, and share no layer with the models the calibration accuracy is judged on.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "perfmodel/calibrate/calibration_networks.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/io/model_yaml.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;

namespace {

// What the fit sees of a layer: two layers with equal keys are the same sample.
using Key = std::tuple<OpClass, double, double, int64_t, int64_t, int64_t>;

Key key_of(const Sample &s) {
  return {s.op_class,
          s.flops,
          s.bytes,
          s.gemm ? s.gemm->m : 0,
          s.gemm ? s.gemm->n : 0,
          s.gemm ? s.gemm->k : 0};
}

std::vector<Sample> all_layers(const Graph &g) {
  std::vector<LayerTime> times;
  for (const Layer &l : g.layers)
    times.push_back({l.name, 1e-3});
  return samples_from_layer_times(g, times, "test:");
}

} // namespace

TEST_CASE("calibration networks load and cover every op class of the CNNs they stand in for") {
  const auto nets = calibration_networks();
  REQUIRE(nets.size() == 4);
  std::set<OpClass> classes;
  for (const Graph &g : nets) {
    CHECK(g.layers.size() >= 20);
    for (const Sample &s : all_layers(g))
      classes.insert(s.op_class);
  }
  for (OpClass c : {OpClass::gemv, OpClass::conv, OpClass::pointwise, OpClass::depthwise,
                    OpClass::depthwise_strided, OpClass::elementwise, OpClass::norm, OpClass::pool,
                    OpClass::reduce})
    CHECK_MESSAGE(classes.count(c) == 1, "no calibration-network layer of class ",
                  std::string(to_string(c)));
}

TEST_CASE("the streaming classes and depthwise convolutions are fitted on network layers") {
  for (OpClass c : {OpClass::elementwise, OpClass::norm, OpClass::pool, OpClass::reduce,
                    OpClass::depthwise, OpClass::depthwise_strided})
    CHECK(network_sample_fitted(c));
  for (OpClass c :
       {OpClass::gemm, OpClass::gemv, OpClass::conv, OpClass::pointwise, OpClass::data_movement})
    CHECK_FALSE(network_sample_fitted(c));
}

TEST_CASE("no calibration-network layer is a layer of the models the accuracy is judged on") {
  std::set<Key> judged;
  const std::pair<const char *, int64_t> models[] = {{"models/resnet50.yaml", 1},
                                                     {"models/mobilenet_v2.yaml", 1},
                                                     {"models/vgg16.yaml", 1},
                                                     {"models/nin.yaml", 5}};
  for (const auto &[path, batch] : models) {
    io::ModelLoadOptions o;
    o.batch = batch;
    for (const Sample &s : all_layers(io::read_model_yaml(path, o)))
      judged.insert(key_of(s));
  }
  REQUIRE(judged.size() > 50);
  for (const Graph &g : calibration_networks())
    for (const Sample &s : all_layers(g))
      CHECK_MESSAGE(judged.count(key_of(s)) == 0, s.source, " has the counts of a judged layer");
}

TEST_CASE("samples_from_layer_times counts like predictions and skips what it cannot use") {
  const Graph g = calibration_networks().at(2); // calib_plain
  const auto s = samples_from_layer_times(
      g, {{"c1", 2e-3}, {"no_such_layer", 1e-3}, {"flat", 1e-6}, {"r1", 0.0}, {"fc1", 5e-4}},
      "network:");
  REQUIRE(s.size() == 2); // unknown name, the flatten view and the untimed ReLU are skipped
  CHECK(s[0].source == "network:calib_plain:c1");
  CHECK(s[0].seconds == 2e-3);
  CHECK(s[0].op_class == OpClass::conv);
  CHECK(s[0].flops == 2.0 * 48 * 3 * 3 * 3 * 144 * 144); // 3x3 conv, 3 -> 48 channels, pad 1
  CHECK(s[1].op_class == OpClass::gemv);                 // a linear layer at batch 1
  // Timed inside the pass: c1 reads the graph input (handed over just before); fc1 reads p5's
  // output through the flatten view, and p5 touched its own input since.
  CHECK(s[0].reuse_bytes == 0);
  const auto p5 =
      std::find_if(g.layers.begin(), g.layers.end(), [](const Layer &l) { return l.name == "p5"; });
  REQUIRE(p5 != g.layers.end());
  CHECK(s[1].reuse_bytes == double(g.tensors.at(p5->inputs.at(0)).bytes()));
}

TEST_CASE("samples timed on two threads carry the bytes read from the other core") {
  const Graph g = calibration_networks().at(2); // calib_plain: c1 (48 x 20736 GEMM) -> r1
  const std::vector<LayerTime> times = {{"c1", 2e-3}, {"r1", 1e-4}};
  const auto two = samples_from_layer_times(g, times, "network:", 2);
  const auto one = samples_from_layer_times(g, times, "network:", 1);
  REQUIRE(two.size() == 2);
  REQUIRE(one.size() == 2);
  CHECK(two[0].cross_core_bytes == 0); // the graph input
  const double c1_out = 4.0 * 48 * 144 * 144;
  CHECK(two[1].cross_core_bytes == doctest::Approx(0.25 * c1_out).epsilon(0.01));
  CHECK(one[1].cross_core_bytes == 0);
}

TEST_CASE("recount_network_samples counts network layers again and keeps their times") {
  const Graph g = calibration_networks().at(2); // calib_plain
  // Saved on one thread: no cross-core bytes. Recounted for two threads, r1 gets them; the
  // microbenchmark sample and the times stay as they were.
  auto saved = samples_from_layer_times(g, {{"c1", 2e-3}, {"r1", 1e-4}}, "network:", 1);
  Sample bench = saved[0];
  bench.source = "microbench:conv/fp32/x";
  saved.insert(saved.begin(), bench);
  const auto two = recount_network_samples(saved, 2, 3.2e7);
  REQUIRE(two.size() == 3);
  CHECK(two[0].source == "microbench:conv/fp32/x");
  CHECK(two[2].source == "network:calib_plain:r1");
  CHECK(two[2].seconds == 1e-4);
  CHECK(saved[2].cross_core_bytes == 0);
  CHECK(two[2].cross_core_bytes == doctest::Approx(0.25 * 4.0 * 48 * 144 * 144).epsilon(0.01));
  // Counted again under the same rules, a sample is unchanged.
  const auto one = recount_network_samples(saved, 1, 3.2e7);
  CHECK(one[2].cross_core_bytes == saved[2].cross_core_bytes);
  CHECK(one[1].reuse_bytes == saved[1].reuse_bytes);
  // A layer this build's networks lack cannot be recounted.
  saved[1].source = "network:calib_plain:gone";
  CHECK_THROWS_WITH(recount_network_samples(saved, 2, 3.2e7),
                    "network:calib_plain:gone: error: no layer of this build's calibration "
                    "networks has this name: its sample cannot be recounted");
}

namespace {

// A calibration of the conv class alone: 100 GFLOP/s, 50 GB/s at every level, no other term.
Calibration conv_only_calibration() {
  Calibration cal;
  cal.memory_levels = {{"L1", 48e3}, {"DRAM", 0}};
  ClassCalibration cc;
  cc.op_class = OpClass::conv;
  cc.params.peak_flops_per_second = 1e11;
  cc.params.bytes_per_second = {5e10, 5e10};
  cal.classes.push_back(cc);
  return cal;
}

Sample conv_sample(const std::string &source, double seconds) {
  Sample s;
  s.op_class = OpClass::conv;
  s.flops = 1e8; // 1 ms at 100 GFLOP/s
  s.bytes = 1e6;
  s.gemm = GemmShape{64, 1000, 780, 1};
  s.seconds = seconds;
  s.source = source;
  return s;
}

} // namespace

TEST_CASE("network layers of the GEMM classes are held out of the fit and scored against it") {
  Sample relu;
  relu.op_class = OpClass::elementwise;
  relu.source = "network:calib_res:r1";
  const Sample micro = conv_sample("microbench:conv/x", 1e-3);
  CHECK_FALSE(held_out(relu));
  CHECK_FALSE(held_out(micro));
  CHECK_FALSE(held_out(conv_sample("measure:resnet50:conv1", 1e-3))); // a model's own layers
  // Three network convolutions measured 25%, 100% and 0% over the 1 ms the model gives.
  const std::vector<Sample> all = {micro, relu, conv_sample("network:a:c1", 1.25e-3),
                                   conv_sample("network:a:c2", 2e-3),
                                   conv_sample("network:b:c1", 1e-3)};
  CHECK(held_out(all[2]));
  const auto fitted = fitted_samples(all);
  REQUIRE(fitted.size() == 2);
  CHECK(fitted[0].source == micro.source);
  CHECK(fitted[1].source == relu.source);

  const auto lines = held_out_report(conv_only_calibration(), all);
  REQUIRE(lines.size() == 1); // the elementwise class is not in the calibration
  // Errors -20%, -50%, 0%: median -20%; their sum 3 ms against 4.25 ms measured: -29.4%.
  CHECK(lines[0] == "held out: conv/fp32, 3 network layers: median error -20.0%, their sum "
                    "-29.4% (predicted - measured)");
  CHECK(held_out_report(conv_only_calibration(), fitted).empty());
}
