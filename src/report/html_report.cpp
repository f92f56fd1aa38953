// The HTML report's page: its sections put together from the prediction's views (header lines,
// rollup, roofline data), the measured times and the trace views' tables.
#include "perfmodel/report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "perfmodel/report/roofline_view.hpp"
#include "perfmodel/rollup.hpp"
#include "perfmodel/trace/attainment.hpp"
#include "perfmodel/trace/op_table.hpp"
#include "perfmodel/trace/overview.hpp"
#include "report/html.hpp"
#include "report/prediction_summary.hpp"
#include "report/trace/trace_tables.hpp"

namespace perfmodel::report {

namespace {

using html::esc;

// One layer's row of the layer table.
struct LayerRow {
  const LayerPrediction *lp = nullptr;
  std::string output, mnk;
  double share = 0; // of the layers' time
  std::optional<double> measured, error;
};

std::vector<LayerRow> layer_rows(const Graph &g, const Prediction &p, const RooflineData &d) {
  std::vector<LayerRow> rows;
  const double total = p.totals.predicted_seconds;
  for (size_t i = 0; i < p.layers.size(); ++i) {
    const LayerPrediction &lp = p.layers[i];
    LayerRow r;
    r.lp = &lp;
    if (!lp.layer->outputs.empty())
      r.output = shape_str(g.tensor(lp.layer->outputs[0]).shape);
    r.mnk = gemm_str(lp.cost.gemm);
    r.share = total > 0 ? lp.timing.seconds / total : 0;
    if (i < d.points.size() && d.points[i].measured_seconds) {
      r.measured = d.points[i].measured_seconds;
      r.error = lp.timing.seconds / *r.measured - 1;
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

Grid layer_grid(const std::vector<LayerRow> &rows, bool measured) {
  using C = Column<LayerRow>;
  std::vector<C> cols = {
      {"index", "#", hint::count(), [](const LayerRow &, size_t i) { return int64_t(i + 1); }},
      {"name", "layer", hint::text(), [](const LayerRow &r) { return r.lp->layer->name; }},
      {"op", "op", hint::text(),
       [](const LayerRow &r) {
         const Layer &l = *r.lp->layer;
         return l.op_name.empty() ? std::string(to_string(l.op)) : l.op_name;
       }},
      {"output", "output", hint::text(), &LayerRow::output},
      {"gemm", "MxNxK", hint::text(), &LayerRow::mnk},
      {"flops", "FLOPs", hint::si("F"), [](const LayerRow &r) { return r.lp->cost.total.flops; }},
      {"bytes", "bytes", hint::si("B"), [](const LayerRow &r) { return r.lp->cost.total.bytes(); }},
      {"ai", "AI", hint::si("F/B"),
       [](const LayerRow &r) { return r.lp->cost.arithmetic_intensity(); }},
      {"time", "time", hint::si("s"), [](const LayerRow &r) { return r.lp->timing.seconds; }},
      {"share", "time%", hint::percent(), &LayerRow::share},
      {"bound", "bound", hint::text(),
       [](const LayerRow &r) { return to_string(r.lp->timing.bound); }},
      {"energy", "energy", hint::si("J"), [](const LayerRow &r) { return r.lp->energy_joules; }},
  };
  if (measured) {
    cols.push_back(C("measured", "measured", hint::si("s"), &LayerRow::measured).missing_as("-"));
    cols.push_back(C("error", "error", hint::percent(1, true), &LayerRow::error).missing_as("-"));
  }
  return make_grid(cols, rows);
}

std::string card(std::string_view key, const std::string &value, const std::string &detail) {
  return fmt::format("<div class=\"card\"><div class=\"k\">{}</div><div class=\"v\">{}</div>"
                     "<div class=\"d\">{}</div></div>",
                     esc(key), esc(value), esc(detail));
}

std::string summary_section(const Prediction &p, const PredictionContext &ctx) {
  const Totals &t = p.totals;
  const double secs = p.pass_seconds();
  const double flops = double(t.cost.flops), bytes = double(t.cost.bytes());
  std::string s = "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"cards\">";
  s += card("predicted time", si(secs, "s"),
            p.pass_excess_seconds > 0
                ? fmt::format("layers {} + pass excess {}", si(t.predicted_seconds, "s"),
                              si(p.pass_excess_seconds, "s"))
                : fmt::format("{} layers, {}", t.layers, p.calibrated ? "calibrated" : "roofline"));
  s += card("throughput", secs > 0 ? si(double(p.batch) / secs, "") : "-",
            fmt::format("samples/s at batch {}", p.batch));
  s += card("FLOPs", si(flops, "F"), si(t.predicted.flops_per_second, "F/s") + " over that time");
  s += card("memory traffic", si(bytes, "B"),
            "AI " + si(bytes > 0 ? flops / bytes : 0, "F/B") + ", " +
                si(t.predicted.bytes_per_second, "B/s"));
  s += card("energy", si(t.energy_joules, "J"),
            fmt::format("component model; {} at {} x time", si(t.energy_power_time_joules, "J"),
                        si(p.power_watts, "W")));
  std::string mem = "parameters";
  if (ctx.memory)
    mem = si(double(ctx.memory->footprint.total_bytes()), "B") + " in memory" +
          (ctx.memory->capacity_bytes > 0
               ? (ctx.memory->fits ? ", fits" : ", does NOT fit") + std::string(" in ") +
                     si(ctx.memory->capacity_bytes, "B")
               : std::string());
  s += card("parameters", si(double(t.params), ""), mem);
  s += "</div>\n<h3>Where the time goes, by bound</h3>\n";
  s += html::share_bar({
      {"compute-bound", t.seconds_compute_bound, std::string(html::bound_color("compute")),
       si(t.seconds_compute_bound, "s")},
      {"memory-bound", t.seconds_memory_bound, std::string(html::bound_color("memory")),
       si(t.seconds_memory_bound, "s")},
      {"overhead-bound", t.seconds_overhead_bound, std::string(html::bound_color("overhead")),
       si(t.seconds_overhead_bound, "s")},
  });
  s += "<ul class=\"assume\">";
  for (const std::string &line : header_lines(ctx, 0))
    s += "<li>" + esc(line) + "</li>";
  s += "</ul>\n<h3>Time by op type</h3>\n";
  html::TableOptions to;
  to.id = "op-types";
  to.bound_key = "bound";
  s += html::table(op_types_grid(rollup(p)), to);
  return s + "</section>\n";
}

std::string bound_legend(bool measured) {
  std::string s = "<div class=\"legend\">";
  for (const char *b : {"compute", "memory", "overhead"})
    s += fmt::format("<span><i style=\"background:{};border-radius:50%\"></i>{}-bound</span>",
                     html::bound_color(b), b);
  if (measured)
    s += "<span><i style=\"border:2px solid #5d6878;border-radius:50%;width:9px;height:9px\">"
         "</i>measured</span>";
  return s + "<span><small>circle area ~ predicted time</small></span></div>\n";
}

std::string measured_section(const Prediction &p, const RooflineData &d,
                             const HtmlReportInputs &in) {
  struct Row {
    std::string name, op, bound;
    double predicted = 0, measured = 0, error = 0;
  };
  std::vector<Row> rows;
  double sum_p = 0, sum_m = 0;
  std::vector<double> abs_err;
  for (const RooflinePoint &pt : d.points)
    if (pt.measured_seconds) {
      Row r{pt.name,
            pt.op,
            pt.bound,
            pt.seconds,
            *pt.measured_seconds,
            pt.seconds / *pt.measured_seconds - 1};
      sum_p += r.predicted;
      sum_m += r.measured;
      abs_err.push_back(std::abs(r.error));
      rows.push_back(std::move(r));
    }
  std::string s =
      "<section id=\"measured\"><h2>Predicted against measured</h2>\n<p class=\"note\">";
  s += fmt::format("{} of {} layers have a measured time in {}", rows.size(), p.layers.size(),
                   esc(in.measured_source.empty() ? "the measurements" : in.measured_source));
  if (!d.unmatched_measurements.empty())
    s += fmt::format("; {} measured name(s) match no layer (first: {})",
                     d.unmatched_measurements.size(), esc(d.unmatched_measurements.front()));
  s += ". Error = predicted / measured &minus; 1.</p>\n";
  if (rows.empty())
    return s + "</section>\n";
  std::sort(abs_err.begin(), abs_err.end());
  double mean = 0;
  for (double e : abs_err)
    mean += e / double(abs_err.size());
  const size_t n = abs_err.size();
  const double median = n % 2 ? abs_err[n / 2] : (abs_err[n / 2 - 1] + abs_err[n / 2]) / 2;
  s += "<div class=\"cards\">";
  s += card("mean |error|", pct(mean), fmt::format("over {} layers", n));
  s += card("median |error|", pct(median), "half the layers are closer");
  s += card("sum of the layers", pct(sum_m > 0 ? sum_p / sum_m - 1 : 0, 1, true),
            "predicted " + si(sum_p, "s") + ", measured " + si(sum_m, "s"));
  s += "</div>\n<div class=\"two\"><figure>" + html::measured_svg(d) +
       "<figcaption>Each layer at its measured (x) and predicted (y) time; the band is a "
       "factor of two either way. Hover a point for its figures.</figcaption></figure><div>";
  std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
    return std::abs(a.error) > std::abs(b.error);
  });
  if (rows.size() > 12)
    rows.resize(12);
  using C = Column<Row>;
  const std::vector<C> cols = {
      {"name", "layer", hint::text(), &Row::name},
      {"predicted", "predicted", hint::si("s"), &Row::predicted},
      {"measured", "measured", hint::si("s"), &Row::measured},
      {"error", "error", hint::percent(1, true), &Row::error},
      {"bound", "bound", hint::text(), &Row::bound},
  };
  html::TableOptions to;
  to.id = "measured-top";
  to.name_key = "name";
  to.bound_key = "bound";
  s += "<h3 style=\"margin-top:8px\">Largest errors</h3>" + html::table(make_grid(cols, rows), to);
  return s + "</div></div></section>\n";
}

std::string trace_table(const TraceTable &t, const std::string &id) {
  html::TableOptions to;
  to.id = id;
  to.name_key = "name";
  to.bound_key = "bound";
  std::string s = "<h3>" + esc(t.title) + "</h3>\n" + html::table(t.grid, to);
  for (const std::string &n : t.notes)
    s += "<p class=\"note\">" + esc(n) + "</p>\n";
  return s;
}

std::string trace_section(const TraceReport &r) {
  std::string s = "<section id=\"trace\"><h2>Trace</h2>\n<p class=\"note\">" + esc(r.file) +
                  " (the rules of <code>perfmodel trace</code>, docs/trace.md)</p>\n";
  if (r.overview) {
    const trace::Overview &o = *r.overview;
    static const char *const colors[] = {"#3566d6", "#7fa7e8", "#a9c2ee", "#9b59b6",
                                         "#e0801b", "#d64541", "#2e9e6b", "#c3c8d1"};
    std::vector<html::Segment> seg;
    const auto &names = trace::role_names();
    const auto values = trace::role_values(o.average);
    for (size_t i = 0; i < names.size() && i < values.size(); ++i)
      seg.push_back({names[i], values[i], colors[i % 8], si(values[i], "s")});
    s +=
        "<h3>The average step, " + esc(si(o.average.total, "s")) + "</h3>\n" + html::share_bar(seg);
    s += trace_table(overview_table(o), "trace-overview");
  }
  if (r.operators)
    s += trace_table(operators_table(*r.operators), "trace-operators");
  if (r.kernels)
    s += trace_table(kernels_table(*r.kernels), "trace-kernels");
  if (r.attainment) {
    size_t i = 0;
    for (const TraceTable &t : attainment_tables(*r.attainment, r.attainment_order))
      s += trace_table(t, "trace-attainment-" + std::to_string(i++));
  }
  return s + "</section>\n";
}

std::string pass_words(const Prediction &p) {
  return p.pass == Pass::fwd ? "forward pass" : "training step (fwd + bwd_data + bwd_weight)";
}

} // namespace

TraceReport report_trace_views(const trace::Trace &t, const std::string &file, const HwSpec *hw,
                               const Calibration *cal, size_t top) {
  const trace::Links links = trace::link_events(t);
  const trace::OpTree tree = trace::build_op_tree(t, links);
  TraceReport r;
  r.file = file;
  r.overview = trace::compute_overview(t, links);
  r.operators = trace::operator_table(t, tree);
  r.kernels = trace::kernel_table(t);
  if (hw && r.overview->has_device)
    r.attainment = trace::attainment_view(t, links, tree, *hw, cal);
  sort_and_limit(r, "", top);
  return r;
}

std::string render_html_report(const Graph &g, const Prediction &p, const HwSpec &hw,
                               const PredictionContext &ctx, const HtmlReportInputs &in) {
  const RooflineData d = make_roofline(p, hw, in.measured);
  const bool measured = !in.measured.empty() || !in.measured_source.empty();
  const std::string model = p.model.empty() ? std::string("model") : p.model;
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                  "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n";
  s += "<meta name=\"generator\" content=\"perfmodel " PERFMODEL_VERSION "\">\n";
  s += "<title>" + esc(model + " on " + p.hardware) + " \u2014 perfmodel report</title>\n";
  s += "<style>" + std::string(html::stylesheet()) + "</style>\n</head>\n<body><main>\n";
  s += "<header><div class=\"kicker\">perfmodel report</div>\n<h1>" + esc(model) +
       " <span class=\"on\">on</span> " + esc(p.hardware) + "</h1>\n<p class=\"sub\">";
  s += esc(fmt::format("batch {} \u00b7 {} \u00b7 {} \u00b7 {} \u00b7 fusion {}", p.batch,
                       to_string(p.dtype), pass_words(p),
                       ctx.execution.calibration.empty()
                           ? std::string("roofline (no calibration)")
                           : "calibration " + ctx.execution.calibration,
                       ctx.execution.fusion));
  s += "</p></header>\n<nav><a href=\"#summary\">Summary</a><a href=\"#profile\">Profile</a>"
       "<a href=\"#roofline\">Roofline</a>";
  if (measured)
    s += "<a href=\"#measured\">Measured</a>";
  if (in.trace)
    s += "<a href=\"#trace\">Trace</a>";
  s += "<a href=\"#layers-section\">Layers</a></nav>\n";

  s += summary_section(p, ctx);
  s += "<section id=\"profile\"><h2>Profile</h2>\n<p class=\"note\">The slowest layers, their "
       "share of the layers' predicted time and the cumulative share; the bar's colour is the "
       "layer's bound.</p>\n<figure>" +
       html::profile_svg(p, size_t(std::max(0, in.profile_top))) + "</figure></section>\n";
  s += "<section id=\"roofline\"><h2>Roofline</h2>\n<p class=\"note\">Every layer at its "
       "arithmetic intensity and predicted FLOP/s under the ceilings of the data types it runs "
       "at and the memory diagonals of " +
       esc(p.hardware) + "; hover a point for its name and figures.</p>\n" +
       bound_legend(measured) + "<figure>" +
       html::roofline_svg(d, size_t(std::max(0, in.roofline_labels))) + "</figure></section>\n";
  if (measured)
    s += measured_section(p, d, in);
  if (in.trace)
    s += trace_section(*in.trace);

  const std::vector<LayerRow> rows = layer_rows(g, p, d);
  s += fmt::format("<section id=\"layers-section\"><h2>Layers</h2>\n<p class=\"note\">{} layers "
                   "in the order they run. Click a header to sort; the page opened as "
                   "<code>report.html#sort=time</code> starts sorted by time.</p>\n",
                   rows.size());
  html::TableOptions to;
  to.id = "layers";
  to.name_key = "name";
  to.bound_key = "bound";
  s += html::table(layer_grid(rows, measured), to) + "</section>\n";
  s += "<footer>perfmodel " PERFMODEL_VERSION " \u00b7 one self-contained page: no network, no "
       "external files \u00b7 decimal SI units (1 MB = 10<sup>6</sup> B)</footer>\n</main>\n";
  s += "<script>" + std::string(html::script()) + "</script>\n</body></html>\n";
  return s;
}

} // namespace perfmodel::report
