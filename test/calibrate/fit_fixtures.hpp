// Fixtures shared by the fit's known-answer tests (fit_test.cpp, fit_bounds_test.cpp,
// gpu_fit_test.cpp, gpu_streaming_fit_test.cpp): the calibration that times their synthetic
// samples, the GPU target's fit options, and the relative check of a fitted parameter.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "perfmodel/calibrate/fit.hpp"
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

} // namespace perfmodel::test
