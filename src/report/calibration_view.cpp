// Fit summary of a calibration, rendered as a table, CSV, Markdown or JSON.
#include "perfmodel/report/calibration_view.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfmodel/report/json_text.hpp"
#include "perfmodel/targets/registry.hpp"
#include "report/columns.hpp"

namespace perfmodel::report {

namespace {

using K = ClassCalibration;

// The summary columns: one bandwidth per memory level of the calibration.
// The terms of every execution target, each key once, in the registry's order: the views show
// the same columns whatever the calibration's target (a term it lacks is "-", or 0 in JSON).
const std::vector<TargetTerm> &every_target_term() {
  static const std::vector<TargetTerm> all = [] {
    std::vector<TargetTerm> v;
    for (const ExecutionTarget *t : targets::all())
      for (const TargetTerm &term : t->terms())
        if (std::none_of(v.begin(), v.end(),
                         [&](const TargetTerm &x) { return x.key == term.key; }))
          v.push_back(term);
    return v;
  }();
  return all;
}

std::vector<Column<K>> summary_columns(const Calibration &cal) {
  using C = Column<K>;
  auto gemm_only = [](auto text) {
    return [text](const K &c) { return is_gemm_class(c.op_class) ? text(c.params) : "-"; };
  };
  // A rate of a target's term (0, shown "-", where the calibration's target has no such term).
  auto rate = [&cal](const TargetTerm &t) {
    const std::string key = t.key;
    return C(key, t.header, hint::si(t.unit).unset_when_zero(),
             [&cal, key](const K &c) { return cal.term_rate(c.params, key); })
        .missing_as("-");
  };
  auto g4 = [](double v) { return fmt::format("{:.4g}", v); };
  std::vector<C> cols = {
      {"op_class", "class", hint::text(), [](const K &c) { return to_string(c.op_class); }},
      {"dtype", "dtype", hint::text(), [](const K &c) { return to_string(c.dtype); }},
      {"samples", "samples", hint::count(), [](const K &c) { return c.stats.samples; }},
      {"peak_flops_per_second", "peak", hint::si("F/s"),
       [](const K &c) { return c.params.peak_flops_per_second; }},
      {"mnk_half", "m/n/k half", hint::text(), gemm_only([g4](const EfficiencyParams &p) {
         return g4(p.m_half) + "/" + g4(p.n_half) + "/" + g4(p.k_half);
       })},
      {"tile", "tile", hint::text(),
       gemm_only([g4](const EfficiencyParams &p) { return g4(p.tile_m) + "x" + g4(p.tile_n); })},
  };
  for (size_t i = 0; i < cal.memory_levels.size(); ++i)
    cols.push_back({"bytes_per_second_" + cal.memory_levels[i].name,
                    "bw " + cal.memory_levels[i].name, hint::si("B/s"), [i](const K &c) -> Value {
                      const auto &bw = c.params.bytes_per_second;
                      return i < bw.size() ? Value(bw[i]) : Value();
                    }});
  const std::vector<C> rest = {
      {"lowering_factor", "lowering", hint::number(4),
       [](const K &c) { return c.params.lowering_factor; }},
      {"overlap", "overlap", hint::number(4), [](const K &c) { return c.params.overlap; }},
      {"overhead_seconds", "overhead", hint::si("s"),
       [](const K &c) { return c.params.overhead_seconds; }},
  };
  cols.insert(cols.end(), rest.begin(), rest.end());
  for (const TargetTerm &t : every_target_term())
    cols.push_back(rate(t));
  cols.push_back({"mape", "MAPE", hint::percent(2), [](const K &c) { return c.stats.mape; }});
  cols.push_back(
      {"max_error", "max error", hint::percent(2), [](const K &c) { return c.stats.max_error; }});
  return cols;
}

void fit_json(const FitStats &s, nlohmann::ordered_json &j) {
  j = {{"samples", s.samples},
       {"rms_log_error", s.rms_log_error},
       {"mape", s.mape},
       {"max_error", s.max_error}};
}

} // namespace

std::string render_calibration(const Calibration &cal, Format f) {
  if (f == Format::json) {
    nlohmann::ordered_json j;
    j["schema"] = "perfmodel.calibration/1";
    j["device"] = {{"kind", cal.device.kind},
                   {"name", cal.device.name},
                   {"cores", cal.device.cores},
                   {"isa_hash", cal.device.isa_hash}};
    if (const auto &id = cal.device.cpu_id)
      j["device"]["cpu_id"] = {
          {"vendor", id->vendor}, {"family", id->family}, {"model", id->model}};
    j["date"] = cal.date;
    j["perfmodel_version"] = cal.perfmodel_version;
    j["hardware"] = cal.hardware;
    j["source"] = cal.source;
    j["cores"] = cal.cores;
    j["target"] = std::string(cal.execution_target().name());
    j["memory_levels"] = nlohmann::ordered_json::array();
    for (const auto &l : cal.memory_levels)
      j["memory_levels"].push_back({{"name", l.name}, {"capacity_bytes", l.capacity_bytes}});
    if (cal.pass_excess)
      j["pass_excess"] = {{"per_layer_seconds", cal.pass_excess->per_layer_seconds},
                          {"fraction", cal.pass_excess->fraction},
                          {"networks", cal.pass_excess->networks}};
    else
      j["pass_excess"] = nullptr;
    fit_json(cal.stats, j["fit"]);
    j["classes"] = nlohmann::ordered_json::array();
    for (const auto &c : cal.classes) {
      const EfficiencyParams &p = c.params;
      nlohmann::ordered_json cj{{"op_class", std::string(to_string(c.op_class))},
                                {"dtype", std::string(to_string(c.dtype))},
                                {"peak_flops_per_second", p.peak_flops_per_second},
                                {"m_half", p.m_half},
                                {"n_half", p.n_half},
                                {"k_half", p.k_half},
                                {"tile_m", p.tile_m},
                                {"tile_n", p.tile_n},
                                {"bytes_per_second", p.bytes_per_second},
                                {"lowering_factor", p.lowering_factor},
                                {"overlap", p.overlap},
                                {"overhead_seconds", p.overhead_seconds}};
      for (const TargetTerm &t : every_target_term())
        cj[t.key] = cal.term_rate(p, t.key);
      fit_json(c.stats, cj["fit"]);
      j["classes"].push_back(cj);
    }
    return perfmodel::report::json_text(j);
  }
  // CSV numbers in full; Markdown rules without alignment.
  const Grid g = make_grid(summary_columns(cal), cal.classes, Style{0, false, false});
  if (f == Format::csv)
    return csv(g);
  std::string title = "calibration for " + (cal.hardware.empty() ? "?" : cal.hardware) + " (" +
                      cal.device.name + ", " + std::to_string(cal.cores) +
                      " cores): " + cal.source + ", " + std::to_string(cal.stats.samples) +
                      " samples, MAPE " + pct(cal.stats.mape, 2);
  if (cal.pass_excess)
    title += "; pass excess " + si(cal.pass_excess->per_layer_seconds, "s") + " per layer + " +
             pct(cal.pass_excess->fraction, 2) + " of the layers' time";
  if (f == Format::md) {
    return "**" + md_cell(title) + "**\n\n" + markdown(g);
  }
  return title + "\n" + table(g);
}

} // namespace perfmodel::report
