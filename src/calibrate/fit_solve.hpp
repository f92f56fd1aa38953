// Internal to the fit: one Ceres solve of one op class x dtype's samples at fixed GEMM tiles
// (fit_solve.cpp), which fit_class (fit.cpp) runs over the tile grid and two starting points.
#pragma once

#include <vector>

#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/calibration.hpp"

namespace perfmodel::calibrate {

/// The parameters of one solve, its final cost (Ceres's, robust loss and priors included) and
/// the parameters that ended on a bound (the spec's or the search range's: calibrate/bounds.hpp).
struct Solved {
  EfficiencyParams params;
  double cost = 0;
  std::vector<ParameterAtBound> at_bound;
};

/// One Ceres solve of single-call `samples` (all of one class and dtype) at tiles tile_m x
/// tile_n, in the memory levels, cores and executor choices of `frame`. `half_start` is the
/// starting Hockney size, `peak_scale` scales the starting peak (a compute- or memory-bound
/// start); `simple` fixes the sizes at zero and the overlap at 0 (too few samples to tell them
/// from the peak and overhead). Every parameter is bounded by what `opts.hw` allows
/// (calibrate/bounds.hpp), the inner memory levels' bandwidths only with `inner_caps`: a cap on
/// a level inside the outermost one is no box on the parameters (it depends on the level
/// outside), so it is kept by solving again with the steps' bounds re-anchored until none moves,
/// which fit_class does once, for the best tiles, where a level passed its spec's bandwidth.
/// `choice`: the parameters a target that chooses its tiles per call (tile_call) chooses them
/// by (null: by the work alone).
Solved solve(const std::vector<Sample> &samples, const FitOptions &opts, const Calibration &frame,
             double tile_m, double tile_n, double half_start, double peak_scale, bool simple,
             bool inner_caps = false, const EfficiencyParams *choice = nullptr);

} // namespace perfmodel::calibrate
