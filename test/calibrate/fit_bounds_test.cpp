// The fit within the hardware spec's bounds (calibrate/bounds.hpp): a fit whose best unbounded
// answer exceeds the spec stops on the bound and says so; one inside the spec still recovers
// its parameters and reports no bound.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "fit_fixtures.hpp"
#include "perfmodel/calibrate/bounds.hpp"
#include "perfmodel/calibrate/fit.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;
using namespace perfmodel::test;

namespace {

// A GPU-like spec: a 1e12 FLOP/s fp32 unit and three levels.
HwSpec spec(double peak, std::vector<double> bandwidths) {
  HwSpec hw;
  hw.name = "test";
  hw.kind = "gpu";
  hw.units = 2;
  hw.compute = {{"simt", DType::fp32, peak, false, 0}};
  const char *names[] = {"l1", "l2", "dram"};
  const double capacities[] = {64e3, 2e6, 1e10};
  for (size_t i = 0; i < bandwidths.size(); ++i)
    hw.memory.push_back({names[i], bandwidths[i], capacities[i], 0});
  return hw;
}

FitOptions options(const HwSpec *hw) {
  FitOptions o;
  o.memory_levels = {{"l1", 64e3}, {"l2", 2e6}, {"dram", 0}};
  o.cores = 2;
  o.hw = hw;
  return o;
}

EfficiencyParams truth() {
  EfficiencyParams p;
  p.peak_flops_per_second = 2e11;
  p.m_half = 2;
  p.n_half = 3;
  p.k_half = 8;
  p.bytes_per_second = {1e12, 4e11, 4e10};
  p.overlap = 0.25;
  p.overhead_seconds = 2e-6;
  return p;
}

// GEMMs over small, skinny and large shapes (every level holds compute- and memory-bound
// calls), timed by `p`.
std::vector<Sample> gemm_samples(const EfficiencyParams &p, const FitOptions &o, OpClass cls) {
  std::vector<Sample> out;
  const int64_t sizes[] = {1, 3, 8, 20, 50, 128, 300, 700, 1500, 4000};
  int i = 0;
  for (int64_t m : sizes)
    for (int64_t n : sizes)
      for (int64_t k : sizes) {
        if ((i++ % 3) != 0 && !(m == 1 || n == 1))
          continue;
        Sample s;
        s.op_class = cls;
        s.gemm = GemmShape{m, n, k, 1};
        s.flops = 2.0 * m * n * k;
        s.bytes = 4.0 * (m * k + k * n + m * n);
        s.seconds = model_seconds(frame(o), p, s.features());
        s.source = "synthetic";
        out.push_back(s);
      }
  return out;
}

const ParameterAtBound *on_bound(const ClassCalibration &cc, const std::string &parameter) {
  for (const ParameterAtBound &b : cc.at_bound)
    if (b.parameter == parameter)
      return &b;
  return nullptr;
}

} // namespace

TEST_CASE("a fit inside the spec recovers its parameters and reports no bound") {
  // The spec's bandwidths are the truth's: the weak prior at the spec's figure holds a level
  // whose samples barely bind on it (l1, under the overhead) there, on its cap but not held by
  // it; the peak has room.
  const HwSpec hw = spec(1e12, truth().bytes_per_second);
  const FitOptions o = options(&hw);
  const EfficiencyParams t = truth();
  const ClassCalibration cc = fit_class(gemm_samples(t, o, OpClass::gemm), o);
  check_close(cc.params.peak_flops_per_second, t.peak_flops_per_second, 0.01, "peak");
  for (size_t l = 0; l < t.bytes_per_second.size(); ++l)
    check_close(cc.params.bytes_per_second[l], t.bytes_per_second[l], 0.01, "bandwidth");
  check_close(cc.params.overlap, t.overlap, 0.01, "overlap");
  check_close(cc.params.overhead_seconds, t.overhead_seconds, 0.01, "overhead");
  CHECK(cc.at_bound.empty());
}

TEST_CASE("a peak the spec does not allow stops on the spec's peak and is reported") {
  // The samples were timed at 2e11 FLOP/s; the spec's unit does 1e11.
  const HwSpec hw = spec(1e11, {2e12, 1e12, 1e11});
  const FitOptions o = options(&hw);
  const std::vector<Sample> samples = gemm_samples(truth(), o, OpClass::gemm);
  // Unbounded (no spec), the fit goes where the samples are: above the spec.
  CHECK(fit_class(samples, options(nullptr)).params.peak_flops_per_second > 1.5e11);
  const ClassCalibration cc = fit_class(samples, o);
  check_close(cc.params.peak_flops_per_second, 1e11, 1e-4, "peak");
  const ParameterAtBound *b = on_bound(cc, "peak_flops_per_second");
  REQUIRE(b);
  CHECK(b->upper);
  check_close(b->value, 1e11, 1e-4, "reported value");
  CHECK(b->limit.find("spec's fp32 simt peak") != std::string::npos);
  // The line calibrate prints for it.
  const std::vector<std::string> lines = at_bound_lines(cc);
  CHECK(std::find_if(lines.begin(), lines.end(), [](const std::string &l) {
          return l.rfind("gemm/fp32: peak_flops_per_second 1e+11 is on its upper bound", 0) == 0;
        }) != lines.end());
}

