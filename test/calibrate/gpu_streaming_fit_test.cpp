// Known answers of the GPU target's streaming kernels
// (include/perfmodel/targets/gpu/streaming.hpp): their CTAs per class, the parallelism factor on a
// call's time, the work items layer_features gives, and a fit that recovers the bandwidth, the
// overhead and the half-parallelism size from samples made with known values within 1%; the
// per-CTA start-up term and which batch-norm kernel runs (one read or two), with their fits.
#include <doctest/doctest.h>

#include <cmath>

#include "fit_fixtures.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/targets/gpu.hpp"
#include "perfmodel/targets/gpu/arch.hpp"
#include "perfmodel/targets/gpu/streaming.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;
using namespace perfmodel::test;

namespace {

constexpr int kSms = 80;

FitOptions v100_options() { return gpu_fit_options({{"l2", 6291456}, {"dram", 0}}, kSms); }

EfficiencyParams norm_truth() {
  EfficiencyParams p;
  p.peak_flops_per_second = 1e14; // far above the bytes' time: memory-bound
  p.m_half = 0.6;                 // CTAs per SM at which a call streams at half the bandwidth
  p.bytes_per_second = {1.4e12, 8e11};
  p.overhead_seconds = 4e-6;
  return p;
}

// Batch norms of a batch of 32 over NCHW planes: channels from 32 to 2048 (0.4 to 25.6 CTAs
// per SM), planes from 7x7 to 112x112, some in L2 and most in DRAM.
std::vector<Sample> norm_samples(const EfficiencyParams &truth, const FitOptions &o) {
  const Calibration cal = frame(o);
  std::vector<Sample> out;
  for (int64_t c : {32, 64, 128, 256, 512, 1024, 2048})
    for (int64_t hw : {7, 14, 28, 56, 112}) {
      const double elements = 32.0 * double(c * hw * hw);
      if (elements > 3e8 / 4)
        continue;
      Sample s;
      s.op_class = OpClass::norm;
      s.dtype = DType::fp32;
      s.parallel_units = double(c);
      s.bytes = 2 * 4 * elements;
      s.flops = 4 * elements;
      s.seconds = model_seconds(cal, truth, s.features());
      s.source = "synthetic";
      out.push_back(s);
    }
  return out;
}

// A batch norm over 32x64x56x56 followed by a relu, shapes inferred.
Graph bn_relu_graph() {
  Graph g;
  g.inputs.push_back(TensorDesc{"x", {32, 64, 56, 56}, DType::fp32});
  Layer b;
  b.name = "bn", b.op = OpKind::batch_norm, b.op_name = "batchnorm", b.inputs = {"x"};
  Layer r;
  r.name = "relu", r.op = OpKind::activation, r.op_name = "relu", r.inputs = {"bn"};
  r.attrs.set("function", std::string("relu"));
  g.layers = {b, r};
  infer_shapes(g);
  return g;
}

} // namespace

TEST_CASE("streaming CTAs per class: PyTorch's and cuDNN's grids") {
  KernelFeatures f;
  f.parallel_units = 32.0 * 256 * 56 * 56; // a relu over 32x256x56x56: 100,352 CTAs
  f.op_class = OpClass::elementwise;
  CHECK(gpu::streaming_ctas(f) == 100352);
  f.op_class = OpClass::pool;
  f.parallel_units = 32.0 * 64 * 56 * 56; // a max pool's outputs: 25,088 CTAs
  CHECK(gpu::streaming_ctas(f) == 25088);
  f.op_class = OpClass::norm;
  f.parallel_units = 64; // a batch norm over 64 channels: one CTA per channel
  CHECK(gpu::streaming_ctas(f) == 64);
  CHECK(gpu::streaming_plane(f, kSms) == doctest::Approx(0.8));
  f.op_class = OpClass::reduce;
  f.parallel_units = 32.0 * 2048; // a global average pool's outputs: 4,096 CTAs
  CHECK(gpu::streaming_ctas(f) == 4096);
  f.parallel_units = 17; // partial CTAs round up
  CHECK(gpu::streaming_ctas(f) == 2);
  f.op_class = OpClass::gemm; // not a streaming class
  CHECK(gpu::streaming_ctas(f) == 0);
  f.op_class = OpClass::norm;
  f.parallel_units = 0; // unknown work items: no factor
  CHECK(gpu::streaming_plane(f, kSms) == 0);
}

