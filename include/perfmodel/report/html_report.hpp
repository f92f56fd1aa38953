// The HTML report: one self-contained page (styles, a small sortable-table script and SVG plots
// inline; no network, no external file) of a prediction, with the measured layer times and a
// profiler trace's analyses where given. `perfmodel report` writes it; the Python module binds
// render_html_report.
//
// Sections, in order: the summary (pass time, throughput, FLOPs, bytes, energy, parameters,
// the share of time per bound, the assumed execution, the time per op type), the profile (the
// slowest layers and their cumulative share of the time), the roofline (every drawable layer
// a point whose <title> holds its name and figures), predicted against measured (with
// `measured`), the trace (with `trace`: its overview, operators, kernels and, where computed,
// roofline attainment) and the per-layer table (sortable by every column; the bound coloured).
//
// Every string from the user (model, hardware, layer, file and trace names) is written
// HTML-escaped, with control characters and invalid UTF-8 replaced: a layer named `<script>`
// shows as text. The page sorts its layer table on load by the URL fragment
// `#sort=KEY` or `#sort=KEY:asc|desc` (KEY a column key: index, name, op, time, share, flops,
// bytes, ai, bound, energy, measured, error, ...; numbers largest first by default).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "perfmodel/graph.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/report/prediction_view.hpp"
#include "perfmodel/report/trace/trace_report.hpp"
#include "perfmodel/trace/trace.hpp"

namespace perfmodel::report {

/// What the report shows besides the prediction; every part is optional.
struct HtmlReportInputs {
  /// Measured seconds per layer name (parse_measurement_json of `measure --format json`),
  /// matched to the prediction's layers by name; `measured_source` names where they came from.
  std::map<std::string, double> measured;
  std::string measured_source;
  /// A profiler trace's analyses as `perfmodel trace` computes them (its overview, operators,
  /// kernels, attainment; each shown where present, in the order and number of rows given).
  std::optional<TraceReport> trace;
  /// Rows of the profile (the slowest layers); 0 = every layer with time.
  int profile_top = 15;
  /// Layers labelled by name in the roofline plot (the slowest).
  int roofline_labels = 5;
};

/// The trace analyses the report shows, as `perfmodel trace --hw` computes them: the overview,
/// operators, kernels and, where the trace has device activity and `hw` is given, the roofline
/// attainment of its operators on `hw` (with `cal`'s times where given); each table cut to its
/// `top` rows (0 = all) in its default order. `file` names the trace in the page.
TraceReport report_trace_views(const trace::Trace &t, const std::string &file, const HwSpec *hw,
                               const Calibration *cal, size_t top);

/// The page for prediction `p` of graph `g` (the graph p's layers point into) on `hw` (the
/// spec p was computed for: the roofline's ceilings and diagonals), with `ctx` the assumed
/// execution and memory as `predict` states them. Pure: computes nothing but the view.
std::string render_html_report(const Graph &g, const Prediction &p, const HwSpec &hw,
                               const PredictionContext &ctx, const HtmlReportInputs &in = {});

} // namespace perfmodel::report
