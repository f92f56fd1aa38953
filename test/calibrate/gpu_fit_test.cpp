// Known answers of the fit under the GPU target: samples made from known parameters through the
// target's tiles, waves, split-K and Winograd rule are fitted back within 1%, and each pass part
// of a class gets its own parameters (include/perfmodel/targets/gpu.hpp).
#include <doctest/doctest.h>

#include <cmath>

#include "fit_fixtures.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/targets/gpu.hpp"
#include "perfmodel/targets/gpu/conv_rules.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;
using namespace perfmodel::test;

namespace {

// 132 SMs (an H100's), DRAM only.
FitOptions gpu_options() { return gpu_fit_options({{"dram", 0}}, 132); }

EfficiencyParams gpu_truth() {
  EfficiencyParams p;
  p.peak_flops_per_second = 6e14;
  p.m_half = 24;
  p.n_half = 16;
  p.k_half = 96;
  p.bytes_per_second = {3e12};
  p.overlap = 0.2;
  p.overhead_seconds = 3e-6;
  p.term_rates = {1.5e12};
  return p;
}

// fp16 GEMMs from skinny to large, shallow to deep: some split along K, some fill the SMs in
// several waves, some stream from L2 or DRAM.
std::vector<Sample> gemm_samples(const EfficiencyParams &truth, const FitOptions &o) {
  const Calibration cal = frame(o);
  std::vector<Sample> out;
  const int64_t sizes[] = {16, 96, 256, 640, 1536, 4096, 8192};
  const int64_t depths[] = {32, 256, 1024, 4096, 16384};
  for (int64_t m : sizes)
    for (int64_t n : sizes)
      for (int64_t k : depths) {
        Sample s;
        s.op_class = OpClass::gemm;
        s.dtype = DType::fp16;
        s.gemm = GemmShape{m, n, k, 1};
        s.flops = 2.0 * double(m) * double(n) * double(k);
        s.bytes = 2.0 * double(m * k + k * n + m * n);
        s.seconds = model_seconds(cal, truth, s.features());
        s.source = "synthetic";
        out.push_back(s);
      }
  return out;
}

// fp32 convolutions over NCHW batches of 32: 3x3 at stride 1 (Winograd) and 2, 1x1 at stride 2.
std::vector<Sample> conv_samples(const EfficiencyParams &truth, const FitOptions &o,
                                 KernelPart pass) {
  const Calibration cal = frame(o);
  std::vector<Sample> out;
  for (int64_t c : {16, 64, 128, 256, 512})
    for (int64_t hw : {7, 14, 28, 56})
      for (int64_t kernel : {1, 3})
        for (int64_t stride : {1, 2}) {
          if (kernel == 1 && stride == 1)
            continue; // a pointwise convolution: another class
          out.push_back(conv_fp32_sample(cal, truth, c, hw, kernel, stride, pass));
        }
  return out;
}

void check_params(const EfficiencyParams &p, const EfficiencyParams &truth, bool split) {
  check_close(p.peak_flops_per_second, truth.peak_flops_per_second, 0.01, "peak");
  check_close(p.m_half, truth.m_half, 0.01, "m_half");
  check_close(p.n_half, truth.n_half, 0.01, "n_half");
  check_close(p.k_half, truth.k_half, 0.01, "k_half");
  for (size_t l = 0; l < truth.bytes_per_second.size(); ++l)
    check_close(p.bytes_per_second[l], truth.bytes_per_second[l], 0.01, "bandwidth");
  check_close(p.overlap, truth.overlap, 0.01, "overlap");
  check_close(p.overhead_seconds, truth.overhead_seconds, 0.01, "overhead");
  if (split)
    check_close(p.term_rate(gpu::kSplitK), truth.term_rate(gpu::kSplitK), 0.01, "split-K rate");
}

} // namespace

TEST_CASE("the GPU fit recovers known GEMM parameters through tiles, waves and split-K") {
  const FitOptions o = gpu_options();
  const EfficiencyParams truth = gpu_truth();
  const std::vector<Sample> samples = gemm_samples(truth, o);
  const Calibration cal = frame(o);
  int split = 0;
  for (const Sample &s : samples)
    split += efficiency_terms(cal, 1, 1, s.features(), &truth).splits > 1;
  REQUIRE(split > 10);
  REQUIRE(split < int(samples.size()) - 10);
  const ClassCalibration cc = fit_class(samples, o);
  check_params(cc.params, truth, true);
  CHECK(cc.stats.mape < 1e-4);
}

TEST_CASE("the GPU fit recovers a convolution class through the Winograd rule") {
  const FitOptions o = gpu_options();
  EfficiencyParams truth = gpu_truth();
  truth.peak_flops_per_second = 5e13; // fp32 on the SIMT units
  const std::vector<Sample> samples = conv_samples(truth, o, KernelPart::fwd);
  int winograd = 0;
  for (const Sample &s : samples)
    winograd += gpu::winograd_applies(s.features());
  REQUIRE(winograd > 10);
  const ClassCalibration cc = fit_class(samples, o);
  check_close(cc.params.peak_flops_per_second, truth.peak_flops_per_second, 0.01, "peak");
  check_close(cc.params.overhead_seconds, truth.overhead_seconds, 0.01, "overhead");
  CHECK(cc.stats.mape < 1e-3);
}

TEST_CASE("the GPU fit gives each pass part its own class") {
  const FitOptions o = gpu_options();
  EfficiencyParams fwd = gpu_truth(), data = gpu_truth();
  fwd.peak_flops_per_second = 5e13;
  data.peak_flops_per_second = 3e13;
  std::vector<Sample> samples = conv_samples(fwd, o, KernelPart::fwd);
  for (const Sample &s : conv_samples(data, o, KernelPart::bwd_data))
    samples.push_back(s);
  const Calibration cal = fit_calibration(samples, o);
  REQUIRE(cal.classes.size() == 2);
  const ClassCalibration *f = cal.find_for_pass(OpClass::conv, DType::fp32, KernelPart::fwd);
  const ClassCalibration *d = cal.find_for_pass(OpClass::conv, DType::fp32, KernelPart::bwd_data);
  REQUIRE(f);
  REQUIRE(d);
  CHECK(f->pass == KernelPart::fwd);
  CHECK(d->pass == KernelPart::bwd_data);
  check_close(f->params.peak_flops_per_second, 5e13, 0.01, "forward peak");
  check_close(d->params.peak_flops_per_second, 3e13, 0.01, "backward-data peak");
  // The generic target fits the parts together.
  FitOptions generic = o;
  generic.target = &generic_target();
  CHECK(fit_calibration(samples, generic).classes.size() == 1);
}
