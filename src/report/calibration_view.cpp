// Fit summary of a calibration, rendered as a table, CSV, Markdown or JSON.
#include "report/calibration_view.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "report/text_table.hpp"

namespace perfmodel::report {

namespace {

std::string pct2(double fraction) { return pct(fraction, 2); }

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
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
                                {"overhead_seconds", p.overhead_seconds},
                                {"cross_core_bytes_per_second", cal.term_rate(p, "cross_core_bytes_per_second")},
                                {"epilogue_bytes_per_second", cal.term_rate(p, "epilogue_bytes_per_second")},
                                {"weight_bytes_per_second", cal.term_rate(p, "weight_bytes_per_second")},
                                {"strided_lowering_bytes_per_second",
                                 cal.term_rate(p, "strided_lowering_bytes_per_second")}};
      fit_json(c.stats, cj["fit"]);
      j["classes"].push_back(cj);
    }
    return j.dump(2) + "\n";
  }
  std::vector<std::string> header = {"class", "dtype", "samples", "peak", "m/n/k half", "tile"};
  for (const auto &l : cal.memory_levels)
    header.push_back("bw " + l.name);
  for (const char *h : {"lowering", "overlap", "overhead", "cross-core", "epilogue", "weights",
                        "gather", "MAPE", "max error"})
    header.push_back(h);
  std::vector<std::vector<std::string>> rows;
  for (const auto &c : cal.classes) {
    const EfficiencyParams &p = c.params;
    const bool gemm = is_gemm_class(c.op_class);
    std::vector<std::string> r = {std::string(to_string(c.op_class)),
                                  std::string(to_string(c.dtype)),
                                  std::to_string(c.stats.samples),
                                  si(p.peak_flops_per_second, "F/s"),
                                  gemm ? num(p.m_half) + "/" + num(p.n_half) + "/" + num(p.k_half)
                                       : "-",
                                  gemm ? num(p.tile_m) + "x" + num(p.tile_n) : "-"};
    for (double bw : p.bytes_per_second)
      r.push_back(si(bw, "B/s"));
    r.push_back(num(p.lowering_factor));
    r.push_back(num(p.overlap));
    r.push_back(si(p.overhead_seconds, "s"));
    for (const char *key : {"cross_core_bytes_per_second", "epilogue_bytes_per_second",
                            "weight_bytes_per_second", "strided_lowering_bytes_per_second"})
      r.push_back(cal.term_rate(p, key) > 0 ? si(cal.term_rate(p, key), "B/s") : "-");
    r.push_back(pct2(c.stats.mape));
    r.push_back(pct2(c.stats.max_error));
    rows.push_back(r);
  }
  if (f == Format::csv) {
    std::string out;
    for (size_t i = 0; i < header.size(); ++i)
      out += (i ? "," : "") + csv_field(header[i]);
    out += "\n";
    for (const auto &r : rows) {
      for (size_t i = 0; i < r.size(); ++i)
        out += (i ? "," : "") + csv_field(r[i]);
      out += "\n";
    }
    return out;
  }
  std::string title = "calibration for " + (cal.hardware.empty() ? "?" : cal.hardware) + " (" +
                      cal.device.name + ", " + std::to_string(cal.cores) +
                      " cores): " + cal.source + ", " + std::to_string(cal.stats.samples) +
                      " samples, MAPE " + pct2(cal.stats.mape);
  if (cal.pass_excess)
    title += "; pass excess " + si(cal.pass_excess->per_layer_seconds, "s") + " per layer + " +
             pct2(cal.pass_excess->fraction) + " of the layers' time";
  if (f == Format::md) {
    std::string out = "**" + md_cell(title) + "**\n\n" + md_table(header, rows);
    return out;
  }
  TextTable t(header);
  for (auto &r : rows)
    t.add(r);
  return title + "\n" + t.str();
}

} // namespace perfmodel::report
