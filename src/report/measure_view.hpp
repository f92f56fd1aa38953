// The `measure` views: measured per-layer statistics joined with the prediction (error per
// layer, MAPE, end-to-end error), and the microbenchmark table; table, CSV, JSON, Markdown.
//
// Sample table output (perfmodel measure --device cpu --model nin --batch 5 --calibration C):
//   measured on cpu: AMD EPYC (2 threads) (fp32), predicted for zen5-2c (calibrated: C), model
//   nin batch 5; 3 warm-up + 10 timed passes, every layer timed inside them, caches in-network
//   layer  op      path              measured p20  sd  min  max  predicted  error  bound  noisy
//   conv1  conv2d  im2col+gemm+relu  ...
//   per-layer MAPE ... (median |error| ...) over 16 layers measured at >= 50.0us
//   errors against the p20 of the timed runs
//   end to end: measured ... (sum of layers ...), predicted ..., error ...
//   host probes (fp32 FMA, DRAM read, cross-core read, conv): before ..., after ...;
//   calibration's ...; drift ...
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/time_statistic.hpp"
#include "report/format.hpp"

namespace perfmodel::report {

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
/// kernels/cpu/pass_placement.hpp).
struct PassPlacement {
  int passes_timed = 0, passes_kept = 0;
  double reference_round_trip_seconds = 0; // the faster placement's core round trip
  double round_trip_factor = 0;            // the placements split at this multiple of it
  bool kept_long_round_trip = false;       // the faster placement is the long round trip's
  int short_passes = 0, long_passes = 0;   // passes with both probes in each placement
  double short_median_seconds = 0, long_median_seconds = 0; // their median pass times (0: none)
  bool all_kept_for_too_few = false;       // too few passes in either placement: all kept
};

/// "statistics over 68 of 80 timed passes, those in the faster placement of the threads (...)":
/// the report's header line, and calibrate's for its networks.
std::string placement_line(const PassPlacement &p);

/// Of those passes, the ones between quiet convolution probes (`measure --passes quiet`,
/// kernels/cpu/pass_spells.hpp).
struct QuietPasses {
  int passes_timed = 0;
  int candidates = 0;  // the passes judged: the faster placement's, or every timed pass
  int passes_kept = 0; // the statistics' passes
  double interval_seconds = 0;             // between the probes
  double reference_flops_per_second = 0;   // the fastest probe, or the calibration's figure
  double calibration_flops_per_second = 0; // the calibration's convolution figure (0: none)
  double tolerance = 0;                    // a quiet probe is within this fraction of it
  int quiet_passes = 0, spell_passes = 0;  // candidates between quiet probes, the others
  double quiet_median_seconds = 0, spell_median_seconds = 0; // their median pass times (0: none)
  bool all_kept_for_too_few = false;       // too few quiet passes: every candidate kept
  std::vector<size_t> probe_before_pass;   // each probe: the timed passes before it
  std::vector<double> probe_flops_per_second;
  std::vector<double> pass_seconds;        // every timed pass, in order
};

/// "of those, 40 between convolution probes within 10% of the fastest (...)": the report's
/// line after placement_line, and calibrate's for its networks.
std::string quiet_line(const QuietPasses &q);

struct MeasurementRun {
  std::string device;         // "cpu (2 threads)"
  std::string executed_dtype; // the executor's data type
  int threads = 1;
  std::string buffers = "reuse";  // the executor's memory plan: "reuse" or "distinct"
  double activation_bytes = 0;    // the layer outputs' buffers under that plan
  double workspace_bytes = 0;     // the layers' workspaces under that plan
  std::string calibration;          // "" = pure roofline
  /// Every --calibration given when there were several; `calibration` is the one predicted
  /// with (the nearest host state, perfmodel/host_state.hpp nearest_state).
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
};

/// Whether the host was in its calibrated state (docs/measure.md, "Host state").
struct HostCheck {
  std::optional<HostState> reference, before, after;
  std::optional<HostDrift> drift_before, drift_after; // with a reference and that probe
  bool drifted = false; // a drift beyond tolerance (host_state.hpp), before or after
  bool changed = false; // drifted, or:
  /// with --passes quiet and a calibration's convolution figure, fewer than 3 passes, or than
  /// a quarter of those judged (kMinQuietFraction, perfmodel/host_state.hpp), ran between
  /// probes within kHostConvTolerance of it: the passes ran in a slow spell of the host
  bool passes_in_spell = false;
};

struct MeasurementRow {
  std::string name, op, path, bound;
  double flops = 0, bytes = 0, predicted_seconds = 0;
  MeasuredStats measured;
  double measured_seconds = 0;  // the run's statistic (median, p20 or min) of the layer's times
  std::optional<double> error; // predicted / measured - 1 (when measured > 0)
  bool in_summary = false;     // measured at >= min_layer_seconds
};

struct MeasurementSummary {
  int layers_in_summary = 0;
  double mape = 0;                       // mean |error| over the layers in the summary, a fraction
  double median_abs_error = 0;           // median |error| over the same layers
  double end_to_end_error = 0;           // predicted total / measured network statistic - 1
  double measured_total_seconds = 0;     // the statistic of whole forward passes
  double measured_layer_sum_seconds = 0; // sum of the per-layer statistics
  double predicted_total_seconds = 0;    // a whole pass: the layers' sum + the pass excess
  double predicted_layer_sum_seconds = 0;
  double predicted_pass_excess_seconds = 0; // Prediction::pass_excess_seconds (0: none)
  int noisy_layers = 0;
};

struct MeasurementView {
  std::string model, hardware;
  int64_t batch = 1;
  std::string dtype;
  bool calibrated = false;
  MeasurementRun run;
  std::vector<MeasurementRow> rows;
  MeasurementSummary summary;
  HostCheck host;
};

/// Joins a prediction with the measured layers (matched by position; names must agree).
/// Throws InputError when the two disagree in length or layer names.
MeasurementView make_measurement_view(const Prediction &p, const MeasurementRun &run);

std::string render_measurement(const MeasurementView &v, Format f);

/// One microbenchmark result, as `measure --microbench` prints it.
struct BenchRow {
  std::string name, kind, variant, dtype;
  int threads = 1;
  double flops = 0, bytes = 0;
  double working_set_bytes = 0;
  MeasuredStats stats;
};

std::string render_microbench(const std::vector<BenchRow> &rows, const std::string &device,
                              Format f);

} // namespace perfmodel::report
