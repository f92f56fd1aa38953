// Renders predictions: one set of rows computed once, printed four ways.
#include "report/prediction_view.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

#include "report/text_table.hpp"

namespace perfmodel::report {

namespace {

using json = nlohmann::ordered_json;

struct Row {
  std::string name, op, input, filter, output, mnk, bound, unit;
  const LayerPrediction* lp;
};

std::vector<Row> make_rows(const Graph& g, const Prediction& p) {
  std::vector<Row> rows;
  for (const auto& lp : p.layers) {
    const Layer& l = *lp.layer;
    Row r;
    r.lp = &lp;
    r.name = l.name;
    r.op = l.op_name;
    r.input = l.inputs.empty() ? "" : shape_str(g.tensor(l.inputs[0]).shape);
    r.filter = lp.cost.gemm_like && !l.params.empty() ? shape_str(l.params[0].shape) : "";
    r.output = l.outputs.empty() ? "" : shape_str(g.tensor(l.outputs[0]).shape);
    r.mnk = gemm_str(lp.cost.gemm);
    r.bound = std::string(to_string(lp.timing.bound));
    r.unit = lp.timing.unit.unit.empty()
                 ? ""
                 : lp.timing.unit.unit + "/" + std::string(to_string(lp.timing.unit.dtype));
    rows.push_back(std::move(r));
  }
  return rows;
}

struct ProfileEntry {
  std::string name;
  double seconds, fraction, cumulative;
};

std::vector<ProfileEntry> make_profile(const Prediction& p, int top) {
  std::vector<const LayerPrediction*> order;
  for (const auto& lp : p.layers)
    if (lp.timing.seconds > 0) order.push_back(&lp);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) {
    return a->timing.seconds > b->timing.seconds;
  });
  if (top > 0 && static_cast<int>(order.size()) > top) order.resize(static_cast<size_t>(top));
  std::vector<ProfileEntry> out;
  const double total = p.totals.predicted_seconds;
  double cum = 0;
  for (auto* lp : order) {
    cum += lp->timing.seconds;
    out.push_back({lp->layer->name, lp->timing.seconds, total > 0 ? lp->timing.seconds / total : 0,
                   total > 0 ? cum / total : 0});
  }
  return out;
}

std::string title(const Prediction& p) {
  std::ostringstream s;
  s << p.model << " on " << p.hardware << " (batch " << p.batch << ", "
    << to_string(p.dtype) << ", " << to_string(p.pass) << ", "
    << (p.calibrated ? "calibrated" : "roofline") << ")";
  return s.str();
}

// boda's FWD TOTALS block: F and F/s, B and B/s with AI, J and F/s/W.
void totals_block(std::ostringstream& s, const char* heading, const Totals& t, const Rates& r,
                  const char* source) {
  const double flops = static_cast<double>(t.cost.flops), bytes = static_cast<double>(t.cost.bytes());
  s << "--- " << heading << " (" << t.layers << " layers; rates over " << source << ") ---\n";
  s << si(flops, "F") << " " << si(r.flops_per_second, "F/s") << "\n";
  s << si(bytes, "B") << " " << si(r.bytes_per_second, "B/s")
    << " AI=" << si(bytes > 0 ? flops / bytes : 0, "F/B") << "\n";
  s << si(r.energy_joules, "J") << " " << si(r.flops_per_second_per_watt, "F/s/W") << "\n";
}