TEST_CASE("the parallelism factor: a call with u CTAs per SM streams at bw * u / (u + m_half)") {
  const FitOptions o = v100_options();
  const Calibration cal = frame(o);
  EfficiencyParams p = norm_truth();
  p.overhead_seconds = 0;
  KernelFeatures f;
  f.op_class = OpClass::norm;
  f.bytes = 1e8; // DRAM
  f.flops = 1;
  f.parallel_units = 40; // 0.5 CTAs per SM: 0.5 / (0.5 + 0.6) of the bandwidth
  CHECK(model_seconds(cal, p, f) == doctest::Approx(1e8 / 8e11 * (0.5 + 0.6) / 0.5));
  f.parallel_units = 80 * 1000; // 1000 per SM: the full bandwidth within 0.06%
  CHECK(model_seconds(cal, p, f) == doctest::Approx(1e8 / 8e11).epsilon(1e-3));
  // The generic target (and so every CPU calibration) gives a norm no factor.
  Calibration generic = cal;
  generic.target = nullptr;
  f.parallel_units = 40;
  CHECK(model_seconds(generic, p, f) == doctest::Approx(1e8 / 8e11));
}

TEST_CASE("layer_features gives each streaming layer its work items") {
  const Graph g = bn_relu_graph();
  const Layer &bn = g.layers[0], &relu = g.layers[1];
  const KernelFeatures fb = layer_features(g, bn, layer_cost(g, bn, Pass::train), KernelPart::fwd);
  CHECK(fb.op_class == OpClass::norm);
  CHECK(fb.parallel_units == 64); // channels
  const KernelFeatures fr =
      layer_features(g, relu, layer_cost(g, relu, Pass::train), KernelPart::bwd_data);
  CHECK(fr.parallel_units == 32.0 * 64 * 56 * 56); // elements
}

TEST_CASE("the GPU fit recovers a streaming class's bandwidths, overhead and half-parallelism") {
  const FitOptions o = v100_options();
  const EfficiencyParams truth = norm_truth();
  const std::vector<Sample> samples = norm_samples(truth, o);
  REQUIRE(samples.size() >= 20);
  const ClassCalibration cc = fit_class(samples, o);
  check_close(cc.params.m_half, truth.m_half, 0.01, "m_half (CTAs per SM)");
  check_close(cc.params.bytes_per_second[0], truth.bytes_per_second[0], 0.01, "L2 bandwidth");
  check_close(cc.params.bytes_per_second[1], truth.bytes_per_second[1], 0.01, "DRAM bandwidth");
  check_close(cc.params.overhead_seconds, truth.overhead_seconds, 0.01, "overhead");
  CHECK(cc.stats.mape < 1e-4);
}

TEST_CASE("the per-CTA start-up term: a streaming call's CTAs per SM at a fitted rate") {
  const FitOptions o = v100_options();
  const Calibration cal = frame(o);
  EfficiencyParams p = norm_truth();
  p.overhead_seconds = 0;
  p.m_half = 0;
  p.term_rates = {0, 2.5e5}; // 4 us per CTA per SM
  KernelFeatures f;
  f.op_class = OpClass::norm;
  f.bytes = 1e8;
  f.flops = 1;
  f.parallel_units = 800; // 10 CTAs per SM: 40 us besides the bytes
  CHECK(gpu::cta_start_count(f, kSms) == doctest::Approx(10));
  CHECK(model_seconds(cal, p, f) == doctest::Approx(1e8 / 8e11 + 10 / 2.5e5));
  // The generic target has no such term: its CPU calibrations never see it.
  Calibration generic = cal;
  generic.target = nullptr;
  CHECK(model_seconds(generic, p, f) == doctest::Approx(1e8 / 8e11));
  // A GEMM has no streaming CTAs.
  f.op_class = OpClass::gemm;
  CHECK(gpu::cta_start_count(f, kSms) == 0);
}

