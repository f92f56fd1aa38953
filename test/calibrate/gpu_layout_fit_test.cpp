// Known answer of the fit of the GPU target's layout conversions: fp32 convolutions timed in
// both layouts, made from known parameters, give back the conversion rate within 1%; with one
// layout only the rate is held (include/perfmodel/targets/gpu/layout.hpp).
#include <doctest/doctest.h>

#include <cmath>

#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/targets/gpu.hpp"
#include "perfmodel/targets/gpu/layout.hpp"
#include "fit_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;
using namespace perfmodel::test;

namespace {

FitOptions gpu_options() { return gpu_fit_options({{"dram", 0}}, 132); }

EfficiencyParams truth() {
  EfficiencyParams p;
  p.peak_flops_per_second = 5e13; // fp32 on the SIMT units
  p.m_half = 24;
  p.n_half = 16;
  p.k_half = 96;
  p.bytes_per_second = {3e12};
  p.overlap = 0.2;
  p.overhead_seconds = 3e-6;
  p.term_rates = {1.5e12, 0, 2.5e12}; // split-K, CTA starts, layout
  return p;
}

// fp32 convolutions over batches of 32 (3x3 at stride 1, Winograd, and 2, 1x1 at stride 2), each
// in the layouts given: NHWC ones convert (fp32 is NCHW-native).
std::vector<Sample> samples(const EfficiencyParams &p, const FitOptions &o,
                            std::initializer_list<Layout> layouts) {
  const Calibration cal = frame(o);
  std::vector<Sample> out;
  for (int64_t c : {16, 64, 128, 256, 512})
    for (int64_t hw : {7, 14, 28, 56})
      for (int64_t kernel : {1, 3})
        for (int64_t stride : {1, 2})
          for (Layout layout : layouts) {
            if (kernel == 1 && stride == 1)
              continue; // a pointwise convolution: another class
            out.push_back(
                conv_fp32_sample(cal, p, c, hw, kernel, stride, KernelPart::fwd, layout));
          }
  return out;
}

} // namespace

TEST_CASE("the GPU fit recovers the layout conversions' rate from both layouts") {
  const FitOptions o = gpu_options();
  const EfficiencyParams p = truth();
  const std::vector<Sample> both = samples(p, o, {Layout::nchw, Layout::nhwc});
  // The conversions are a real part of the NHWC times (fp32 is NCHW-native).
  double nchw = 0, nhwc = 0;
  for (size_t i = 0; i + 1 < both.size(); i += 2) {
    REQUIRE(gpu::layout_conversion_bytes(both[i].features()) == 0);
    REQUIRE(gpu::layout_conversion_bytes(both[i + 1].features()) > 0);
    nchw += both[i].seconds;
    nhwc += both[i + 1].seconds;
  }
  INFO("NCHW " << nchw << " s, NHWC " << nhwc << " s");
  REQUIRE(nhwc > 1.05 * nchw);
  const ClassCalibration cc = fit_class(both, o);
  check_close(cc.params.term_rate(gpu::kLayout), 2.5e12, 0.01, "layout rate");
  check_close(cc.params.peak_flops_per_second, p.peak_flops_per_second, 0.01, "peak");
  check_close(cc.params.overhead_seconds, p.overhead_seconds, 0.01, "overhead");
  CHECK(cc.stats.mape < 1e-3);
}

TEST_CASE("with every sample converting, the fit holds the rate and writes none") {
  const FitOptions o = gpu_options();
  EfficiencyParams p = truth();
  p.term_rates[gpu::kLayout] = gpu::kLayoutStart; // what the held rate assumes
  const ClassCalibration cc = fit_class(samples(p, o, {Layout::nhwc}), o);
  CHECK(cc.params.term_rate(gpu::kLayout) == 0);
  check_close(cc.params.peak_flops_per_second, p.peak_flops_per_second, 0.01, "peak");
  // Native-layout samples only: no layout term at all.
  const ClassCalibration native = fit_class(samples(truth(), o, {Layout::nchw}), o);
  CHECK(native.params.term_rate(gpu::kLayout) == 0);
  check_close(native.params.peak_flops_per_second, p.peak_flops_per_second, 0.01, "peak");
}
