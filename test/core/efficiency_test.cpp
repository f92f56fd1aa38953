// Tests of the calibrated efficiency model: op classes, features, tiles/waves, levels, time.
#include <doctest/doctest.h>

#include <cmath>

#include "../test_approx.hpp"
#include "efficiency_fixtures.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/time_statistic.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("op class and pass names round-trip") {
  for (OpClass c : all_op_classes())
    CHECK(parse_op_class(to_string(c)) == c);
  CHECK_FALSE(parse_op_class("conv2d"));
  CHECK(parse_kernel_part("bwd_weight") == KernelPart::bwd_weight);
  CHECK(parse_kernel_part("bwd_filter") == KernelPart::bwd_weight); // cuDNN's name, an alias
  CHECK(parse_kernel_part("BWD_Data") == KernelPart::bwd_data);
  CHECK(parse_kernel_part("bwd_data") == KernelPart::bwd_data);
  CHECK_FALSE(parse_kernel_part("backward"));
  CHECK(is_gemm_class(OpClass::depthwise));
  CHECK(is_gemm_class(OpClass::depthwise_strided));
  CHECK(fallback_class(OpClass::depthwise_strided) == OpClass::depthwise);
  CHECK(fallback_class(OpClass::gemm) == OpClass::gemm);
  CHECK(fallback_class(OpClass::reduce) == OpClass::pool);
  CHECK_FALSE(is_gemm_class(OpClass::pool));
}

TEST_CASE("windowed pools and global pools / reductions are different classes") {
  Graph g;
  g.inputs.push_back(TensorDesc{"x", {1, 8, 16, 16}, DType::fp32});
  Layer mp;
  mp.name = "mp", mp.op = OpKind::max_pool, mp.op_name = "maxpool", mp.inputs = {"x"};
  mp.attrs.set("kernel", std::vector<int64_t>{2, 2});
  mp.attrs.set("stride", std::vector<int64_t>{2, 2});
  Layer gp;
  gp.name = "gp", gp.op = OpKind::global_avg_pool, gp.op_name = "global_avgpool";
  gp.inputs = {"mp"};
  g.layers = {mp, gp};
  infer_shapes(g);
  CHECK(op_class_of(g, g.layers[0]) == OpClass::pool);
  CHECK(op_class_of(g, g.layers[1]) == OpClass::reduce);
  // A windowed pool whose one window covers its 8x8 input: a global pool (NIN's last pool).
  Layer whole = mp;
  whole.name = "whole", whole.inputs = {"mp"};
  whole.attrs.set("kernel", std::vector<int64_t>{8, 8});
  whole.attrs.set("stride", std::vector<int64_t>{1, 1});
  Layer padded = whole;
  padded.name = "padded";
  padded.attrs.set("pad", std::vector<int64_t>{1, 1});
  padded.attrs.set("kernel", std::vector<int64_t>{10, 10});
  // The plane exactly, with pads at the bottom/right only (never reached): still a global pool,
  // as the kernel runs it (kernels/cpu/pool.hpp covers_plane).
  Layer bottom_pad = whole;
  bottom_pad.name = "bottom_pad";
  bottom_pad.attrs.set("pad", std::vector<int64_t>{0, 0, 1, 1});
  bottom_pad.attrs.set("stride", std::vector<int64_t>{2, 2}); // one window: (8 + 1 - 8) / 2 + 1
  g.layers = {mp, whole, padded, bottom_pad};
  infer_shapes(g);
  CHECK(op_class_of(g, g.layers[1]) == OpClass::reduce);
  CHECK(op_class_of(g, g.layers[2]) == OpClass::pool); // its window reaches into padding
  REQUIRE(g.tensor("bottom_pad").shape == Shape{1, 8, 1, 1});
  CHECK(op_class_of(g, g.layers[3]) == OpClass::reduce);
  // A 1x1 window at stride 1, unpadded (VGG-16's adaptive 7x7 -> 7x7 pool): the executor's copy.
  Layer same = mp;
  same.name = "same";
  same.op = OpKind::avg_pool, same.op_name = "avgpool";
  same.attrs.set("kernel", std::vector<int64_t>{1, 1});
  same.attrs.set("stride", std::vector<int64_t>{1, 1});
  Layer strided = same; // a 1x1 window at stride 2 subsamples: still a pool
  strided.name = "strided";
  strided.attrs.set("stride", std::vector<int64_t>{2, 2});
  g.layers = {same, strided};
  infer_shapes(g);
  CHECK(op_class_of(g, g.layers[0]) == OpClass::data_movement);
  CHECK(op_class_of(g, g.layers[1]) == OpClass::pool);
}

