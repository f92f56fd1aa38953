// Fixtures shared by the fit's known-answer tests (fit_test.cpp, fit_bounds_test.cpp,
// gpu_fit_test.cpp, gpu_streaming_fit_test.cpp, gpu_layout_fit_test.cpp): the calibration that
// times their synthetic samples, the GPU target's fit options, the relative check of a fitted
// parameter, and the synthetic fp32 convolution both GPU conv fits sweep.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/targets/gpu.hpp"

namespace perfmodel::test {

/// The calibration a fit with options `o` starts from (its memory levels, cores and target, no
/// class yet): model_seconds on it times a synthetic sample as the fitted calibration will.
inline Calibration frame(const calibrate::FitOptions &o) {
  Calibration c;
  c.memory_levels = o.memory_levels;
  c.cores = o.cores;
  c.target = o.target;
  return c;
}

/// The fit's options for a GPU of `sms` SMs with these memory levels, under the GPU target.
inline calibrate::FitOptions gpu_fit_options(std::vector<MemoryLevelCapacity> levels, int sms) {
  calibrate::FitOptions o;
  o.memory_levels = std::move(levels);
  o.cores = sms;
  o.target = &gpu::target();
  return o;
}

/// A check that `fitted` is within `tol` (relative) of `truth`, naming `what` when it is not.
inline void check_close(double fitted, double truth, double tol, const char *what) {
  INFO(what << ": fitted " << fitted << ", true " << truth);
  CHECK(std::abs(fitted - truth) <= tol * std::abs(truth));
}

/// A synthetic fp32 convolution over a batch of 32: `c` -> 2c channels on an hw x hw plane, a
/// kernel x kernel filter at `stride` (padding kernel / 2), in `pass` and `layout`, timed by
/// `truth` on `cal` (its GEMM shape and counts as layer_features gives a forward call).
inline calibrate::Sample conv_fp32_sample(const Calibration &cal, const EfficiencyParams &truth,
                                          int64_t c, int64_t hw, int64_t kernel, int64_t stride,
                                          KernelPart pass = KernelPart::fwd,
                                          Layout layout = Layout::nchw) {
  ConvGeometry g;
  g.batch = 32;
  g.in_channels = c;
  g.out_channels = 2 * c;
  g.in_h = g.in_w = hw;
  g.out_h = g.out_w = (hw + 2 * (kernel / 2) - kernel) / stride + 1;
  g.kernel_h = g.kernel_w = kernel;
  g.stride_h = g.stride_w = stride;
  calibrate::Sample s;
  s.op_class = OpClass::conv;
  s.dtype = DType::fp32;
  s.pass = pass;
  s.layout = layout;
  s.conv = g;
  const int64_t m = g.batch * g.out_h * g.out_w, n = g.out_channels, k = c * kernel * kernel;
  s.gemm = GemmShape{m, n, k, 1};
  s.flops = 2.0 * double(m) * double(n) * double(k);
  s.bytes = 4.0 * double(g.batch * c * hw * hw + n * k + m * n);
  s.seconds = calibrate::model_seconds(cal, truth, s.features());
  s.source = "synthetic";
  return s;
}

} // namespace perfmodel::test
