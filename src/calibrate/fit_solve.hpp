// Internal to the fit: one Ceres solve of one op class x dtype's samples at fixed GEMM tiles
// (fit_solve.cpp), which fit_class (fit.cpp) runs over the tile grid and two starting points.
#pragma once

#include <vector>

#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/calibration.hpp"

namespace perfmodel::calibrate {

/// The parameters of one solve and its final cost (Ceres's, robust loss and priors included).
struct Solved {
  EfficiencyParams params;
  double cost = 0;
};

/// One Ceres solve of single-call `samples` (all of one class and dtype) at tiles tile_m x
/// tile_n, in the memory levels, cores and executor choices of `frame`. `half_start` is the
/// starting Hockney size, `peak_scale` scales the starting peak (a compute- or memory-bound
/// start); `simple` fixes the sizes at zero and the overlap at 0 (too few samples to tell them
/// from the peak and overhead).
Solved solve(const std::vector<Sample> &samples, const FitOptions &opts, const Calibration &frame,
             double tile_m, double tile_n, double half_start, double peak_scale, bool simple);

} // namespace perfmodel::calibrate