TEST_CASE("the per-CTA start-up term is fitted only where bytes per CTA and CTAs per SM vary") {
  const FitOptions o = v100_options();
  EfficiencyParams truth = norm_truth();
  std::vector<KernelFeatures> calls;
  for (const Sample &s : norm_samples(truth, o))
    calls.push_back(s.features());
  CHECK(gpu::cta_start_visible(calls));
  // Elementwise calls: every CTA streams 256 elements, whatever the call's size.
  std::vector<KernelFeatures> relus;
  for (double n : {1e5, 1e6, 1e7, 1e8, 3e8, 5e8}) {
    KernelFeatures f;
    f.op_class = OpClass::elementwise;
    f.parallel_units = n;
    f.bytes = 8 * n;
    relus.push_back(f);
  }
  CHECK_FALSE(gpu::cta_start_visible(relus));
  // Too few calls.
  calls.resize(gpu::kCtaStartMinCalls - 1);
  CHECK_FALSE(gpu::cta_start_visible(calls));
  // Where it is not visible the fit leaves it out: the rate is 0 (no term).
  std::vector<Sample> samples;
  const Calibration cal = frame(o);
  for (const KernelFeatures &f : relus) {
    Sample s;
    s.set_features(f);
    s.flops = f.bytes / 8;
    s.seconds = model_seconds(cal, truth, s.features());
    s.source = "synthetic";
    samples.push_back(s);
  }
  const ClassCalibration cc = fit_class(samples, o);
  CHECK(cc.params.term_rate(gpu::kCtaStart) == 0);
}

TEST_CASE("the GPU fit recovers the per-CTA start-up rate with the bandwidths and overhead") {
  const FitOptions o = v100_options();
  EfficiencyParams truth = norm_truth();
  truth.term_rates = {0, 2.5e5}; // 4 us per CTA per SM
  const std::vector<Sample> samples = norm_samples(truth, o);
  const ClassCalibration cc = fit_class(samples, o);
  check_close(cc.params.term_rate(gpu::kCtaStart), 2.5e5, 0.01, "CTA starts per SM per second");
  check_close(cc.params.m_half, truth.m_half, 0.01, "m_half (CTAs per SM)");
  check_close(cc.params.bytes_per_second[0], truth.bytes_per_second[0], 0.01, "L2 bandwidth");
  check_close(cc.params.bytes_per_second[1], truth.bytes_per_second[1], 0.01, "DRAM bandwidth");
  check_close(cc.params.overhead_seconds, truth.overhead_seconds, 0.01, "overhead");
  CHECK(cc.stats.mape < 1e-4);
}

TEST_CASE("which batch-norm kernel runs: one read of a channel that fits, two of a larger one") {
  const double v100 = gpu::arch_for("v100").bn_single_read_bytes;
  const double h200 = gpu::arch_for("h200").bn_single_read_bytes;
  auto bn = [](KernelPart pass, int64_t c, int64_t hw) {
    KernelFeatures f;
    f.op_class = OpClass::norm;
    f.pass = pass;
    f.parallel_units = double(c);
    f.channel_elements = 32.0 * double(hw * hw);
    return f;
  };
  const double n28 = 32.0 * 256 * 28 * 28;
  // The V100 trace: forward one-read up to 14x14, backward up to 7x7.
  CHECK(gpu::batch_norm_reread_bytes(bn(KernelPart::fwd, 1024, 14), v100) == 0);
  CHECK(gpu::batch_norm_reread_bytes(bn(KernelPart::fwd, 256, 28), v100) == 4 * n28);
  CHECK(gpu::batch_norm_reread_bytes(bn(KernelPart::bwd_data, 2048, 7), v100) == 0);
  CHECK(gpu::batch_norm_reread_bytes(bn(KernelPart::bwd_data, 256, 14), v100) ==
        2 * 4 * 32.0 * 256 * 14 * 14);
  // The H200 trace: forward one-read up to 28x28, backward up to 14x14.
  CHECK(gpu::batch_norm_reread_bytes(bn(KernelPart::fwd, 256, 28), h200) == 0);
  CHECK(gpu::batch_norm_reread_bytes(bn(KernelPart::fwd, 256, 56), h200) == 4 * 4 * n28);
  CHECK(gpu::batch_norm_reread_bytes(bn(KernelPart::bwd_data, 1024, 14), h200) == 0);
  CHECK(gpu::batch_norm_reread_bytes(bn(KernelPart::bwd_data, 256, 28), h200) == 2 * 4 * n28);
  // Half precision (cuDNN's NHWC kernels), other norms and other classes: nothing added.
  KernelFeatures half = bn(KernelPart::fwd, 256, 56);
  half.dtype = DType::fp16;
  CHECK(gpu::batch_norm_reread_bytes(half, h200) == 0);
  KernelFeatures rows = bn(KernelPart::fwd, 4096, 56);
  rows.channel_elements = 0; // a layer norm's rows
  CHECK(gpu::batch_norm_reread_bytes(rows, h200) == 0);
  KernelFeatures relu = bn(KernelPart::fwd, 256, 56);
  relu.op_class = OpClass::elementwise;
  CHECK(gpu::batch_norm_reread_bytes(relu, h200) == 0);
}

