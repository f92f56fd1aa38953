// The commands as library functions: what `perfmodel predict`, `sweep` (of a graph model or of a
// language model), `trace`, `kernels`, `llm` and `list` compute from their inputs, rendered by
// the report views. The CLI (src/cli/cmd_*.cpp) and the Python module (python/) are front ends
// over these, so that both give the same answer (the Python module's to_dict() is the CLI's
// --format json, byte for byte through the same renderer). Inputs arrive loaded where a front
// end may load them in more than one way (a hardware spec from a file or from a Python dict, a
// model from a file or from ONNX bytes); names that only a file can hold (calibrations, traces,
// CSVs) arrive as names.
// Errors are InputError (bad input, with its location) or RuntimeFailure.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/extrapolation.hpp"
#include "perfmodel/fusion.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/llm/serve.hpp"
#include "perfmodel/llm/sweep.hpp"
#include "perfmodel/report/format.hpp"
#include "perfmodel/report/kernels_view.hpp"
#include "perfmodel/report/prediction_view.hpp"
#include "perfmodel/report/trace/trace_report.hpp"
#include "perfmodel/sweep.hpp"

namespace perfmodel::app {

/// A rendered result and the calibration's extrapolations, which a front end reports its own way
/// (the CLI: one stderr line each, perfmodel/extrapolation.hpp's extrapolation_warnings).
struct Rendered {
  std::string text;
  std::vector<ExtrapolatedCall> extrapolated;
};

/// `predict`: the settings besides the model and the hardware.
struct PredictRequest {
  Pass pass = Pass::fwd;
  Fusion fusion = Fusion::none;
  std::optional<double> power_watts;
  std::optional<double> runtime_seconds;
  std::string calibration; // a path or name; "" = the roofline
  bool calibration_other_hardware = false;
  /// Non-empty: each layer's cost, given instead of the counting rules (a language model's
  /// pass, llm::pass_costs); the fusion must then be none, so the layers stay as given.
  std::vector<LayerCost> layer_costs;
};
/// A prediction with what its views need: the fused graph its layers point into (shared, so
/// the run can be moved), the calibration used, the assumed execution and memory footprint.
struct PredictRun {
  std::shared_ptr<const Graph> graph;
  std::shared_ptr<const Calibration> calibration; // null: the roofline
  Prediction prediction;
  report::PredictionContext context;
  std::vector<ExtrapolatedCall> extrapolated;
};
/// Fuses `model` as asked, loads the calibration and predicts the model on `hw`, with the
/// assumed execution and the memory footprint of the pass (what every view of a prediction
/// shows: the printers, the HTML report).
PredictRun run_predict(Graph model, const HwSpec &hw, const PredictRequest &r);
/// run_predict, rendered.
Rendered predict(Graph model, const HwSpec &hw, const PredictRequest &r, report::Format f,
                 const report::PredictionViewOptions &view);

/// `report`: the HTML page's inputs besides the prediction's.
struct ReportRequest {
  std::string measured; // `measure --format json` output ("" = none)
  std::string trace;    // a profiler trace (.json or .json.gz; "" = none)
  int top = 15;         // rows of the profile (0 = every layer with time)
  int trace_top = 10;   // rows of the trace's tables (0 = all)
};
/// The self-contained HTML page, the calibration's extrapolations and the measured layer names
/// that match no layer of the model (a front end warns about both).
struct ReportPage {
  std::string html;
  std::string model; // the model's name, as the page shows it
  std::vector<ExtrapolatedCall> extrapolated;
  std::vector<std::string> unmatched_measurements;
};
/// run_predict, with measured times and a trace where given, as one HTML page
/// (report::render_html_report).
ReportPage report(Graph model, const HwSpec &hw, const PredictRequest &r, const ReportRequest &in);

/// `sweep`: the axes (hardware, batches, dtypes, passes, fusion) and the calibration.
struct SweepRequest {
  SweepSpec spec; // its calibration pointer is set by sweep()
  std::string calibration;
  bool calibration_other_hardware = false;
  std::string sort; // "" = the axes' order
  /// The axes' order is needed too (a plot): the sorted points are a copy. Otherwise the
  /// points are sorted in place, so a sweep of a million points is held once.
  bool keep_axes_order = false;
};
/// An InputError unless `key` is "" or one of report::sweep_sort_keys().
void check_sweep_sort(const std::string &key);
/// The sweep in the axes' order (`result`, what plots draw; sorted in place unless
/// keep_axes_order) and as printed (`shown()`, sorted).
struct SweepRun {
  SweepResult result;
  std::optional<SweepResult> sorted; // the sorted copy, with keep_axes_order and a sort key
  const SweepResult &shown() const { return sorted ? *sorted : result; }
};
/// Checks the sort key and that a calibration comes with exactly one hardware spec, loads the
/// calibration and runs the sweep of `model`.
SweepRun sweep(const Graph &model, SweepRequest r);

/// `sweep` of a language model (a config.json): the axes and what the points share.
struct LlmSweepRequest {
  std::string model;       // a config.json path or a name in models/llm/
  llm::LlmSweepSpec spec;  // its calibration and comm pointers are set by llm_sweep()
  std::string calibration; // a path or name ("" = the roofline); needs exactly one hardware
  bool calibration_other_hardware = false;
  std::string comm_calibration; // calibrate --from-nccl-tests output ("" = the interconnect's)
  std::string sort;             // "" = the axes' order
  bool keep_axes_order = false; // as SweepRequest's
};
/// An InputError unless `key` is "" or one of report::llm_sweep_sort_keys().
void check_llm_sweep_sort(const std::string &key);
struct LlmSweepRun {
  llm::LlmSweepResult result;
  std::optional<llm::LlmSweepResult> sorted;
  const llm::LlmSweepResult &shown() const { return sorted ? *sorted : result; }
};
/// Checks the sort key, reads the config and the calibrations and runs the sweep.
LlmSweepRun llm_sweep(LlmSweepRequest r);

/// `trace`: a profiler trace and the views asked of it. A hardware spec is given by `hw` (a
/// name or path) or already loaded in `hw_spec`; the same for the --predict-on target.
struct TraceRequest {
  std::string file;
  std::string hw;
  std::optional<HwSpec> hw_spec;
  std::string calibration;
  std::string predict_on;
  std::optional<HwSpec> predict_on_spec;
  std::string target_calibration;
  bool calibration_other_hardware = false;
  std::string view = "all"; // overview, operators, kernels, attainment, all, none
  std::string sort;         // "" = each view's default
  int top = 10;             // rows per table, 0 = all
};
/// Checks the combination of options (each message names the options), loads the inputs, reads
/// the trace and computes the views asked for.
report::TraceReport trace(const TraceRequest &r);

/// `kernels`: every run of a measurement CSV predicted on `hw` (the roofline, or the named
/// calibration), with the measured time and the error where the row has one.
report::KernelsView kernels(const HwSpec &hw, const std::string &calibration,
                            bool calibration_other_hardware, const std::string &csv);

/// `llm`: a decoder-only model (a config.json path or a name in models/llm/) served on `hw`.
/// `options.calibration` is set from `calibration` (a path or name; "" = the roofline).
std::string llm(const std::string &model, const HwSpec &hw, llm::ServeOptions options,
                const std::string &calibration, bool calibration_other_hardware, report::Format f,
                bool per_layer);

/// `list hw|models|ops [--model M]`: what is shipped, and the op vocabulary with counting rules
/// (for `ops` with a model: the ops that model uses). JSON schema perfmodel.list/1.
std::string list(const std::string &what, const std::string &model, report::Format f);

} // namespace perfmodel::app