TEST_CASE("the Winograd allowance applies to the conv class only") {
  CHECK(algorithmic_savings(OpClass::conv) == kWinogradSavings);
  for (OpClass c : {OpClass::gemm, OpClass::pointwise, OpClass::depthwise, OpClass::elementwise})
    CHECK(algorithmic_savings(c) == 1.0);
  // 2e11 FLOP/s against a 1e11 spec: within 2.25x for a convolution, not for a 1x1 one.
  const HwSpec hw = spec(1e11, {2e12, 1e12, 1e11});
  const FitOptions o = options(&hw);
  const ClassCalibration conv = fit_class(gemm_samples(truth(), o, OpClass::conv), o);
  check_close(conv.params.peak_flops_per_second, 2e11, 0.01, "conv peak");
  CHECK(!on_bound(conv, "peak_flops_per_second"));
  const ClassCalibration pointwise = fit_class(gemm_samples(truth(), o, OpClass::pointwise), o);
  check_close(pointwise.params.peak_flops_per_second, 1e11, 1e-4, "pointwise peak");
  CHECK(on_bound(pointwise, "peak_flops_per_second"));
  CHECK(peak_limit(hw, OpClass::conv, DType::fp32).value == 2.25e11);
  CHECK(peak_limit(hw, OpClass::conv, DType::fp32).what.find("Winograd") != std::string::npos);
  // An fp32 product may run on tf32 matrix units: the faster bounds it.
  HwSpec tc = hw;
  tc.compute.push_back({"tensor", DType::tf32, 8e11, true, 0});
  CHECK(peak_limit(tc, OpClass::gemm, DType::fp32).value == 8e11);
  CHECK(peak_limit(tc, OpClass::elementwise, DType::fp32).value == 1e11);
}

TEST_CASE("a bandwidth above the spec's stops on it, and a level no sample reached takes at most "
          "its own spec's") {
  // DRAM timed at 4e10 B/s against a 2e10 spec.
  const HwSpec hw = spec(1e12, {2e12, 1e12, 2e10});
  const FitOptions o = options(&hw);
  const ClassCalibration cc = fit_class(gemm_samples(truth(), o, OpClass::gemm), o);
  check_close(cc.params.bytes_per_second[2], 2e10, 1e-4, "dram");
  const ParameterAtBound *b = on_bound(cc, "bytes_per_second[dram]");
  REQUIRE(b);
  CHECK(b->upper);
  CHECK(b->limit.find("dram bandwidth") != std::string::npos);
  // An inner level timed above its spec: on its own cap, never under the level outside it.
  const HwSpec tight_l2 = spec(1e12, {2e12, 3e11, 1e11});
  const FitOptions o2 = options(&tight_l2);
  const ClassCalibration inner = fit_class(gemm_samples(truth(), o2, OpClass::gemm), o2);
  check_close(inner.params.bytes_per_second[1], 3e11, 1e-4, "l2");
  CHECK(on_bound(inner, "bytes_per_second[l2]"));
  for (size_t l = 0; l + 1 < 3; ++l)
    CHECK(inner.params.bytes_per_second[l] >= inner.params.bytes_per_second[l + 1]);
  // Calls that stay in l1: l2 and DRAM are not fitted and take l1's, capped at their spec's.
  std::vector<Sample> small;
  for (const Sample &s : gemm_samples(truth(), o, OpClass::gemm))
    if (s.bytes < 32e3)
      small.push_back(s);
  REQUIRE(small.size() > 12);
  const ClassCalibration in_l1 = fit_class(small, o);
  CHECK(in_l1.params.bytes_per_second[1] <= 1e12);
  CHECK(in_l1.params.bytes_per_second[2] <= 2e10);
}

TEST_CASE("the overhead is at most the fastest sample's time") {
  // Small calls that all take 1 ms: the samples say "all overhead", and more than the fastest
  // call if they could.
  const HwSpec hw = spec(1e12, {2e12, 1e12, 1e11});
  const FitOptions o = options(&hw);
  std::vector<Sample> samples;
  for (Sample s : gemm_samples(truth(), o, OpClass::gemm))
    if (s.flops < 1e4) {
      s.seconds = 1e-3;
      samples.push_back(s);
    }
  REQUIRE(samples.size() >= 12);
  const ClassCalibration cc = fit_class(samples, o);
  CHECK(cc.params.overhead_seconds <= 1e-3 * (1 + 1e-9));
  CHECK(cc.params.overhead_seconds > 0.9e-3);
}

TEST_CASE("a fit records the sizes it was fitted on, per call") {
  const HwSpec hw = spec(1e12, {2e12, 1e12, 1e11});
  const FitOptions o = options(&hw);
  const std::vector<Sample> samples = gemm_samples(truth(), o, OpClass::gemm);
  const ClassCalibration cc = fit_class(samples, o);
  REQUIRE(cc.fitted_range);
  double lo = 1e300, hi = 0;
  for (const Sample &s : samples)
    lo = std::min(lo, s.flops), hi = std::max(hi, s.flops);
  CHECK(cc.fitted_range->flops_min == lo);
  CHECK(cc.fitted_range->flops_max == hi);
  CHECK(cc.fitted_range->bytes_min > 0);
  CHECK(cc.fitted_range->bytes_max > cc.fitted_range->bytes_min);
}
