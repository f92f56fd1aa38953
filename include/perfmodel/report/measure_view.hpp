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
#include "perfmodel/policy/measurement.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/report/format.hpp"
#include "perfmodel/time_statistic.hpp"

namespace perfmodel::report {

// The measurement's data and its host check are the measurement policy's (policy/measurement.hpp).
using policy::HostCheck;
using policy::MeasuredEnergy;
using policy::MeasuredLayer;
using policy::MeasuredStats;
using policy::MeasurementRun;
using policy::PassPlacement;
using policy::QuietPasses;

/// "statistics over 68 of 80 timed passes, those in the faster placement of the threads (...)":
/// the report's header line, and calibrate's for its networks.
std::string placement_line(const PassPlacement &p);

/// "of those, 40 between convolution probes within 10% of the fastest (...)": the report's
/// line after placement_line, and calibrate's for its networks.
std::string quiet_line(const QuietPasses &q);

struct MeasurementRow {
  std::string name, op, path, bound;
  double flops = 0, bytes = 0, predicted_seconds = 0;
  MeasuredStats measured;
  double measured_seconds = 0; // the run's statistic (median, p20 or min) of the layer's times
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

/// Measured energy per pass next to the prediction's (component model), with the rates both
/// give: J per sample (per batch item) and GF/s/W (FLOPs per joule, over the pass's FLOPs).
struct EnergyComparison {
  double measured_joules_per_pass = 0, predicted_joules_per_pass = 0;
  double measured_joules_per_sample = 0, predicted_joules_per_sample = 0;
  double measured_gflops_per_watt = 0, predicted_gflops_per_watt = 0;
  double measured_watts = 0; // mean power over the timed passes
  double error = 0;          // predicted / measured - 1
  int passes = 0;
  double seconds = 0;
  std::string source;
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
  std::optional<EnergyComparison> energy; // with MeasurementRun::energy
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
