// Fits a collective's latency and bus bandwidth to measured times (nccl-tests rows):
// t = a + b x size by linear least squares on relative residuals (docs/parallel.md,
// "Calibrating from nccl-tests").
#pragma once

#include <vector>

#include "perfmodel/collectives.hpp"
#include "perfmodel/io/nccl_tests.hpp"

namespace perfmodel::calibrate {

struct SizeTime {
  double bytes = 0;
  double seconds = 0;
};

/// Fits t = a + b x bytes minimising sum ((a + b bytes - t) / t)^2 (sizes span nine decades: each
/// row weighs by its relative error), then reads the ring form of collective_seconds off it:
/// latency per step = a / ring_steps(c, n), bus bandwidth = bus_factor(c, n) / b. An intercept
/// the data puts below 0 is held at 0 (the fit of b alone). Throws InputError when fewer than
/// two distinct sizes with positive times remain or the times do not grow with the size.
CollectiveFit fit_collective(Collective c, int64_t n, const std::vector<SizeTime> &samples);

/// Every run of an nccl-tests file fitted: rows of size 0 are left out, out-of-place and in-place
/// times are both samples. `gpus` is the group size (a run whose rank count differs is an
/// error at its header); `given` names the collective for runs that do not. A collective met in
/// two runs is fitted on both.
CommCalibration fit_nccl_tests(const std::vector<io::NcclTestsRun> &runs, int64_t gpus,
                               std::optional<Collective> given);

} // namespace perfmodel::calibrate