TEST_CASE("conv layers: dense, depthwise and lowered bytes") {
  const Graph dense = conv_graph(8, 16, 3, 1, 1);
  const Layer &l = dense.layers[0];
  CHECK(op_class_of(dense, l) == OpClass::conv);
  const LayerCost cost = layer_cost(dense, l, Pass::train);
  const KernelFeatures f = layer_features(dense, l, cost, KernelPart::fwd);
  REQUIRE(f.gemm);
  CHECK(f.gemm->m == 256);
  CHECK(f.gemm->n == 16);
  CHECK(f.gemm->k == 72);
  CHECK(f.lowered_bytes == 256.0 * 72 * 4); // the im2col matrix
  // Backward parts: dX = dY W^T (m x k over n), dW = X^T dY (k x n over m).
  const KernelFeatures bd = layer_features(dense, l, cost, KernelPart::bwd_data);
  CHECK(bd.gemm->n == 72);
  CHECK(bd.gemm->k == 16);
  const KernelFeatures bw = layer_features(dense, l, cost, KernelPart::bwd_weight);
  CHECK(bw.gemm->m == 72);
  CHECK(bw.gemm->k == 256);
  CHECK(bw.flops == double(cost.bwd_weight.flops));

  const Graph pointwise = conv_graph(8, 16, 1, 1, 1);
  const KernelFeatures pf =
      layer_features(pointwise, pointwise.layers[0],
                     layer_cost(pointwise, pointwise.layers[0], Pass::fwd), KernelPart::fwd);
  CHECK(pf.lowered_bytes == 0);
  CHECK(pf.op_class == OpClass::pointwise);
  const Graph strided = conv_graph(8, 16, 1, 2, 1); // 1x1 stride 2: lowered (im2col path)
  CHECK(layer_features(strided, strided.layers[0],
                       layer_cost(strided, strided.layers[0], Pass::fwd), KernelPart::fwd)
            .op_class == OpClass::conv);
  const Graph dw = conv_graph(8, 8, 3, 2, 8);
  CHECK(op_class_of(dw, dw.layers[0]) == OpClass::depthwise_strided); // stride 2
  const Graph dw1 = conv_graph(8, 8, 3, 1, 8);
  CHECK(op_class_of(dw1, dw1.layers[0]) == OpClass::depthwise);
  // A depthwise conv is a direct kernel over output rows: m = ow, n = rows (oh), k = taps.
  const KernelFeatures df = layer_features(
      dw1, dw1.layers[0], layer_cost(dw1, dw1.layers[0], Pass::fwd), KernelPart::fwd);
  REQUIRE(df.gemm);
  CHECK(df.gemm->m == 16);
  CHECK(df.gemm->n == 16);
  CHECK(df.gemm->k == 9);
  CHECK(df.gemm->groups == 8);
  CHECK(2.0 * df.gemm->m * df.gemm->n * df.gemm->k * df.gemm->groups == df.flops);
  CHECK(layer_features(dw, dw.layers[0], layer_cost(dw, dw.layers[0], Pass::fwd), KernelPart::fwd)
            .lowered_bytes == 0);
  const Graph grouped = conv_graph(8, 16, 3, 1, 2);
  CHECK(op_class_of(grouped, grouped.layers[0]) == OpClass::conv);
}

