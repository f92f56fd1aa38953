// Renders predictions: one set of rows computed once, printed four ways; the header and the
// rollup come from prediction_summary.cpp.
#include "perfmodel/report/prediction_view.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfmodel/rollup.hpp"
#include "report/columns.hpp"
#include "report/prediction_summary.hpp"
#include "perfmodel/report/json_text.hpp"

namespace perfmodel::report {

namespace {

using json = nlohmann::ordered_json;

// One layer's row: computed once, printed four ways by layer_columns().
struct Row {
  std::string name, op, input, filter, output, mnk, bound, unit;
  Shape input_shape, output_shape;
  bool train = false;
  const LayerPrediction *lp;
};

std::vector<Row> make_rows(const Graph &g, const Prediction &p) {
  std::vector<Row> rows;
  for (const auto &lp : p.layers) {
    const Layer &l = *lp.layer;
    Row r;
    r.lp = &lp;
    r.name = l.name;
    r.op = l.op_name;
    if (!l.inputs.empty())
      r.input_shape = g.tensor(l.inputs[0]).shape;
    if (!l.outputs.empty())
      r.output_shape = g.tensor(l.outputs[0]).shape;
    r.input = l.inputs.empty() ? "" : shape_str(r.input_shape);
    r.filter = lp.cost.gemm_like && !l.params.empty() ? shape_str(l.params[0].shape) : "";
    r.output = l.outputs.empty() ? "" : shape_str(r.output_shape);
    r.mnk = gemm_str(lp.cost.gemm);
    r.bound = std::string(to_string(lp.timing.bound));
    r.unit = lp.timing.unit.unit.empty()
                 ? ""
                 : lp.timing.unit.unit + "/" + std::string(to_string(lp.timing.unit.dtype));
    r.train = p.pass == Pass::train;
    rows.push_back(std::move(r));
  }
  return rows;
}

json cost_json(const PassCost &c);

// The per-layer columns of every format.
const std::vector<Column<Row>> &layer_columns() {
  using C = Column<Row>;
  auto gemm = [](int64_t GemmShape::*f) {
    return [f](const Row &r) -> Value {
      return r.lp->cost.gemm ? Value(*r.lp->cost.gemm.*f) : Value();
    };
  };
  // The table and Markdown keep layer, op, output, FLOPs, bytes, AI, time and bound unless
  // the view is wide (the detail columns); CSV and JSON have every field.
  static const std::vector<C> cols = {
      {"table", "table", hint::text(), [](const Row &) { return "layers"; }, kCsv},
      C("name", "layer", hint::text().cut_in_middle(), &Row::name).csv_as("name"),
      {"op", "op", hint::text(), &Row::op},
      {"kind", "kind", hint::text(), [](const Row &r) { return to_string(r.lp->layer->op); },
       kJson},
      C("input_shape", "input", hint::text(), &Row::input, kText | kCsv)
          .csv_as("input_shape")
          .as_detail(),
      C("filter_shape", "filter", hint::text(), &Row::filter, kText | kCsv)
          .csv_as("filter_shape")
          .as_detail(),
      C("output_shape", "output", hint::text(), &Row::output, kText | kCsv).csv_as("output_shape"),
      {"input_shape", "input", hint::text(), [](const Row &r) { return json(r.input_shape); },
       kJson},
      {"output_shape", "output", hint::text(), [](const Row &r) { return json(r.output_shape); },
       kJson},
      C("flops", "FLOPs", hint::si("F"),
        [](const Row &r) {
          return r.lp->cost.total.flops;
        }).csv_as("flops"),
      {"macs", "macs", hint::count(), [](const Row &r) { return r.lp->cost.total.macs; }, kData},
      C("bytes", "bytes", hint::si("B"),
        [](const Row &r) {
          return r.lp->cost.total.bytes();
        }).csv_as("bytes"),
      {"bytes_input", "bytes_input", hint::count(),
       [](const Row &r) { return r.lp->cost.total.bytes_input; }, kData},
      {"bytes_weights", "bytes_weights", hint::count(),
       [](const Row &r) { return r.lp->cost.total.bytes_weights; }, kData},
      {"bytes_bias", "bytes_bias", hint::count(),
       [](const Row &r) { return r.lp->cost.total.bytes_bias; }, kData},
      {"bytes_output", "bytes_output", hint::count(),
       [](const Row &r) { return r.lp->cost.total.bytes_output; }, kData},
      {"params", "params", hint::count(), [](const Row &r) { return r.lp->cost.params; }, kData},
      {"gemm_m", "gemm_m", hint::count(), gemm(&GemmShape::m), kCsv},
      {"gemm_n", "gemm_n", hint::count(), gemm(&GemmShape::n), kCsv},
      {"gemm_k", "gemm_k", hint::count(), gemm(&GemmShape::k), kCsv},
      {"gemm_groups", "gemm_groups", hint::count(), gemm(&GemmShape::groups), kCsv},
      {"gemm", "gemm", hint::text(),
       [](const Row &r) {
         const auto &gm = r.lp->cost.gemm;
         return gm ? json{{"m", gm->m}, {"n", gm->n}, {"k", gm->k}, {"groups", gm->groups}}
                   : json(nullptr);
       },
       kJson},
      C("arithmetic_intensity", "AI", hint::si("F/B"),
        [](const Row &r) {
          return r.lp->cost.arithmetic_intensity();
        }).csv_as("arithmetic_intensity (F/B)"),
      C("mnk", "MxNxK", hint::text(), &Row::mnk, kText).as_detail(),
      C("predicted_seconds", "time", hint::si("s"),
        [](const Row &r) {
          return r.lp->timing.seconds;
        }).csv_as("predicted_time (s)"),
      {"compute_seconds", "compute_time", hint::si("s"),
       [](const Row &r) { return r.lp->timing.compute_seconds; }, kData},
      {"memory_seconds", "memory_time", hint::si("s"),
       [](const Row &r) { return r.lp->timing.memory_seconds; }, kData},
      {"overhead_seconds", "overhead_time", hint::si("s"),
       [](const Row &r) { return r.lp->timing.overhead_seconds; }, kData},
      C(
          "flops_per_second", "rate", hint::si("F/s"),
          [](const Row &r) -> Value {
            const double secs = r.lp->timing.seconds;
            return secs > 0 ? Value(double(r.lp->cost.total.flops) / secs) : Value();
          },
          kTable)
          .missing_as("-")
          .as_detail(),
      {"bound", "bound", hint::text(), &Row::bound},
      {"unit", "unit", hint::text(), &Row::unit, kJson},
      C(
          "attainable_flops_per_second", "attainable", hint::si("F/s"),
          [](const Row &r) { return r.lp->timing.attainable_flops_per_second; }, kData)
          .csv_as("attainable (FLOP/s)"),
      C(
          "energy_joules", "energy", hint::si("J"),
          [](const Row &r) { return r.lp->energy_joules; }, kTable | kData)
          .as_detail(),
      {"energy_power_time_joules", "energy_power_time", hint::si("J"),
       [](const Row &r) { return r.lp->energy_power_time_joules; }, kData},
      {"passes", "passes", hint::text(),
       [](const Row &r) -> Value {
         if (!r.train)
           return {};
         const LayerCost &c = r.lp->cost;
         return json{{"fwd", cost_json(c.fwd)},
                     {"bwd_data", cost_json(c.bwd_data)},
                     {"bwd_weight", cost_json(c.bwd_weight)}};
       },
       kJson},
  };
  return cols;
}

struct ProfileEntry {
  std::string name;
  double seconds, fraction, cumulative, cumulative_seconds;
};

std::vector<ProfileEntry> make_profile(const Prediction &p, int top) {
  std::vector<const LayerPrediction *> order;
  for (const auto &lp : p.layers)
    if (lp.timing.seconds > 0)
      order.push_back(&lp);
  std::stable_sort(order.begin(), order.end(),
                   [](auto *a, auto *b) { return a->timing.seconds > b->timing.seconds; });
  if (top > 0 && static_cast<int>(order.size()) > top)
    order.resize(static_cast<size_t>(top));
  std::vector<ProfileEntry> out;
  const double total = p.totals.predicted_seconds;
  double cum = 0;
  for (auto *lp : order) {
    cum += lp->timing.seconds;
    out.push_back({lp->layer->name, lp->timing.seconds, total > 0 ? lp->timing.seconds / total : 0,
                   total > 0 ? cum / total : 0, cum});
  }
  return out;
}

// The time profile's columns. CSV and JSON name the layer first, the text formats last.
const std::vector<Column<ProfileEntry>> &profile_columns() {
  using E = ProfileEntry;
  using C = Column<E>;
  static const std::vector<C> cols = {
      {"table", "table", hint::text(), [](const E &) { return "profile"; }, kCsv},
      {"name", "layer", hint::text(), &E::name, kData},
      C("seconds", "time", hint::si("s"), &E::seconds, kText | kData).csv_as("time (s)"),
      C("fraction", "time%", hint::percent(), &E::fraction, kAll).csv_as("share of time"),
      {"cumulative_seconds", "cum_time", hint::si("s"), &E::cumulative_seconds, kTable},
      C("cumulative_fraction", "cum_time%", hint::percent(), &E::cumulative, kTable | kData)
          .csv_as("cumulative share"),
      {"cumulative_fraction", "cum%", hint::percent(), &E::cumulative, kMd},
      {"name", "layer", hint::text().cut_in_middle(), &E::name, kText},
  };
  return cols;
}

// How the table and Markdown lay out a view: compact and fitted to kTextWidth unless wide.
Style text_style(const PredictionViewOptions &o) {
  Style st;
  st.details = o.wide;
  st.max_width = o.wide ? 0 : kTextWidth;
  return st;
}

std::string title(const Prediction &p) {
  return fmt::format("{} on {} (batch {}, {}, {}, {})", p.model, p.hardware, p.batch,
                     to_string(p.dtype), to_string(p.pass),
                     p.calibrated ? "calibrated" : "roofline");
}

// boda's FWD TOTALS block: F and F/s, B and B/s with AI, J and F/s/W.
std::string totals_block(const char *heading, const Totals &t, const Rates &r, const char *source) {
  const double flops = static_cast<double>(t.cost.flops),
               bytes = static_cast<double>(t.cost.bytes());
  return fmt::format("--- {} ({} layers; rates over {}) ---\n{} {}\n{} {} AI={}\n{} {}\n", heading,
                     t.layers, source, si(flops, "F"), si(r.flops_per_second, "F/s"),
                     si(bytes, "B"), si(r.bytes_per_second, "B/s"),
                     si(bytes > 0 ? flops / bytes : 0, "F/B"), si(r.energy_joules, "J"),
                     si(r.flops_per_second_per_watt, "F/s/W"));
}

std::string render_table(const Graph &g, const Prediction &p, const PredictionContext &ctx,
                         const PredictionViewOptions &o) {
  std::string s = "perfmodel predict: " + title(p) + "\n";
  for (const std::string &line : header_lines(ctx, o.wide ? 0 : kTextWidth))
    s += line + "\n";
  const Style st = text_style(o);
  if (o.rollup) {
    const Rollup r = rollup(p);
    s += "\nTIME BY OP TYPE:\n" + table(op_types_grid(r, st));
    s += "\nTIME BY BOUND:\n" + table(bounds_grid(r, st));
  }
  if (o.per_layer)
    s += "\nLAYERS:\n" + table(make_grid(layer_columns(), make_rows(g, p), st));
  const Totals &a = p.totals;
  const PassCost &c = a.cost;
  s += fmt::format("\n--- TOTALS ({} layers) ---\n", a.layers);
  s += fmt::format(
      "FLOPs {}  MACs {}  bytes {} (input {}, weights {}, bias {}, output {})  params {}\n",
      si(double(c.flops), "F"), si(double(c.macs), "MAC"), si(double(c.bytes()), "B"),
      si(double(c.bytes_input), "B"), si(double(c.bytes_weights), "B"),
      si(double(c.bytes_bias), "B"), si(double(c.bytes_output), "B"), si(double(a.params), ""));
  s += fmt::format("predicted {}  {}  {}  bound: compute {}, memory {}, overhead {}\n",
                   si(a.predicted_seconds, "s"), si(a.predicted.flops_per_second, "F/s"),
                   si(a.predicted.bytes_per_second, "B/s"), si(a.seconds_compute_bound, "s"),
                   si(a.seconds_memory_bound, "s"), si(a.seconds_overhead_bound, "s"));
  if (p.pass_excess_seconds > 0)
    s += fmt::format("whole pass {} (the layers' sum + {} pass excess of the calibration)\n",
                     si(p.pass_seconds(), "s"), si(p.pass_excess_seconds, "s"));
  s += fmt::format("energy {}  {}  {}  (component model); {} at {} x time\n",
                   si(a.energy_joules, "J"), si(a.predicted.picojoules_per_flop * 1e-12, "J/F"),
                   si(a.predicted.flops_per_second_per_watt, "F/s/W"),
                   si(a.energy_power_time_joules, "J"), si(p.power_watts, "W"));
  if (p.gemm_totals.layers > 0) {
    s += "\n";
    if (p.gemm_totals.measured) {
      // The inputs as given, printed as an ostream prints a double (%g).
      s += fmt::format("-- INPUT: RUNTIME={:g}s --\n-- INPUT: POWER={:g}W --\n",
                       p.gemm_totals.measured->seconds, p.power_watts);
      s += totals_block("FWD TOTALS, conv/matrix", p.gemm_totals, *p.gemm_totals.measured,
                        "--runtime, energy = power x runtime");
    } else {
      s += totals_block("FWD TOTALS, conv/matrix", p.gemm_totals, p.gemm_totals.predicted,
                        "predicted time, component energy");
    }
  }
  if (o.profile)
    s += "\nPROFILE:\n" + table(make_grid(profile_columns(), make_profile(p, o.top), st));
  return s;
}

json cost_json(const PassCost &c) {
  return json{{"flops", c.flops},
              {"macs", c.macs},
              {"bytes", c.bytes()},
              {"bytes_input", c.bytes_input},
              {"bytes_weights", c.bytes_weights},
              {"bytes_bias", c.bytes_bias},
              {"bytes_output", c.bytes_output}};
}

json rates_json(const Rates &r) {
  return json{{"seconds", r.seconds},
              {"flops_per_second", r.flops_per_second},
              {"bytes_per_second", r.bytes_per_second},
              {"energy_joules", r.energy_joules},
              {"watts", r.watts},
              {"flops_per_second_per_watt", r.flops_per_second_per_watt},
              {"picojoules_per_flop", r.picojoules_per_flop}};
}

json totals_json(const Totals &t) {
  json j = cost_json(t.cost);
  j["params"] = t.params;
  j["layers"] = t.layers;
  j["arithmetic_intensity"] = t.cost.bytes() ? double(t.cost.flops) / double(t.cost.bytes()) : 0.0;
  j["predicted_seconds"] = t.predicted_seconds;
  j["energy_joules"] = t.energy_joules;
  j["energy_power_time_joules"] = t.energy_power_time_joules;
  j["flops_per_second"] = t.predicted.flops_per_second;
  j["bytes_per_second"] = t.predicted.bytes_per_second;
  j["flops_per_second_per_watt"] = t.predicted.flops_per_second_per_watt;
  j["picojoules_per_flop"] = t.predicted.picojoules_per_flop;
  j["seconds_by_bound"] = json{{"compute", t.seconds_compute_bound},
                               {"memory", t.seconds_memory_bound},
                               {"overhead", t.seconds_overhead_bound}};
  if (t.measured)
    j["measured"] = rates_json(*t.measured);
  return j;
}

std::string render_json(const Graph &g, const Prediction &p, const PredictionContext &ctx,
                        const PredictionViewOptions &o) {
  json j;
  j["schema"] = "perfmodel.prediction/1";
  j["model"] = json{{"name", p.model},
                    {"batch", p.batch},
                    {"dtype", std::string(to_string(p.dtype))},
                    {"pass", std::string(to_string(p.pass))}};
  j["hardware"] = json{{"name", p.hardware}};
  j["calibrated"] = p.calibrated;
  j["power_watts"] = p.power_watts;
  j["execution"] = execution_json(ctx.execution);
  j["memory"] = memory_json(ctx.memory);
  const Rollup r = rollup(p);
  j["op_types"] = json_rows(op_types_grid(r));
  j["bounds"] = json_rows(bounds_grid(r));
  j["layers"] = json_rows(make_grid(layer_columns(), make_rows(g, p)));
  j["totals"] = totals_json(p.totals);
  j["pass"] =
      json{{"excess_seconds", p.pass_excess_seconds}, {"predicted_seconds", p.pass_seconds()}};
  j["gemm_totals"] = totals_json(p.gemm_totals);
  j["profile"] = json_rows(make_grid(profile_columns(), make_profile(p, o.top)));
  return perfmodel::report::json_text(j);
}

// CSV: one table per section, a blank line apart, each row starting with the table's name
// (run, peaks, op_types, bounds, layers, profile); run and peaks always (the header).
std::string render_csv(const Graph &g, const Prediction &p, const PredictionContext &ctx,
                       const PredictionViewOptions &o) {
  std::string s = csv(run_grid(p, ctx)) + "\n" + csv(peaks_grid(ctx.execution));
  if (o.rollup) {
    const Rollup r = rollup(p);
    s += "\n" + csv(op_types_grid(r)) + "\n" + csv(bounds_grid(r));
  }
  if (o.per_layer)
    s += "\n" + csv(make_grid(layer_columns(), make_rows(g, p)));
  if (o.profile)
    s += "\n" + csv(make_grid(profile_columns(), make_profile(p, o.top)));
  return s;
}

std::string render_md(const Graph &g, const Prediction &p, const PredictionContext &ctx,
                      const PredictionViewOptions &o) {
  std::string s = "# perfmodel predict: " + md_cell(title(p)) + "\n\n";
  for (const std::string &line : header_lines(ctx, 0))
    s += "- " + md_cell(line) + "\n";
  s += "\n";
  const Style st = text_style(o);
  if (o.rollup) {
    const Rollup r = rollup(p);
    s += "**Time by op type**\n\n" + markdown(op_types_grid(r, st)) + "\n";
    s += "**Time by bound**\n\n" + markdown(bounds_grid(r, st)) + "\n";
  }
  if (o.per_layer)
    s += "**Layers**\n\n" + markdown(make_grid(layer_columns(), make_rows(g, p), st)) + "\n";
  const Totals &a = p.totals;
  s += fmt::format("**Totals** ({} layers): {}, {}, {} params, predicted {} ({}), energy {} ({})",
                   a.layers, si(double(a.cost.flops), "F"), si(double(a.cost.bytes()), "B"),
                   si(double(a.params), ""), si(a.predicted_seconds, "s"),
                   si(a.predicted.flops_per_second, "F/s"), si(a.energy_joules, "J"),
                   si(a.predicted.flops_per_second_per_watt, "F/s/W"));
  if (p.pass_excess_seconds > 0)
    s += fmt::format("; whole pass {} (+{} pass excess)", si(p.pass_seconds(), "s"),
                     si(p.pass_excess_seconds, "s"));
  s += "\n";
  if (o.profile)
    s += "\n" + markdown(make_grid(profile_columns(), make_profile(p, o.top), st));
  return s;
}

} // namespace

std::string gemm_str(const std::optional<GemmShape> &gemm) {
  if (!gemm)
    return "";
  std::string s =
      std::to_string(gemm->m) + "x" + std::to_string(gemm->n) + "x" + std::to_string(gemm->k);
  if (gemm->groups > 1)
    s += " x" + std::to_string(gemm->groups);
  return s;
}

std::string render_prediction(const Graph &g, const Prediction &p, const PredictionContext &ctx,
                              Format f, const PredictionViewOptions &o) {
  switch (f) {
  case Format::table:
    return render_table(g, p, ctx, o);
  case Format::csv:
    return render_csv(g, p, ctx, o);
  case Format::json:
    return render_json(g, p, ctx, o);
  case Format::md:
    return render_md(g, p, ctx, o);
  }
  return "";
}

} // namespace perfmodel::report
