// What a measurement produced and which of its runs count: the measured statistics, the passes
// the placement and quiet-probe rules kept, the host probes, and the check of the host's state
// against the calibration's. `measure` fills a MeasurementRun; report/measure_view renders it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/host_state.hpp"
#include "perfmodel/policy/host_state_policy.hpp"
#include "perfmodel/policy/quiet_passes.hpp"
#include "perfmodel/time_statistic.hpp"

namespace perfmodel::policy {

/// Timing statistics as measured (seconds), independent of the device that produced them.
struct MeasuredStats {
  int warmup = 0, iters = 0;
  double median_seconds = 0, mean_seconds = 0, sd_seconds = 0, min_seconds = 0, max_seconds = 0;
  double p20_seconds = 0; // 20th percentile
  std::string cache_state;
  bool noisy = false;
};

/// One layer as the executor ran it.
struct MeasuredLayer {
  std::string name;
  std::string path; // the kernel code path ("im2col+gemm", "depthwise", "view", ...)
  MeasuredStats stats;
};

/// Which timed passes the statistics are over (`measure --passes faster-placement`,
/// policy/placement.hpp).
struct PassPlacement {
  int passes_timed = 0, passes_kept = 0;
  double reference_round_trip_seconds = 0; // the faster placement's core round trip
  double round_trip_factor = 0;            // the placements split at this multiple of it
  bool kept_long_round_trip = false;       // the faster placement is the long round trip's
  int short_passes = 0, long_passes = 0;   // passes with both probes in each placement
  double short_median_seconds = 0, long_median_seconds = 0; // their median pass times (0: none)
  bool all_kept_for_too_few = false; // too few passes in either placement: all kept
};

/// Of those passes, the ones between quiet convolution probes (`measure --passes quiet`,
/// policy/quiet_passes.hpp).
struct QuietPasses {
  int passes_timed = 0;
  int candidates = 0;          // the passes judged: the faster placement's, or every timed pass
  int passes_kept = 0;         // the statistics' passes
  double interval_seconds = 0; // between the probes
  double reference_flops_per_second = 0;   // the fastest probe, or the calibration's figure
  double calibration_flops_per_second = 0; // the calibration's convolution figure (0: none)
  double tolerance = 0;                    // a quiet probe is within this fraction of it
  int quiet_passes = 0, spell_passes = 0;  // candidates between quiet probes, the others
  double quiet_median_seconds = 0, spell_median_seconds = 0; // their median pass times (0: none)
  bool all_kept_for_too_few = false;     // too few quiet passes: every candidate kept
  std::vector<size_t> probe_before_pass; // each probe: the timed passes before it
  std::vector<double> probe_flops_per_second;
  std::vector<double> pass_seconds; // every timed pass, in order
};

/// The energy a device's counter measured over the timed passes (NVML on a GPU).
struct MeasuredEnergy {
  double joules = 0;  // over all the timed passes
  int passes = 0;     // passes those joules cover
  double seconds = 0; // their time
  std::string source; // "NVML total-energy counter"
};

struct MeasurementRun {
  std::string device;         // "cpu (2 threads)"
  std::string executed_dtype; // the executor's data type
  int threads = 1;
  std::string buffers = "reuse"; // the executor's memory plan: "reuse" or "distinct"
  double activation_bytes = 0;   // the layer outputs' buffers under that plan
  double workspace_bytes = 0;    // the layers' workspaces under that plan
  std::string calibration;       // "" = pure roofline
  /// Every --calibration given when there were several; `calibration` is the one predicted
  /// with (the nearest host state, policy/host_state_policy.hpp nearest_state).
  std::vector<std::string> calibration_candidates;
  /// "" when `calibration` was taken on a machine like this one (or there is none), else how
  /// its device differs (calibrate/fingerprint.hpp host_mismatch).
  std::string calibration_mismatch;
  double min_layer_seconds = 50e-6; // layers below this are listed but not in the MAPE
  /// The statistic errors are computed against. On a shared host a low percentile is far more
  /// reproducible than the median.
  TimeStatistic statistic = TimeStatistic::p20;
  double noisy_range_fraction = 0, noisy_sd_fraction = 0; // the thresholds of the noisy flag
  std::vector<MeasuredLayer> layers;                      // same order as the prediction's layers
  MeasuredStats network;                                  // whole forward passes
  /// With `--passes faster-placement` (in-network, 2+ threads): the passes kept.
  std::optional<PassPlacement> placement;
  /// With `--passes quiet` (in-network): the passes kept of those.
  std::optional<QuietPasses> quiet;
  /// The host probes: the calibration's, and this run's just before and after its timed runs.
  std::optional<HostState> host_reference, host_before, host_after;
  /// The rules the host's state is checked by (check_host).
  HostStatePolicy host_policy;
  QuietPassPolicy quiet_policy;
  /// Executors other than the CPU's: how the layers and passes were timed, in place of the CPU's
  /// "timed passes, every layer timed inside them" (e.g. "10 graph replays per layer, ...").
  std::string timing_note;
  /// The measured energy, when the device has a counter; else `energy_unavailable` says why
  /// (both empty: the executor measures no energy, and the report says nothing of it).
  std::optional<MeasuredEnergy> energy;
  std::string energy_unavailable;
};

/// Whether the host was in its calibrated state (docs/measurement-policy.md).
struct HostCheck {
  std::optional<HostState> reference, before, after;
  std::optional<HostDrift> drift_before, drift_after; // with a reference and that probe
  HostStatePolicy policy;                             // the tolerances the probes were judged by
  bool drifted = false; // measurement_changed: a probe beyond tolerance, before or after
  bool changed = false; // drifted or passes_in_spell
  /// With --passes quiet and a calibration's convolution figure, the passes ran in a slow spell
  /// of the host (policy/quiet_passes.hpp passes_in_spell).
  bool passes_in_spell = false;
};

/// The host check of `run` by its host_policy and quiet_policy.
HostCheck check_host(const MeasurementRun &run);

/// How far a checked measurement was from its calibration's state, in tolerances: the
/// probes' measurement_severity, and where its passes ran in a slow spell at least 2 minus the
/// share of the judged passes that were quiet (more than one tolerance, the fewer quiet passes
/// the more). 0 for a measurement that did not change state and has no reference.
double attempt_severity(const HostCheck &h, const std::optional<QuietPasses> &quiet);

} // namespace perfmodel::policy
