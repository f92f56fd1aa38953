// Known answers of the GPU target's channels-last batch norms
// (include/perfmodel/targets/gpu/streaming.hpp, nhwc_batch_norm_ctas): the grids cuDNN's
// semi-persistent kernels launch in the H200 AMP traces, one read, the rule left to nhwc calls,
// and a fit of samples timed from the kernels' CTAs that recovers the bandwidth, the overhead
// and the half-parallelism size within 1%.
#include <doctest/doctest.h>

#include <cmath>

#include "fit_fixtures.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/targets/gpu.hpp"
#include "perfmodel/targets/gpu/streaming.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;
using namespace perfmodel::test;

namespace nhwc_norm_test {

constexpr int kH200Sms = 132;

// A training batch norm of a batch of 32 over a CxHxW plane, fp16 channels-last.
KernelFeatures bn(KernelPart pass, int64_t c, int64_t hw) {
  KernelFeatures f;
  f.op_class = OpClass::norm;
  f.dtype = DType::fp16;
  f.layout = Layout::nhwc;
  f.pass = pass;
  f.parallel_units = double(c);
  f.channel_elements = 32.0 * double(hw * hw);
  f.bytes = 2 * 2 * f.channel_elements * double(c);
  return f;
}

} // namespace nhwc_norm_test

using nhwc_norm_test::bn;
using nhwc_norm_test::kH200Sms;

TEST_CASE("nhwc batch norms: the semi-persistent kernels' grids in the H200 AMP traces") {
  const KernelPart fwd = KernelPart::fwd, bwd = KernelPart::bwd_data;
  // Under the cap: ceil(N*H*W / 160 or 96) row blocks x ceil(C / 64) channel blocks, as traced.
  CHECK(gpu::streaming_ctas(bn(fwd, 512, 7), kH200Sms) == 80);  // grid 10 x 8
  CHECK(gpu::streaming_ctas(bn(bwd, 512, 7), kH200Sms) == 136); // 17 x 8
  CHECK(gpu::streaming_ctas(bn(fwd, 160, 7), kH200Sms) == 30);  // 10 x 3
  CHECK(gpu::streaming_ctas(bn(bwd, 160, 7), kH200Sms) == 51);  // 17 x 3
  CHECK(gpu::streaming_ctas(bn(fwd, 64, 14), kH200Sms) == 40);  // 40 x 1
  CHECK(gpu::streaming_ctas(bn(fwd, 32, 28), kH200Sms) == 157); // 157 x 1
  CHECK(gpu::streaming_ctas(bn(bwd, 32, 28), kH200Sms) == 262); // 262 x 1
  CHECK(gpu::streaming_ctas(bn(fwd, 960, 7), kH200Sms) == 150); // 10 x 15
  // Over 2 CTAs per SM the grid stops at 264 (traced 224-264: cuDNN trims a little more).
  CHECK(gpu::streaming_ctas(bn(fwd, 256, 56), kH200Sms) == 264); // 262 x 1
  CHECK(gpu::streaming_ctas(bn(bwd, 64, 112), kH200Sms) == 264); // 264 x 1
  CHECK(gpu::streaming_ctas(bn(fwd, 256, 56)) == 628.0 * 4);     // no SM count: uncapped
  CHECK(gpu::streaming_plane(bn(fwd, 512, 7), kH200Sms) == doctest::Approx(80.0 / 132));
  CHECK(gpu::streaming_plane(bn(bwd, 1024, 14), kH200Sms) == doctest::Approx(2.0));
  CHECK(gpu::cta_start_count(bn(fwd, 2048, 7), kH200Sms) == doctest::Approx(2.0));
  // One read, in either dtype: the fp32 rule's second read is the NCHW kernels'.
  KernelFeatures f32 = bn(fwd, 256, 56);
  f32.dtype = DType::fp32;
  CHECK(gpu::batch_norm_reread_bytes(f32, 128 * 1024) == 0);
  f32.layout = Layout::nchw;
  CHECK(gpu::batch_norm_reread_bytes(f32, 128 * 1024) > 0);
  // NCHW batch norms and layer norms (no channel_elements) keep one CTA per work item.
  KernelFeatures nchw = bn(fwd, 512, 7);
  nchw.layout = Layout::nchw;
  CHECK_FALSE(gpu::nhwc_batch_norm(nchw));
  CHECK(gpu::streaming_ctas(nchw, kH200Sms) == 512);
  KernelFeatures rows = bn(fwd, 4096, 7);
  rows.channel_elements = 0;
  CHECK(gpu::streaming_ctas(rows, kH200Sms) == 4096);
}

TEST_CASE("the GPU fit recovers an nhwc batch norm's bandwidth from the semi-persistent grids") {
  // Times from the CTAs the kernels launch, written out here (the rule's grid, capped at 2 per
  // SM) as a call of that many one-CTA work items with no rule left to apply: the fit recovers
  // the truth only where the target gives the nhwc calls those CTAs.
  const FitOptions o = gpu_fit_options({{"l2", 62914560}, {"dram", 0}}, kH200Sms);
  const Calibration cal = frame(o);
  EfficiencyParams truth;
  truth.peak_flops_per_second = 1e15;
  truth.m_half = 0.5;
  truth.bytes_per_second = {4e12, 2.5e12};
  truth.overhead_seconds = 5e-6;
  std::vector<Sample> samples;
  for (KernelPart pass : {KernelPart::fwd, KernelPart::bwd_data})
    for (int64_t c : {16, 64, 160, 512, 1024, 2048})
      for (int64_t hw : {7, 14, 28, 56, 112}) {
        if (32.0 * double(c * hw * hw) > 1.6e8)
          continue;
        const KernelFeatures f = bn(pass, c, hw);
        Sample s;
        s.op_class = f.op_class, s.dtype = f.dtype, s.pass = f.pass;
        s.bytes = f.bytes, s.flops = 4 * f.channel_elements * double(c);
        s.source = "synthetic";
        const double rows = pass == KernelPart::fwd ? 160 : 96;
        const double ctas = std::min(
            std::ceil(f.channel_elements / rows) * std::ceil(double(c) / 64), 2.0 * kH200Sms);
        s.parallel_units = ctas; // one CTA per item, nchw, no channel_elements: no rule applies
        s.seconds = model_seconds(cal, truth, s.features());
        s.parallel_units = double(c);
        s.channel_elements = f.channel_elements;
        s.layout = Layout::nhwc;
        samples.push_back(s);
      }
  const ClassCalibration cc = fit_class(samples, o);
  check_close(cc.params.m_half, truth.m_half, 0.01, "m_half (CTAs per SM)");
  check_close(cc.params.bytes_per_second.back(), 2.5e12, 0.01, "DRAM bandwidth");
  check_close(cc.params.overhead_seconds, truth.overhead_seconds, 0.01, "overhead");
  CHECK(cc.stats.mape < 1e-4);
  // The same samples read as NCHW (one CTA per channel) do not fit
  for (Sample &s : samples)
    s.layout = Layout::nchw;
  const ClassCalibration per_channel = fit_class(samples, o);
  // (1.3% mean error; the DRAM bandwidth about 2.0e12, m_half about 0)
  CHECK(per_channel.stats.mape > 0.01);
  CHECK(std::abs(per_channel.params.bytes_per_second.back() / 2.5e12 - 1) > 0.1);
}