TEST_CASE("a lowered convolution with a stride along the width gathers its im2col matrix") {
  auto features = [](Layer l, int64_t images = 1) {
    return fwd_features(one_layer_graph(std::move(l), {images, 8, 16, 16}));
  };
  const KernelFeatures s1 = features(conv_layer(16, 3, 1));
  CHECK(s1.lowered_bytes > 0);
  CHECK(s1.strided_lowered_bytes == 0); // row copies
  const KernelFeatures s2 = features(conv_layer(16, 3, 2));
  CHECK(s2.lowered_bytes == 64.0 * 72 * 4);
  CHECK(s2.strided_lowered_bytes == s2.lowered_bytes);
  const KernelFeatures p2 = features(conv_layer(16, 1, 2)); // 1x1 stride 2: lowered, gathered
  CHECK(p2.op_class == OpClass::conv);
  CHECK(p2.strided_lowered_bytes == p2.lowered_bytes);
  Layer rows_only = conv_layer(16, 3);
  rows_only.attrs.set("stride", std::vector<int64_t>{2, 1}); // picks rows, copies each whole
  CHECK(features(rows_only).strided_lowered_bytes == 0);
  Layer cols_only = conv_layer(16, 3);
  cols_only.attrs.set("stride", std::vector<int64_t>{1, 2});
  CHECK(features(cols_only).strided_lowered_bytes == features(cols_only).lowered_bytes);
  CHECK(features(conv_layer(8, 3, 2, 8)).strided_lowered_bytes == 0); // depthwise: no lowering
  // The backward passes run other loops (col2im, transposed products).
  const Graph g = one_layer_graph(conv_layer(16, 3, 2), {1, 8, 16, 16});
  const LayerCost train = layer_cost(g, g.layers[0], Pass::train);
  CHECK(layer_features(g, g.layers[0], train, KernelPart::bwd_data).strided_lowered_bytes == 0);
}

TEST_CASE("a windowed pool pays its plane's Hockney size, plane by plane") {
  Calibration c = two_level_calibration();
  ClassCalibration pc = c.classes[1]; // elementwise's rates
  pc.op_class = OpClass::pool;
  pc.params.m_half = 100; // elements of a plane that would double its time
  c.classes.push_back(pc);
  const HwSpec hw = tiny_hw();
  Layer l;
  l.name = "pool";
  l.op = OpKind::max_pool;
  l.op_name = "maxpool";
  l.attrs.set("kernel", int64_t(3));
  l.attrs.set("stride", int64_t(2));
  const Graph g = one_layer_graph(l, {2, 8, 20, 20});
  const KernelFeatures f =
      layer_features(g, g.layers[0], layer_cost(g, g.layers[0], Pass::fwd), KernelPart::fwd);
  REQUIRE(f.op_class == OpClass::pool);
  CHECK(f.plane_elements == 400);
  const LayerTiming t = calibrated_time(c, hw, f);
  KernelFeatures whole = f;
  whole.plane_elements = 0; // one run over everything: no start-up per plane
  const LayerTiming t0 = calibrated_time(c, hw, whole);
  CHECK(t.seconds - 2e-6 == doctest::Approx((t0.seconds - 2e-6) * 500.0 / 400.0));
  CHECK(t.memory_seconds == doctest::Approx(t0.memory_seconds * 1.25));
  // Other classes ignore a plane size.
  KernelFeatures e = whole;
  e.op_class = OpClass::elementwise;
  const double plain = calibrated_time(c, hw, e).seconds;
  e.plane_elements = 400;
  CHECK(calibrated_time(c, hw, e).seconds == plain);
  CHECK(efficiency_terms(c, 1, 1, e).plane == 0);
  CHECK(efficiency_terms(c, 1, 1, f).plane == 400);
}

TEST_CASE("memory level by working set") {
  const Calibration c = two_level_calibration();
  CHECK(memory_level_for(c, 1e5) == 0);
  CHECK(memory_level_for(c, 1e6) == 0);
  CHECK(memory_level_for(c, 1.1e6) == 1);
}