std::string render_table(const Graph& g, const Prediction& p, const PredictionViewOptions& o) {
  std::ostringstream s;
  s << "perfmodel predict: " << title(p) << "\n";
  const auto rows = make_rows(g, p);
  if (o.per_layer) {
    TextTable t({"layer", "op", "input", "filter", "output", "FLOPs", "bytes", "AI", "MxNxK",
                 "time", "rate", "bound", "energy"});
    for (const auto& r : rows) {
      const auto& c = r.lp->cost;
      const double secs = r.lp->timing.seconds;
      t.add({r.name, r.op, r.input, r.filter, r.output, si(double(c.total.flops), "F"),
             si(double(c.total.bytes()), "B"), si(c.arithmetic_intensity(), "F/B"), r.mnk,
             si(secs, "s"), secs > 0 ? si(double(c.total.flops) / secs, "F/s") : "-", r.bound,
             si(r.lp->energy_joules, "J")});
    }
    s << "\n" << t.str();
  }
  const Totals& a = p.totals;
  s << "\n--- TOTALS (" << a.layers << " layers) ---\n";
  s << "FLOPs " << si(double(a.cost.flops), "F") << "  MACs " << si(double(a.cost.macs), "MAC")
    << "  bytes " << si(double(a.cost.bytes()), "B") << " (input "
    << si(double(a.cost.bytes_input), "B") << ", weights " << si(double(a.cost.bytes_weights), "B")
    << ", bias " << si(double(a.cost.bytes_bias), "B") << ", output "
    << si(double(a.cost.bytes_output), "B") << ")  params " << si(double(a.params), "") << "\n";
  s << "predicted " << si(a.predicted_seconds, "s") << "  " << si(a.predicted.flops_per_second, "F/s")
    << "  " << si(a.predicted.bytes_per_second, "B/s") << "  bound: compute "
    << si(a.seconds_compute_bound, "s") << ", memory " << si(a.seconds_memory_bound, "s")
    << ", overhead " << si(a.seconds_overhead_bound, "s") << "\n";
  if (p.pass_excess_seconds > 0)
    s << "whole pass " << si(p.pass_seconds(), "s") << " (the layers' sum + "
      << si(p.pass_excess_seconds, "s") << " pass excess of the calibration)\n";
  s << "energy " << si(a.energy_joules, "J") << "  " << si(a.predicted.picojoules_per_flop * 1e-12, "J/F")
    << "  " << si(a.predicted.flops_per_second_per_watt, "F/s/W") << "  (component model); "
    << si(a.energy_power_time_joules, "J") << " at " << si(p.power_watts, "W") << " x time\n";
  if (p.gemm_totals.layers > 0) {
    s << "\n";
    if (p.gemm_totals.measured) {
      s << "-- INPUT: RUNTIME=" << p.gemm_totals.measured->seconds << "s --\n";
      s << "-- INPUT: POWER=" << p.power_watts << "W --\n";
      totals_block(s, "FWD TOTALS, conv/matrix", p.gemm_totals, *p.gemm_totals.measured,
                   "--runtime, energy = power x runtime");
    } else {
      totals_block(s, "FWD TOTALS, conv/matrix", p.gemm_totals, p.gemm_totals.predicted,
                   "predicted time, component energy");
    }
  }
  if (o.profile) {
    TextTable t({"time", "time%", "cum_time", "cum_time%", "layer"});
    double cum = 0;
    for (const auto& e : make_profile(p, o.top)) {
      cum += e.seconds;
      char pct[32], cpct[32];
      std::snprintf(pct, sizeof pct, "%.1f%%", 100 * e.fraction);
      std::snprintf(cpct, sizeof cpct, "%.1f%%", 100 * e.cumulative);
      t.add({si(e.seconds, "s"), pct, si(cum, "s"), cpct, e.name});
    }
    s << "\nPROFILE:\n" << t.str();
  }
  return s.str();
}

json cost_json(const PassCost& c) {
  return json{{"flops", c.flops},
              {"macs", c.macs},
              {"bytes", c.bytes()},
              {"bytes_input", c.bytes_input},
              {"bytes_weights", c.bytes_weights},
              {"bytes_bias", c.bytes_bias},
              {"bytes_output", c.bytes_output}};
}

json rates_json(const Rates& r) {
  return json{{"seconds", r.seconds},
              {"flops_per_second", r.flops_per_second},
              {"bytes_per_second", r.bytes_per_second},
              {"energy_joules", r.energy_joules},
              {"watts", r.watts},
              {"flops_per_second_per_watt", r.flops_per_second_per_watt},
              {"picojoules_per_flop", r.picojoules_per_flop}};
}

