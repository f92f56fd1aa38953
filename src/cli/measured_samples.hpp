// The layers of a CPU measurement as calibration samples: what `measure --save-samples` writes
// and what `calibrate --device cpu` fits from the calibration networks.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/calibrate/pass_excess.hpp"
#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/kernels/cpu/executor.hpp"
#include "perfmodel/policy/measurement_policy.hpp"
#include "perfmodel/report/measure_view.hpp"
#include "perfmodel/time_statistic.hpp"

namespace perfmodel::cli {

/// A timed run's statistics as the measure report shows them (CPU and GPU measurements alike).
report::MeasuredStats measured_stats(const kernels::cpu::TimingStats &t);

/// One sample per timed layer of `m` (a measurement of `g`), timed by `stat`; sources read
/// "<prefix><graph>:<layer>" (calibrate::samples_from_layer_times). `hw`: the spec the samples
/// will calibrate (its outermost cache, for the cross-core bytes).
std::vector<calibrate::Sample> measured_layer_samples(const Graph &g,
                                                      const kernels::cpu::GraphMeasurement &m,
                                                      TimeStatistic stat, const std::string &prefix,
                                                      const HwSpec &hw);

/// The whole passes of `m` (a measurement of `g`) against the sum of its layers, both timed by
/// `stat`: a sample of the pass excess (calibrate/pass_excess.hpp).
calibrate::PassSample measured_pass_sample(const Graph &g, const kernels::cpu::GraphMeasurement &m,
                                           TimeStatistic stat);

/// Which of the timed passes of `p` the statistics kept by `rule`, as the report shows it.
report::PassPlacement pass_placement_view(const kernels::cpu::GraphMeasurement::Placement &p,
                                          const policy::PlacementPolicy &rule);

/// Which passes were kept between quiet convolution probes by `rule`, as the report shows it.
report::QuietPasses quiet_passes_view(const kernels::cpu::GraphMeasurement::Quiet &q,
                                      const policy::QuietPassPolicy &rule);

} // namespace perfmodel::cli
