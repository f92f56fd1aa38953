// Known answers of the GPU target's depthwise convolutions
// (include/perfmodel/targets/gpu/direct.hpp): their work items and CTAs per pass part as
// PyTorch's kernels launch them, the terms a call gets (its kernel's work, no CTA tiles, the
// parallelism factor of its CTAs), and a fit that recovers the peak, the bandwidths, the overlap,
// the overhead and the half-parallelism size from samples made with known values within 1%.
#include <doctest/doctest.h>

#include <cmath>

#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/targets/gpu.hpp"
#include "perfmodel/targets/gpu/direct.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;

namespace {

constexpr int kSms = 132;

FitOptions h200_options() {
  FitOptions o;
  o.memory_levels = {{"l2", 50e6}, {"dram", 0}};
  o.cores = kSms;
  o.target = &gpu::target();
  return o;
}

Calibration frame(const FitOptions &o) {
  Calibration c;
  c.hardware = "h200";
  c.memory_levels = o.memory_levels;
  c.cores = o.cores;
  c.target = o.target;
  return c;
}

// A depthwise convolution of a batch of 32 over `c` channels of hw x hw planes, counted as
// layer_features counts it (the GEMM shape: rows of ow outputs, one per batch x oh x channel).
KernelFeatures depthwise_call(KernelPart pass, int64_t c, int64_t hw, int64_t kernel,
                              int64_t stride) {
  ConvGeometry g;
  g.batch = 32;
  g.in_channels = g.out_channels = g.groups = c;
  g.in_h = g.in_w = hw;
  g.out_h = g.out_w = (hw + 2 * (kernel / 2) - kernel) / stride + 1;
  g.kernel_h = g.kernel_w = kernel;
  g.stride_h = g.stride_w = stride;
  KernelFeatures f;
  f.op_class = stride > 1 ? OpClass::depthwise_strided : OpClass::depthwise;
  f.dtype = DType::fp32;
  f.pass = pass;
  f.layout = Layout::nhwc; // the kernels' native layout: no conversions (gpu/layout.hpp)
  f.conv = g;
  const double in = 32.0 * double(c * hw * hw), out = 32.0 * double(c * g.out_h * g.out_w);
  f.gemm = GemmShape{g.out_w, 32 * g.out_h * c, kernel * kernel, 1};
  f.flops = 2.0 * out * double(kernel * kernel);
  f.bytes = 4.0 * (in + out + double(c * kernel * kernel));
  return f;
}

EfficiencyParams depthwise_truth() {
  EfficiencyParams p;
  p.peak_flops_per_second = 9e12; // 3x3 stride 1 (2.25 FLOP/B) memory-bound, 7x7 compute-bound
  p.bytes_per_second = {5e12, 2.5e12};
  p.m_half = 2.0; // CTAs per SM at which a call runs at half its rate
  p.overlap = 0.3;
  p.overhead_seconds = 3e-6;
  return p;
}

// Forward depthwise convolutions: 3x3, 5x5 and 7x7 filters, strides 1 and 2, 16 to 1280
// channels over 7x7 to 112x112 planes (0.3 to 3,000 CTAs per SM), in L2 and in DRAM.
std::vector<Sample> depthwise_samples(const EfficiencyParams &truth, const FitOptions &o) {
  const Calibration cal = frame(o);
  std::vector<Sample> out;
  for (int64_t kernel : {3, 5, 7})
    for (int64_t stride : {1, 2})
      for (int64_t c : {16, 64, 160, 384, 1280})
        for (int64_t hw : {7, 14, 28, 56, 112}) {
          if (32.0 * double(c * hw * hw) > 3e8 / 4)
            continue;
          Sample s;
          s.set_features(depthwise_call(KernelPart::fwd, c, hw, kernel, stride));
          s.seconds = model_seconds(cal, truth, s.features());
          s.source = "synthetic";
          out.push_back(s);
        }
  return out;
}

void check_close(double fitted, double truth, double tol, const char *what) {
  INFO(what << ": fitted " << fitted << ", true " << truth);
  CHECK(std::abs(fitted - truth) <= tol * std::abs(truth));
}

} // namespace

TEST_CASE("depthwise CTAs per pass part: PyTorch's grids") {
  // MobileNetV2's 3x3 depthwise convolutions at batch 32 (the H200 traces' grids).
  KernelFeatures f = depthwise_call(KernelPart::fwd, 576, 14, 3, 2); // 32x576x7x7 outputs
  CHECK(f.op_class == OpClass::depthwise_strided);
  CHECK(gpu::depthwise_work_items(f) == 32.0 * 576 * 7 * 7);
  CHECK(gpu::depthwise_ctas(f) == 882);
  CHECK(gpu::depthwise_plane(f, kSms) == doctest::Approx(882.0 / kSms));
  f = depthwise_call(KernelPart::bwd_data, 96, 112, 3, 2); // 32x96x112x112 input gradients
  CHECK(gpu::depthwise_ctas(f) == 37632);
  f = depthwise_call(KernelPart::bwd_weight, 192, 28, 3, 1); // one CTA per weight: 192 x 3x3
  CHECK(gpu::depthwise_ctas(f) == 1728);
  f = depthwise_call(KernelPart::fwd, 16, 3, 3, 1); // 4,608 outputs: a partial CTA rounds up
  CHECK(gpu::depthwise_ctas(f) == 5);
  f.conv.reset(); // no geometry: no work items, no factor
  CHECK(gpu::depthwise_plane(f, kSms) == 0);
  f = depthwise_call(KernelPart::fwd, 64, 56, 3, 1);
  f.op_class = OpClass::conv; // not a depthwise class
  CHECK(gpu::depthwise_ctas(f) == 0);
}