json totals_json(const Totals& t) {
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
  if (t.measured) j["measured"] = rates_json(*t.measured);
  return j;
}

std::string render_json(const Graph& g, const Prediction& p, const PredictionViewOptions& o) {
  json j;
  j["schema"] = "perfmodel.prediction/1";
  j["model"] = json{{"name", p.model}, {"batch", p.batch}, {"dtype", std::string(to_string(p.dtype))},
                    {"pass", std::string(to_string(p.pass))}};
  j["hardware"] = json{{"name", p.hardware}};
  j["calibrated"] = p.calibrated;
  j["power_watts"] = p.power_watts;
  json layers = json::array();
  for (const auto& r : make_rows(g, p)) {
    const auto& lp = *r.lp;
    json l;
    l["name"] = r.name;
    l["op"] = r.op;
    l["kind"] = std::string(to_string(lp.layer->op));
    l["input_shape"] = lp.layer->inputs.empty() ? json::array() : json(g.tensor(lp.layer->inputs[0]).shape);
    l["output_shape"] = lp.layer->outputs.empty() ? json::array() : json(g.tensor(lp.layer->outputs[0]).shape);
    l.update(cost_json(lp.cost.total));
    l["params"] = lp.cost.params;
    l["gemm"] = lp.cost.gemm ? json{{"m", lp.cost.gemm->m}, {"n", lp.cost.gemm->n},
                                    {"k", lp.cost.gemm->k}, {"groups", lp.cost.gemm->groups}}
                             : json(nullptr);
    l["arithmetic_intensity"] = lp.cost.arithmetic_intensity();
    l["predicted_seconds"] = lp.timing.seconds;
    l["compute_seconds"] = lp.timing.compute_seconds;
    l["memory_seconds"] = lp.timing.memory_seconds;
    l["overhead_seconds"] = lp.timing.overhead_seconds;
    l["bound"] = r.bound;
    l["unit"] = r.unit;
    l["attainable_flops_per_second"] = lp.timing.attainable_flops_per_second;
    l["energy_joules"] = lp.energy_joules;
    l["energy_power_time_joules"] = lp.energy_power_time_joules;
    if (p.pass == Pass::train)
      l["passes"] = json{{"fwd", cost_json(lp.cost.fwd)},
                         {"bwd_data", cost_json(lp.cost.bwd_data)},
                         {"bwd_weight", cost_json(lp.cost.bwd_weight)}};
    layers.push_back(std::move(l));
  }
  j["layers"] = std::move(layers);
  j["totals"] = totals_json(p.totals);
  j["pass"] = json{{"excess_seconds", p.pass_excess_seconds},
                   {"predicted_seconds", p.pass_seconds()}};
  j["gemm_totals"] = totals_json(p.gemm_totals);
  json prof = json::array();
  for (const auto& e : make_profile(p, o.top))
    prof.push_back(json{{"name", e.name}, {"seconds", e.seconds}, {"fraction", e.fraction},
                        {"cumulative_fraction", e.cumulative}});
  j["profile"] = std::move(prof);
  return j.dump(2) + "\n";
}