TEST_CASE("tiles and waves pad the FLOPs of a GEMM") {
  Calibration c = two_level_calibration();
  KernelFeatures f;
  f.op_class = OpClass::gemm;
  f.gemm = GemmShape{100, 10, 50, 1};
  f.flops = 2.0 * 100 * 10 * 50;
  // 16x8 tiles: ceil(100/16)=7 x ceil(10/8)=2 = 14 tiles, 7 waves on 2 cores -> 14*128 cells.
  EfficiencyTerms e = efficiency_terms(c, 16, 8, f);
  CHECK(e.quantized_flops == doctest::Approx(f.flops * (14.0 * 128) / 1000.0));
  // 1x1 tiles: 1000 tiles, 500 waves: no padding.
  CHECK(efficiency_terms(c, 1, 1, f).quantized_flops == doctest::Approx(f.flops));
  // One tile and two cores: the idle core's share counts (a wave is two tiles' time).
  f.gemm = GemmShape{4, 4, 50, 1};
  f.flops = 2.0 * 16 * 50;
  CHECK(efficiency_terms(c, 4, 4, f).quantized_flops == doctest::Approx(2 * f.flops));
  // Streaming ops are never quantized.
  f.op_class = OpClass::elementwise;
  CHECK(efficiency_terms(c, 4, 4, f).quantized_flops == doctest::Approx(f.flops));
}

TEST_CASE("the generic target pays a partial tile as a whole one") {
  CHECK(padded_extent(49, 16) == 64);
  CHECK(padded_extent(48, 16) == 48);
  CHECK(padded_extent(49, 1) == 49);
  CHECK(padded_extent(0, 16) == 0);
  Calibration c = two_level_calibration();
  KernelFeatures f;
  f.op_class = OpClass::conv;
  f.gemm = GemmShape{49, 512, 4608, 1};
  f.flops = 2.0 * 49 * 512 * 4608;
  CHECK(efficiency_terms(c, 16, 1, f).quantized_flops == doctest::Approx(f.flops * 64 / 49));
  CHECK(efficiency_terms(c, 16, 1, f).term_bytes.empty()); // no terms of its own
}

TEST_CASE("calibrated time: overlap, overhead, Hockney sizes and bound") {
  Calibration c = two_level_calibration();
  const HwSpec hw = tiny_hw();
  KernelFeatures f;
  f.op_class = OpClass::gemm;
  f.gemm = GemmShape{1000, 1000, 1000, 1};
  f.flops = 2e9;
  f.bytes = 12e6; // DRAM level: 1.2 ms of memory, 20 ms of compute
  LayerTiming t = calibrated_time(c, hw, f);
  CHECK(t.compute_seconds == doctest::Approx(0.02));
  CHECK(t.memory_seconds == rel(12e-4));
  CHECK(t.seconds == doctest::Approx(0.02 + 1e-6));
  CHECK(t.bound == Bound::compute);

  c.classes[0].params.overlap = 0.5;
  t = calibrated_time(c, hw, f);
  CHECK(t.seconds == doctest::Approx(0.02 + 0.5 * 12e-4 + 1e-6));

  c.classes[0].params.k_half = 1000; // half the rate at k = k_half
  t = calibrated_time(c, hw, f);
  CHECK(t.compute_seconds == doctest::Approx(0.04));

  KernelFeatures small;
  small.op_class = OpClass::elementwise;
  small.flops = 10;
  small.bytes = 80;
  t = calibrated_time(c, hw, small);
  CHECK(t.bound == Bound::overhead);
  CHECK(t.seconds == rel(2e-6 + 80 / 2e11));

  KernelFeatures view; // a reshape: no work, no call
  view.op_class = OpClass::data_movement;
  CHECK(calibrated_time(c, hw, view).seconds == 0);
}

TEST_CASE("a class without parameters falls back to the roofline") {
  const Calibration c = two_level_calibration();
  const HwSpec hw = tiny_hw();
  KernelFeatures f;
  f.op_class = OpClass::pool;
  f.flops = 1e6;
  f.bytes = 1e6;
  const LayerTiming t = calibrated_time(c, hw, f);
  CHECK(t.memory_seconds == rel(1e6 / 1e10));
}

