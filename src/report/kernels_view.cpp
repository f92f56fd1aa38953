// Rendering of the kernels view: per-row prediction vs measurement and the MAPE.
#include "report/kernels_view.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "report/text_table.hpp"

namespace perfmodel::report {

namespace {

std::string signed_pct(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", 100 * fraction);
  return buf;
}

std::string pct2(double fraction) { return pct(fraction, 2); }

} // namespace

void finish_kernels_view(KernelsView &v) {
  double sum = 0;
  v.measured = 0;
  for (auto &r : v.rows) {
    r.error.reset();
    if (!r.measured_seconds || !(*r.measured_seconds > 0))
      continue;
    r.error = (r.predicted_seconds - *r.measured_seconds) / *r.measured_seconds;
    sum += std::abs(*r.error);
    ++v.measured;
  }
  v.mape.reset();
  if (v.measured)
    v.mape = sum / v.measured;
}

std::string render_kernels(const KernelsView &v, Format f) {
  if (f == Format::json) {
    nlohmann::ordered_json j;
    j["schema"] = "perfmodel.kernels/1";
    j["hardware"] = v.hardware;
    j["calibration"] = nullptr;
    if (!v.calibration.empty())
      j["calibration"] = v.calibration;
    j["rows"] = nlohmann::ordered_json::array();
    for (const auto &r : v.rows) {
      nlohmann::ordered_json row{{"op", r.op},
                                 {"dtype", r.dtype},
                                 {"pass", r.pass},
                                 {"shape", r.shape},
                                 {"flops", r.flops},
                                 {"bytes", r.bytes},
                                 {"predicted_seconds", r.predicted_seconds},
                                 {"bound", std::string(to_string(r.bound))}};
      if (r.measured_seconds)
        row["measured_seconds"] = *r.measured_seconds;
      if (r.error)
        row["error"] = *r.error;
      j["rows"].push_back(row);
    }
    nlohmann::ordered_json s{{"rows", v.rows.size()}, {"measured", v.measured}};
    if (v.mape)
      s["mape"] = *v.mape;
    j["summary"] = s;
    return j.dump(2) + "\n";
  }
  if (f == Format::csv) {
    std::string out =
        "op,dtype,pass,shape,flops,bytes (B),predicted (s),bound,measured (s),error\n";
    for (const auto &r : v.rows) {
      out += csv_field(r.op) + "," + r.dtype + "," + r.pass + "," + csv_field(r.shape) + "," +
             raw(r.flops) + "," + raw(r.bytes) + "," + raw(r.predicted_seconds) + "," +
             std::string(to_string(r.bound)) + "," +
             (r.measured_seconds ? raw(*r.measured_seconds) : "") + "," +
             (r.error ? raw(*r.error) : "") + "\n";
    }
    return out;
  }
  const std::vector<std::string> header = {"#",     "op",       "dtype", "pass",
                                           "shape", "flops",    "bytes", "predicted",
                                           "bound", "measured", "error"};
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < v.rows.size(); ++i) {
    const auto &r = v.rows[i];
    rows.push_back({std::to_string(i + 1), r.op, r.dtype, r.pass, r.shape, si(r.flops, "F"),
                    si(r.bytes, "B"), si(r.predicted_seconds, "s"), std::string(to_string(r.bound)),
                    r.measured_seconds ? si(*r.measured_seconds, "s") : "-",
                    r.error ? signed_pct(*r.error) : "-"});
  }
  const std::string title = "kernels on " + v.hardware + " (" +
                            (v.calibration.empty() ? std::string("roofline, uncalibrated")
                                                   : "calibrated: " + v.calibration) +
                            ")";
  const std::string summary =
      v.mape ? "MAPE over " + std::to_string(v.measured) + " measured rows: " + pct2(*v.mape)
             : "no measured rows";
  if (f == Format::md) {
    std::string out = "**" + md_cell(title) + "**\n\n" + md_table(header, rows);
    return out + "\n" + summary + "\n";
  }
  TextTable t(header);
  for (auto &r : rows)
    t.add(r);
  return title + "\n" + t.str() + summary + "\n";
}

} // namespace perfmodel::report
