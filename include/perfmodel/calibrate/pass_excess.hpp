// Fits the pass excess (perfmodel/calibration.hpp, PassExcess) on whole forward passes: how much
// the statistic of a pass exceeds the sum of its layers' statistics, as a cost per kernel layer
// plus a fraction of the layers' time. `calibrate --device cpu` gives it the calibration
// networks' passes (docs/model.md, "Whole passes").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"

namespace perfmodel::calibrate {

/// One network's timed passes, both figures in the same statistic (p20 by default).
struct PassSample {
  std::string network;
  int layers = 0;               // layers that run a kernel (views excluded)
  double layer_sum_seconds = 0; // sum of the layers' statistics
  double pass_seconds = 0;      // the statistic of whole passes
};

/// Least squares (Ceres, both parameters bounded at 0) on the relative residual
/// (pass - layer_sum - excess) / layer_sum. Needs two samples whose layers-per-second differ by
/// at least 10% (else the two terms cannot be told apart): nullopt otherwise, or when a
/// sample is not positive.
std::optional<PassExcess> fit_pass_excess(const std::vector<PassSample> &samples);

} // namespace perfmodel::calibrate
