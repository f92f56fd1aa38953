// Fits the efficiency model of calibration.hpp to timed samples with Ceres (robust loss on
// log-time residuals, bounded log-parameters, bandwidths that never rise outward with a weak
// prior at the hw spec's, a grid over the discrete GEMM tile sizes).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/hw_spec.hpp"

namespace perfmodel::calibrate {

struct FitOptions {
  std::vector<MemoryLevelCapacity> memory_levels; // innermost first; last = DRAM
  int cores = 1;                                  // cores GEMM tiles are spread over
  /// The executor the samples ran on (Calibration::target; fit_options_for: the hardware
  /// kind's). Null: the generic target.
  const ExecutionTarget *target = nullptr;
  /// Starting points (from the hw spec): peak per dtype is looked up through `hw` when set.
  const HwSpec *hw = nullptr;
  std::vector<double> tile_m_candidates = {1, 4, 8, 16, 32, 48, 64, 96};
  std::vector<double> tile_n_candidates = {1, 4, 8, 16, 32, 64};
  std::string loss = "soft_l1"; // soft_l1 | cauchy | huber | none (plain least squares)
  double loss_scale = 0.1;      // residual size (log time) where the loss starts to bend
  int max_iterations = 200;
  int min_samples = 3; // a class x dtype with fewer samples is not fitted
  /// Rates of the target's terms known before the fit, by term key: each target's fit_rules
  /// say how it uses them (the CPU Eigen target: `cross_core_bytes_per_second`, the host
  /// probe's cross-core read rate per thread, as the start and weak prior of the classes whose
  /// samples read across cores; `weight_bytes_per_second`, the cold weights' rate). A term in
  /// the target's dram_stream_term() that is not given takes the DRAM bandwidth of the fp32
  /// data-movement class, fitted first.
  std::map<std::string, double> given_term_rates;
  std::function<void(const std::string &)> progress; // one line per fitted class
};

/// The memory levels and core count of a hw spec, as FitOptions wants them.
FitOptions fit_options_for(const HwSpec &hw);

/// The outermost cache of the memory levels fit_options_for(hw) gives (outermost_cache_bytes):
/// the capacity a calibration sample's cross-core writes are limited by.
double cache_bytes_for(const HwSpec &hw);

/// Fits one op class x dtype from its samples (all of `samples` must be of that class/dtype):
/// its parameters within the bounds of the hw spec (`opts.hw`, calibrate/bounds.hpp) and the
/// search range, those left on a bound (at_bound), and the sizes it was fitted on.
ClassCalibration fit_class(const std::vector<Sample> &samples, const FitOptions &opts);

/// Seconds the model gives for a call with the parameters of `p` (no hw fallback).
double model_seconds(const Calibration &cal, const EfficiencyParams &p, const KernelFeatures &f);

/// Statistics of a calibration over a set of samples.
FitStats fit_stats(const Calibration &cal, const std::vector<Sample> &samples);

/// One line per parameter of `cc` on a bound: "conv/fp32: peak_flops_per_second 3.53e+13 is on
/// its upper bound, the spec's ..." (calibrate's report; the YAML's `at_bound`).
std::vector<std::string> at_bound_lines(const ClassCalibration &cc);

/// Groups the samples by class x dtype, fits each group, and fills the overall statistics.
/// The caller fills the fingerprint, date, hardware and source fields.
Calibration fit_calibration(const std::vector<Sample> &samples, const FitOptions &opts);

} // namespace perfmodel::calibrate
