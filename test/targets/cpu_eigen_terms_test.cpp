// Tests of the CPU executor's terms of the efficiency model: convolutions image by image, a
// fused epilogue over a column-split product, the cold weight read and when weights stay cached
// (include/perfmodel/targets/cpu_eigen.hpp).
#include <doctest/doctest.h>

#include "../core/efficiency_fixtures.hpp"
#include "../test_approx.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/memory_footprint.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/targets/cpu_eigen.hpp"

using namespace perfmodel;
using namespace perfmodel::test;
using perfmodel::cpu_eigen::weights_stay_cached;

namespace {

// Sets the rate of the CPU target's term j in p.
void set_rate(EfficiencyParams &p, size_t j, double rate) {
  p.term_rates.resize(cpu_eigen::target().terms().size());
  p.term_rates[j] = rate;
}

// The bytes of the CPU target's term j in e (0 for a target without it).
double term_bytes(const EfficiencyTerms &e, size_t j) {
  return j < e.term_bytes.size() ? e.term_bytes[j] : 0.0;
}

// two_level_calibration as the CPU executor's (convolutions image by image), with the gemm
// class's parameters copied to class `oc` (last in `classes`).
Calibration cpu_calibration_with(OpClass oc) {
  Calibration c = two_level_calibration();
  ClassCalibration cc = c.classes[0];
  cc.op_class = oc;
  c.classes.push_back(cc);
  c.target = &cpu_eigen::target();
  return c;
}

} // namespace

TEST_CASE("a CPU calibration times a batch of convolutions as one call per image") {
  Calibration c = two_level_calibration();
  for (OpClass cls : {OpClass::conv, OpClass::pointwise, OpClass::depthwise}) {
    ClassCalibration cc = c.classes[0];
    cc.op_class = cls;
    cc.params.m_half = 50; // one image's m is 4x smaller: its Hockney factor differs
    cc.params.overhead_seconds = 3e-6;
    c.classes.push_back(cc);
  }
  const HwSpec hw = tiny_hw();
  for (int64_t k : {3, 1}) { // im2col (conv) and 1x1 (pointwise)
    Graph one = conv_graph(8, 16, k, 1, 1);
    Graph four = one;
    four.inputs[0].shape[0] = 4;
    infer_shapes(four);
    const Layer &l1 = one.layers[0], &l4 = four.layers[0];
    const KernelFeatures f1 =
        layer_features(one, l1, layer_cost(one, l1, Pass::fwd), KernelPart::fwd);
    const KernelFeatures f4 =
        layer_features(four, l4, layer_cost(four, l4, Pass::fwd), KernelPart::fwd);
    CHECK(f1.images == 1);
    CHECK(f4.images == 4);
    double calls = 0;
    const KernelFeatures per = one_call(c, f4, &calls);
    CHECK(calls == 1); // batched: the calibration does not say per image
    CHECK(per.gemm->m == f4.gemm->m);
    const double batched = calibrated_time(c, hw, f4).seconds;
    c.target = &cpu_eigen::target();
    const KernelFeatures img = one_call(c, f4, &calls);
    CHECK(calls == 4);
    CHECK(img.gemm->m == f1.gemm->m);
    CHECK(img.flops == doctest::Approx(f1.flops));
    CHECK(img.bytes == doctest::Approx(f4.bytes / 4));
    CHECK(img.lowered_bytes == doctest::Approx(f1.lowered_bytes));
    const LayerTiming t4 = calibrated_time(c, hw, f4), t1 = calibrated_time(c, hw, f1);
    CHECK(t4.seconds == rel(4 * t1.seconds));
    CHECK(t4.overhead_seconds == rel(4 * 3e-6));
    CHECK(t4.seconds > batched); // four overheads, and the one-image Hockney factor
    CHECK(t4.attainable_flops_per_second == doctest::Approx(f4.flops / t4.seconds));
    c.target = &generic_target();
  }
  // A depthwise convolution runs over all planes in one call, per image or not.
  c.target = &cpu_eigen::target();
  KernelFeatures dw;
  dw.op_class = OpClass::depthwise;
  dw.gemm = GemmShape{16, 64, 9, 8};
  dw.flops = 2.0 * 16 * 64 * 9 * 8;
  dw.images = 4;
  double calls = 0;
  CHECK(one_call(c, dw, &calls).flops == dw.flops);
  CHECK(calls == 1);
}