TEST_CASE("a depthwise call is its counted work, without CTA tiles, at its CTAs' parallelism") {
  const Calibration cal = frame(h200_options());
  const KernelFeatures f = depthwise_call(KernelPart::fwd, 32, 112, 3, 1);
  const EfficiencyTerms e = efficiency_terms(cal, 1, 1, f);
  CHECK(e.quantized_flops == f.flops);
  CHECK(e.m == 0); // no Hockney factor of a product
  CHECK(e.splits == 1);
  CHECK(e.plane == doctest::Approx(std::ceil(32.0 * 32 * 112 * 112 / 1024) / kSms));
  // t = overhead + (hi + overlap * lo) / (u / (u + m_half)), u the CTAs per SM.
  const EfficiencyParams p = depthwise_truth();
  const double u = e.plane, mem = f.bytes / 2.5e12, comp = f.flops / 9e12;
  CHECK(model_seconds(cal, p, f) ==
        doctest::Approx(3e-6 + (std::max(mem, comp) + 0.3 * std::min(mem, comp)) * (u + 2) / u));
  // The input-gradient kernel loops over every tap of each input element: at stride 2 it does
  // 4x the counted work (3 of 4 taps skipped); the forward and weight-gradient kernels do not.
  const KernelFeatures s2 = depthwise_call(KernelPart::bwd_data, 96, 112, 3, 2);
  CHECK(gpu::depthwise_work_factor(s2) == 4);
  CHECK(efficiency_terms(cal, 1, 1, s2).quantized_flops == 4 * s2.flops);
  CHECK(gpu::depthwise_work_factor(depthwise_call(KernelPart::fwd, 96, 112, 3, 2)) == 1);
  CHECK(gpu::depthwise_work_factor(depthwise_call(KernelPart::bwd_weight, 96, 112, 3, 2)) == 1);
  CHECK(gpu::depthwise_work_factor(depthwise_call(KernelPart::bwd_data, 96, 112, 3, 1)) == 1);
  // The generic target (every CPU calibration) keeps its tiles and has no plane for it.
  Calibration generic = cal;
  generic.target = nullptr;
  CHECK(efficiency_terms(generic, 1, 1, f).plane == 0);
  CHECK(efficiency_terms(generic, 1, 1, f).m == double(f.gemm->m));
}

TEST_CASE("a depthwise class times both strides; without one a depthwise call has no class") {
  Calibration cal = frame(h200_options());
  ClassCalibration ew, dw;
  ew.op_class = OpClass::elementwise;
  dw.op_class = OpClass::depthwise;
  ew.params.peak_flops_per_second = 1;
  dw.params.peak_flops_per_second = 3;
  // No class stands in for depthwise calls (docs/gpu_model.md, "Depthwise convolutions"): the
  // prediction falls back to the roofline.
  cal.classes = {ew};
  CHECK(cal.find_for_pass(OpClass::depthwise, DType::fp32, KernelPart::fwd) == nullptr);
  cal.classes.push_back(dw);
  CHECK(cal.find_for_pass(OpClass::depthwise_strided, DType::fp32, KernelPart::bwd_data)
            ->params.peak_flops_per_second == 3);
}

TEST_CASE("the GPU fit recovers a depthwise class's peak, bandwidths, overlap, overhead and "
          "half-parallelism") {
  const FitOptions o = h200_options();
  const EfficiencyParams truth = depthwise_truth();
  const std::vector<Sample> samples = depthwise_samples(truth, o);
  REQUIRE(samples.size() >= 40);
  const ClassCalibration cc = fit_class(samples, o);
  check_close(cc.params.peak_flops_per_second, truth.peak_flops_per_second, 0.01, "peak");
  check_close(cc.params.m_half, truth.m_half, 0.01, "m_half (CTAs per SM)");
  check_close(cc.params.bytes_per_second[0], truth.bytes_per_second[0], 0.01, "L2 bandwidth");
  check_close(cc.params.bytes_per_second[1], truth.bytes_per_second[1], 0.01, "DRAM bandwidth");
  check_close(cc.params.overlap, truth.overlap, 0.01, "overlap");
  check_close(cc.params.overhead_seconds, truth.overhead_seconds, 0.01, "overhead");
  CHECK(cc.stats.mape < 1e-4);
}