std::string render_csv(const Graph& g, const Prediction& p) {
  std::ostringstream s;
  s << "name,op,input_shape,filter_shape,output_shape,flops,macs,bytes,bytes_input,bytes_weights,"
       "bytes_bias,bytes_output,params,gemm_m,gemm_n,gemm_k,gemm_groups,"
       "arithmetic_intensity (F/B),predicted_time (s),compute_time (s),memory_time (s),"
       "overhead_time (s),bound,attainable (FLOP/s),energy (J),energy_power_time (J)\n";
  for (const auto& r : make_rows(g, p)) {
    const auto& lp = *r.lp;
    const auto& c = lp.cost.total;
    const auto& gm = lp.cost.gemm;
    s << csv_field(r.name) << "," << csv_field(r.op) << "," << r.input << "," << r.filter << ","
      << r.output << "," << c.flops << "," << c.macs << "," << c.bytes() << "," << c.bytes_input
      << "," << c.bytes_weights << "," << c.bytes_bias << "," << c.bytes_output << ","
      << lp.cost.params << ",";
    if (gm) s << gm->m << "," << gm->n << "," << gm->k << "," << gm->groups << ",";
    else s << ",,,,";
    s << raw(lp.cost.arithmetic_intensity()) << "," << raw(lp.timing.seconds) << ","
      << raw(lp.timing.compute_seconds) << "," << raw(lp.timing.memory_seconds) << ","
      << raw(lp.timing.overhead_seconds) << "," << r.bound << ","
      << raw(lp.timing.attainable_flops_per_second) << "," << raw(lp.energy_joules) << ","
      << raw(lp.energy_power_time_joules) << "\n";
  }
  return s.str();
}

std::string render_md(const Graph& g, const Prediction& p, const PredictionViewOptions& o) {
  std::ostringstream s;
  s << "# perfmodel predict: " << md_cell(title(p)) << "\n\n";
  if (o.per_layer) {
    s << "| layer | op | input | filter | output | FLOPs | bytes | AI | MxNxK | time | bound |\n";
    s << "|---|---|---|---|---|---:|---:|---:|---|---:|---|\n";
    for (const auto& r : make_rows(g, p)) {
      const auto& c = r.lp->cost;
      s << "| " << md_cell(r.name) << " | " << md_cell(r.op) << " | " << r.input << " | "
        << r.filter << " | " << r.output << " | " << si(double(c.total.flops), "F") << " | "
        << si(double(c.total.bytes()), "B") << " | " << si(c.arithmetic_intensity(), "F/B")
        << " | " << r.mnk << " | " << si(r.lp->timing.seconds, "s") << " | " << r.bound << " |\n";
    }
    s << "\n";
  }
  const Totals& a = p.totals;
  s << "**Totals** (" << a.layers << " layers): " << si(double(a.cost.flops), "F") << ", "
    << si(double(a.cost.bytes()), "B") << ", " << si(double(a.params), "") << " params, predicted "
    << si(a.predicted_seconds, "s") << " (" << si(a.predicted.flops_per_second, "F/s") << "), energy "
    << si(a.energy_joules, "J") << " (" << si(a.predicted.flops_per_second_per_watt, "F/s/W")
    << ")";
  if (p.pass_excess_seconds > 0)
    s << "; whole pass " << si(p.pass_seconds(), "s") << " (+" << si(p.pass_excess_seconds, "s")
      << " pass excess)";
  s << "\n";
  if (o.profile) {
    s << "\n| time | time% | cum% | layer |\n|---:|---:|---:|---|\n";
    for (const auto& e : make_profile(p, o.top)) {
      char pct[32], cpct[32];
      std::snprintf(pct, sizeof pct, "%.1f%%", 100 * e.fraction);
      std::snprintf(cpct, sizeof cpct, "%.1f%%", 100 * e.cumulative);
      s << "| " << si(e.seconds, "s") << " | " << pct << " | " << cpct << " | " << md_cell(e.name)
        << " |\n";
    }
  }
  return s.str();
}

}  // namespace

std::string gemm_str(const std::optional<GemmShape>& gemm) {
  if (!gemm) return "";
  std::string s = std::to_string(gemm->m) + "x" + std::to_string(gemm->n) + "x" +
                  std::to_string(gemm->k);
  if (gemm->groups > 1) s += " x" + std::to_string(gemm->groups);
  return s;
}

std::string render_prediction(const Graph& g, const Prediction& p, Format f,
                              const PredictionViewOptions& o) {
  switch (f) {
    case Format::table: return render_table(g, p, o);
    case Format::csv: return render_csv(g, p);
    case Format::json: return render_json(g, p, o);
    case Format::md: return render_md(g, p, o);
  }
  return "";
}

}  // namespace perfmodel::report