TEST_CASE("a CPU calibration charges a fused epilogue's passes over a column-split product") {
  Calibration c = cpu_calibration_with(OpClass::pointwise);
  set_rate(c.classes.back().params, cpu_eigen::kEpilogue, 2e10);
  const HwSpec hw = tiny_hw();
  // A 1x1 convolution, c -> oc channels over hw x hw, with a bias (the default) and `act`.
  auto features = [](int64_t ch, int64_t oc, int64_t hw_, const std::string &act, bool bias) {
    Layer l = conv_layer(oc, 1);
    l.attrs.set("bias", int64_t{bias ? 1 : 0});
    l.activation = act;
    return fwd_features(one_layer_graph(l, {1, ch, hw_, hw_}));
  };
  // C[160 x 1600] = W[160 x 40] * x[40 x 1600]: split by columns on 2 threads.
  const KernelFeatures relu = features(40, 160, 40, "relu", true);
  CHECK(relu.epilogue_sweeps == 2);
  CHECK(features(40, 160, 40, "", true).epilogue_sweeps == 1);
  CHECK(features(40, 160, 40, "sigmoid", false).epilogue_sweeps == 0); // not fused
  CHECK(term_bytes(efficiency_terms(c, 1, 1, relu), cpu_eigen::kEpilogue) == 2.0 * 160 * 1600 * 4);
  const LayerTiming with = calibrated_time(c, hw, relu);
  set_rate(c.classes.back().params, cpu_eigen::kEpilogue, 0); // a calibration without the term
  const LayerTiming without = calibrated_time(c, hw, relu);
  CHECK(with.seconds - without.seconds == rel(2.0 * 160 * 1600 * 4 / 2e10));
  // The passes are memory traffic: they show in the memory part of the breakdown.
  CHECK(with.memory_seconds - without.memory_seconds == rel(2.0 * 160 * 1600 * 4 / 2e10));
  // No charge where the executor splits rows (C[160 x 400], k = 160 <= 160 rows: the lines of
  // a row stay with one core), on one thread, or for another target's calibration.
  set_rate(c.classes.back().params, cpu_eigen::kEpilogue, 2e10);
  CHECK(term_bytes(efficiency_terms(c, 1, 1, features(160, 160, 20, "relu", true)),
                   cpu_eigen::kEpilogue) == 0);
  c.cores = 1;
  CHECK(term_bytes(efficiency_terms(c, 1, 1, relu), cpu_eigen::kEpilogue) == 0);
  c.cores = 2;
  c.target = &generic_target();
  CHECK(term_bytes(efficiency_terms(c, 1, 1, relu), cpu_eigen::kEpilogue) == 0);
}

TEST_CASE("a CPU calibration charges a convolution's cold weight read once, not per image") {
  Calibration c = cpu_calibration_with(OpClass::conv);
  set_rate(c.classes.back().params, cpu_eigen::kWeight, 5e10);
  const HwSpec hw = tiny_hw();
  // A 3x3 convolution, 64 -> 128 channels over 14 x 14, at a batch of `n`.
  auto features = [](int64_t n) {
    return fwd_features(one_layer_graph(conv_layer(128, 3), {n, 64, 14, 14}));
  };
  const double weights = 128.0 * 64 * 9 * 4;
  const KernelFeatures f1 = features(1), f4 = features(4);
  CHECK(f1.weight_bytes == weights);
  CHECK(f4.weight_bytes == weights);
  CHECK(term_bytes(efficiency_terms(c, 1, 1, f1), cpu_eigen::kWeight) == weights);
  double calls = 0;
  CHECK(one_call(c, f4, &calls).weight_bytes == weights / 4); // a quarter per image call
  const LayerTiming with1 = calibrated_time(c, hw, f1), with4 = calibrated_time(c, hw, f4);
  set_rate(c.classes.back().params, cpu_eigen::kWeight, 0); // a calibration without the term
  const LayerTiming without1 = calibrated_time(c, hw, f1), without4 = calibrated_time(c, hw, f4);
  CHECK(with1.seconds - without1.seconds == rel(weights / 5e10));
  CHECK(with4.seconds - without4.seconds == rel(weights / 5e10)); // once
  CHECK(with4.memory_seconds - without4.memory_seconds == rel(weights / 5e10));
  // None for a GPU's calibration (batched convolutions) or for other classes.
  set_rate(c.classes.back().params, cpu_eigen::kWeight, 5e10);
  c.target = &generic_target();
  CHECK(term_bytes(efficiency_terms(c, 1, 1, f1), cpu_eigen::kWeight) == 0);
  Layer fc;
  fc.name = "fc";
  fc.op = OpKind::linear;
  fc.op_name = "linear";
  fc.attrs.set("out_features", int64_t{100});
  CHECK(fwd_features(one_layer_graph(fc, {8, 300})).weight_bytes == 0);
}

