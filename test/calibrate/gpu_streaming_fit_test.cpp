// Known answers of the GPU target's streaming kernels
// (include/perfmodel/targets/gpu/streaming.hpp): their CTAs per class, the parallelism factor on a
// call's time, the work items layer_features gives, and a fit that recovers the bandwidth, the
// overhead and the half-parallelism size from samples made with known values within 1%.
#include <doctest/doctest.h>

#include <cmath>

#include "fit_fixtures.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/targets/gpu.hpp"
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
  Graph g;
  g.inputs.push_back(TensorDesc{"x", {32, 64, 56, 56}, DType::fp32});
  Layer b;
  b.name = "bn", b.op = OpKind::batch_norm, b.op_name = "batchnorm", b.inputs = {"x"};
  Layer r;
  r.name = "relu", r.op = OpKind::activation, r.op_name = "relu", r.inputs = {"bn"};
  r.attrs.set("function", std::string("relu"));
  g.layers = {b, r};
  infer_shapes(g);
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