TEST_CASE("layer_features gives a batch norm its elements per channel; the GPU call reads more") {
  const Graph g = bn_relu_graph();
  const LayerCost cost = layer_cost(g, g.layers[0], Pass::train);
  const KernelFeatures fwd = layer_features(g, g.layers[0], cost, KernelPart::fwd);
  CHECK(fwd.channel_elements == 32.0 * 56 * 56);
  const KernelFeatures relu =
      layer_features(g, g.layers[1], layer_cost(g, g.layers[1], Pass::train), KernelPart::fwd);
  CHECK(relu.channel_elements == 0);
  // 32x56x56 fp32 = 401 KB per channel: two passes on either GPU; the CPU target adds nothing.
  FitOptions o = v100_options();
  Calibration cal = frame(o);
  cal.hardware = "v100";
  double calls = 0;
  const double x = 4.0 * 32 * 64 * 56 * 56;
  CHECK(one_call(cal, fwd, &calls).bytes == doctest::Approx(fwd.bytes + x));
  Calibration generic = cal;
  generic.target = nullptr;
  CHECK(one_call(generic, fwd, &calls).bytes == fwd.bytes);
}

TEST_CASE("the GPU fit recovers a batch norm's bandwidth from one- and two-pass kernels") {
  // Samples whose times come from the bytes the kernels move (written out here: the input read
  // twice where a channel is over the H200's one-read limit), whose counts are the layer's (one
  // read): the fit recovers the truth only where the target adds the second read.
  const FitOptions o = v100_options(); // no hw: the frame takes the newest architecture's limit
  const Calibration cal = frame(o);
  const double limit = gpu::arch_for("").bn_single_read_bytes;
  EfficiencyParams truth = norm_truth();
  truth.bytes_per_second = {9e11, 9e11};
  std::vector<Sample> samples;
  int two_pass = 0;
  for (int64_t c : {32, 64, 128, 256, 512, 1024, 2048})
    for (int64_t hw : {7, 14, 28, 56, 112}) {
      const double per_channel = 32.0 * double(hw * hw);
      const double elements = per_channel * double(c);
      if (elements > 3e8 / 4)
        continue;
      Sample s;
      s.op_class = OpClass::norm;
      s.dtype = DType::fp32;
      s.parallel_units = double(c);
      s.bytes = 2 * 4 * elements;
      s.flops = 4 * elements;
      s.source = "synthetic";
      KernelFeatures moved = s.features(); // what the kernel moves, with no rule left to apply
      const bool twice = 4 * per_channel > limit;
      two_pass += twice;
      moved.bytes += twice ? 4 * elements : 0;
      s.seconds = model_seconds(cal, truth, moved);
      s.channel_elements = per_channel;
      samples.push_back(s);
    }
  REQUIRE(two_pass >= 5);
  REQUIRE(two_pass + 5 <= int(samples.size()));
  const ClassCalibration cc = fit_class(samples, o);
  check_close(cc.params.m_half, truth.m_half, 0.01, "m_half (CTAs per SM)");
  check_close(cc.params.bytes_per_second.back(), 9e11, 0.01, "DRAM bandwidth");
  check_close(cc.params.overhead_seconds, truth.overhead_seconds, 0.01, "overhead");
  CHECK(cc.stats.mape < 1e-4);
  // The same samples without their channels' sizes (one read counted everywhere) do not fit.
  for (Sample &s : samples)
    s.channel_elements = 0;
  CHECK(fit_class(samples, o).stats.mape > 0.02);
}