TEST_CASE("a graph whose weights and activations fit in the outermost cache reads no cold "
          "weights") {
  // 3x3, 64 -> 128 over 14 x 14: weights 295 KB, input 50 KB, output 100 KB
  const Graph g = one_layer_graph(conv_layer(128, 3), {1, 64, 14, 14});
  const double footprint = double(memory_footprint(g, Pass::fwd).total_bytes());
  CHECK(footprint >= 128.0 * 64 * 9 * 4);
  CHECK(weights_stay_cached(g, footprint));
  CHECK_FALSE(weights_stay_cached(g, footprint - 1));
  CHECK_FALSE(weights_stay_cached(g, 0));
  const Layer &l = g.layers[0];
  const LayerCost cost = layer_cost(g, l, Pass::fwd);
  CHECK(layer_features(g, l, cost, KernelPart::fwd, 0, 0, false).weight_bytes ==
        128.0 * 64 * 9 * 4);
  CHECK(layer_features(g, l, cost, KernelPart::fwd, 0, 0, true).weight_bytes == 0);
  // predict applies it with the calibration's outermost cache: the cold read is charged only
  // when the cache is smaller than the graph's footprint
  Calibration c = cpu_calibration_with(OpClass::conv);
  set_rate(c.classes.back().params, cpu_eigen::kWeight, 5e10);
  const HwSpec hw = tiny_hw();
  PredictOptions opts;
  opts.calibration = &c;
  for (const double cache : {0.5 * footprint, footprint}) {
    c.memory_levels = {{"l1", cache}, {"dram", 0}};
    const double cold = calibrated_layer_time(c, hw, g, l, cost, Pass::fwd, {}, false).seconds;
    const double warm = calibrated_layer_time(c, hw, g, l, cost, Pass::fwd, {}, true).seconds;
    CHECK(cold - warm == rel(128.0 * 64 * 9 * 4 / 5e10));
    CHECK(predict(g, hw, opts).layers[0].timing.seconds ==
          doctest::Approx(cache < footprint ? cold : warm));
  }
}

TEST_CASE("a linear layer's weights stream through the cache: they do not decide whether the "
          "convolutions' weights stay") {
  // 3x3, 64 -> 128 over 14 x 14 (weights 295 KB), then flatten and a linear layer of 100
  // outputs over the 25,088 features (weights 10 MB).
  Graph g = one_layer_graph(conv_layer(128, 3), {1, 64, 14, 14});
  Layer flat;
  flat.name = "flat";
  flat.op = OpKind::flatten;
  flat.op_name = "flatten";
  flat.inputs = {"y"};
  flat.outputs = {"f"};
  Layer fc;
  fc.name = "fc";
  fc.op = OpKind::linear;
  fc.op_name = "linear";
  fc.attrs.set("out_features", int64_t(100));
  fc.inputs = {"f"};
  fc.outputs = {"z"};
  g.layers.push_back(flat);
  g.layers.push_back(fc);
  infer_shapes(g);
  const MemoryFootprint fp = memory_footprint(g, Pass::fwd);
  int64_t linear_weights = 0;
  for (const TensorDesc &p : g.layers[2].params)
    linear_weights += p.bytes();
  CHECK(linear_weights >= int64_t(100) * 128 * 14 * 14 * 4);
  const double kept = double(fp.total_bytes() - linear_weights);
  CHECK(kept < 0.1 * double(fp.total_bytes()));
  // The cache holds everything but the linear layer's weights: the convolution's stay.
  CHECK(weights_stay_cached(g, kept));
  CHECK_FALSE(weights_stay_cached(g, kept - 1));
  // The same graph without the linear layer needs the same cache.
  g.layers.pop_back();
  infer_shapes(g);
  CHECK(double(memory_footprint(g, Pass::fwd).total_bytes()) <= kept);
}