TEST_CASE("strided depthwise takes the depthwise parameters until it has its own") {
  Calibration c = two_level_calibration();
  const HwSpec hw = tiny_hw();
  ClassCalibration dw = c.classes[0];
  dw.op_class = OpClass::depthwise;
  dw.params.overhead_seconds = 5e-6;
  c.classes.push_back(dw);
  KernelFeatures f;
  f.op_class = OpClass::depthwise_strided;
  f.gemm = GemmShape{64, 1, 9, 32};
  f.flops = 2.0 * 64 * 9 * 32;
  f.bytes = 4.0 * (64 * 4 * 32 + 9 * 32 + 64 * 32);
  const double borrowed = calibrated_time(c, hw, f).seconds;
  CHECK(borrowed == doctest::Approx(calibrated_time(c, hw,
                                                    [&] {
                                                      KernelFeatures g = f;
                                                      g.op_class = OpClass::depthwise;
                                                      return g;
                                                    }())
                                        .seconds));
  dw.op_class = OpClass::depthwise_strided;
  dw.params.overhead_seconds = 50e-6;
  c.classes.push_back(dw);
  CHECK(calibrated_time(c, hw, f).seconds == doctest::Approx(borrowed + 45e-6));
}

TEST_CASE("train pass sums the three kernel calls") {
  const Calibration c = two_level_calibration();
  Calibration conv = c;
  conv.classes[0].op_class = OpClass::conv;
  const HwSpec hw = tiny_hw();
  const Graph g = conv_graph(8, 16, 3, 1, 1);
  const LayerCost cost = layer_cost(g, g.layers[0], Pass::train);
  const LayerTiming fwd = calibrated_layer_time(conv, hw, g, g.layers[0], cost, Pass::fwd);
  const LayerTiming train = calibrated_layer_time(conv, hw, g, g.layers[0], cost, Pass::train);
  CHECK(train.seconds > 2.5 * fwd.seconds);
  CHECK(train.overhead_seconds == rel(3e-6));
}

TEST_CASE("is_valid reports the first problem") {
  Calibration c = two_level_calibration();
  std::string error;
  CHECK(is_valid(c, &error));
  c.classes[0].params.bytes_per_second.pop_back();
  CHECK_FALSE(is_valid(c, &error));
  CHECK(error.find("one bandwidth per memory level") != std::string::npos);
  c = two_level_calibration();
  c.classes[1].params.overlap = 2;
  CHECK_FALSE(is_valid(c, &error));
  CHECK(error.find("overlap") != std::string::npos);
  c = two_level_calibration();
  c.memory_levels[0].capacity_bytes = 0;
  CHECK_FALSE(is_valid(c, &error));
}

TEST_CASE("a matrix-vector product is gemv, a batch of rows is gemm") {
  for (int64_t batch : {1, 8}) {
    const Graph g = test::one_layer(
        {batch, 64}, test::make_layer("fc", "linear", {{"out_features", int64_t{32}}}));
    const Layer &fc = g.layers[0];
    const KernelFeatures f = layer_features(g, fc, layer_cost(g, fc, Pass::fwd), KernelPart::fwd);
    CHECK(f.op_class == (batch == 1 ? OpClass::gemv : OpClass::gemm));
    CHECK(is_gemm_class(f.op_class));
  }
}

TEST_CASE("time statistics: names round-trip, pick takes the named figure") {
  for (TimeStatistic t : {TimeStatistic::median, TimeStatistic::p20, TimeStatistic::min})
    CHECK(parse_time_statistic(to_string(t)) == t);
  CHECK_FALSE(parse_time_statistic("mean"));
  CHECK(pick(TimeStatistic::median, 3, 2, 1) == 3);
  CHECK(pick(TimeStatistic::p20, 3, 2, 1) == 2);
  CHECK(pick(TimeStatistic::min, 3, 2, 1) == 1);
}