TEST_CASE("a CPU calibration charges a strided im2col's gather after the product") {
  auto features = [](Layer l, int64_t images = 1) {
    return fwd_features(one_layer_graph(std::move(l), {images, 8, 16, 16}));
  };
  const KernelFeatures s1 = features(conv_layer(16, 3, 1));
  const KernelFeatures s2 = features(conv_layer(16, 3, 2));
  REQUIRE(s2.strided_lowered_bytes > 0);
  // The term: those bytes at the gather rate, added to the product (not overlapped), divided
  // among the images of a per-image calibration like the lowered bytes.
  Calibration c = cpu_calibration_with(OpClass::conv);
  const HwSpec hw = tiny_hw();
  const LayerTiming without = calibrated_time(c, hw, s2);
  set_rate(c.classes.back().params, cpu_eigen::kGather, 2e10);
  const LayerTiming with = calibrated_time(c, hw, s2);
  CHECK(with.seconds - without.seconds == rel(s2.strided_lowered_bytes / 2e10));
  CHECK(with.memory_seconds - without.memory_seconds == rel(s2.strided_lowered_bytes / 2e10));
  const Calibration no_term = cpu_calibration_with(OpClass::conv);
  CHECK(calibrated_time(c, hw, s1).seconds ==
        doctest::Approx(calibrated_time(no_term, hw, s1).seconds)); // stride 1: no gather
  const KernelFeatures b4 = features(conv_layer(16, 3, 2), 4);
  double calls = 0;
  CHECK(one_call(c, b4, &calls).strided_lowered_bytes == doctest::Approx(s2.strided_lowered_bytes));
  CHECK(calls == 4);
}

TEST_CASE("the generic target has no gather term") {
  Calibration c = two_level_calibration();
  ClassCalibration cc = c.classes[0];
  cc.op_class = OpClass::conv;
  set_rate(cc.params, cpu_eigen::kGather, 2e10); // ignored: the generic target has no terms
  c.classes.push_back(cc);
  const KernelFeatures s2 = fwd_features(one_layer_graph(conv_layer(16, 3, 2), {1, 8, 16, 16}));
  const LayerTiming generic = calibrated_time(c, tiny_hw(), s2);
  c.target = &cpu_eigen::target();
  CHECK(calibrated_time(c, tiny_hw(), s2).seconds ==
        doctest::Approx(generic.seconds + s2.strided_lowered_bytes / 2e10));
}

TEST_CASE("Eigen's panels: a partial tile costs the narrower panels that cover it") {
  CHECK(cpu_eigen::panel_extent(49, 1) == 49);
  // Panels of 16 rows: then one of 8 and one of 4, each as dear as a whole panel, then single
  // rows at a quarter of a panel (4 rows) each.
  CHECK(cpu_eigen::panel_extent(48, 16) == 48);
  CHECK(cpu_eigen::panel_extent(49, 16) == 52);   // 3 panels + 1 row
  CHECK(cpu_eigen::panel_extent(52, 16) == 64);   // 3 panels + a 4-row panel
  CHECK(cpu_eigen::panel_extent(56, 16) == 64);   // 3 panels + an 8-row panel
  CHECK(cpu_eigen::panel_extent(60, 16) == 80);   // + an 8-row and a 4-row panel
  CHECK(cpu_eigen::panel_extent(63, 16) == 92);   // + 8, 4 and 3 single rows
  CHECK(cpu_eigen::panel_extent(3, 16) == 12);    // 3 single rows
  CHECK(cpu_eigen::panel_extent(196, 16) == 208); // a 14x14 plane: 12 panels + a 4-row panel
  CHECK(cpu_eigen::panel_extent(5, 4) == 8);      // tile 4: 1 panel + a 1-row (quarter) panel
  CHECK(cpu_eigen::panel_extent(3, 2) == 4);      // no quarter panel under 4: whole panels
  // The CPU target applies them to Eigen's products, not to the depthwise kernel.
  Calibration c = two_level_calibration();
  c.target = &cpu_eigen::target();
  KernelFeatures f;
  f.op_class = OpClass::conv;
  f.gemm = GemmShape{49, 512, 4608, 1};
  f.flops = 2.0 * 49 * 512 * 4608;
  CHECK(efficiency_terms(c, 16, 1, f).quantized_flops == doctest::Approx(f.flops * 52 / 49));
  f.op_class = OpClass::depthwise;
  CHECK(efficiency_terms(c, 16, 1, f).quantized_flops == doctest::Approx(f.flops * 64 / 49));
  c.target = &generic_target();
  f.op_class = OpClass::conv;
  CHECK(efficiency_terms(c, 16, 1, f).quantized_flops == doctest::Approx(f.flops * 64 / 49));
}
