// JSON printer of the trace views: "schema": "perfmodel.trace/2", SI units (seconds, FLOPs, B).
#include <cmath>
#include <nlohmann/json.hpp>

#include "perfmodel/report/trace/trace_report.hpp"
#include "report/trace/trace_tables.hpp"
#include "perfmodel/report/json_text.hpp"

namespace perfmodel::report {
namespace {

using nlohmann::ordered_json;

// Measured times to whole nanoseconds, as the tables' JSON columns keep them.
double ns(double seconds) { return std::round(seconds * 1e9) / 1e9; }

ordered_json overview_json(const trace::Overview &o) {
  const Grid g = overview_table(o).grid;
  ordered_json steps = ordered_json::array();
  for (size_t i = 0; i < o.steps.size(); ++i)
    steps.push_back(json_row(g, i));
  ordered_json avg = json_row(g, o.steps.size());
  avg.erase("step");
  ordered_json recommendations = ordered_json::array();
  for (const auto &r : o.recommendations)
    recommendations.push_back(recommendation_text(r));
  return ordered_json{{"steps", steps},
                      {"average", avg},
                      {"gpu_utilization", o.gpu_utilization},
                      {"recommendations", recommendations},
                      {"dropped_tail_steps", o.dropped_tail_steps}};
}

} // namespace

std::string render_trace_json(const TraceReport &r) {
  ordered_json j;
  j["schema"] = "perfmodel.trace/2";
  j["file"] = r.file;
  if (r.overview)
    j["overview"] = overview_json(*r.overview);
  if (r.operators)
    j["operators"] = json_rows(operators_table(*r.operators).grid);
  if (r.kernels)
    j["kernels"] = json_rows(kernels_table(*r.kernels).grid);
  if (r.attainment) {
    const auto &v = *r.attainment;
    const auto tables = attainment_tables(v);
    j["hardware"] = v.hardware;
    j["attainment"] = json_rows(tables[0].grid);
    j["attainment_summary"] = json_rows(tables[1].grid);
    j["unattributed"] = json_rows(tables[2].grid);
    j["device_seconds"] = ns(v.device_seconds);
    j["modelled_device_seconds"] = ns(v.modelled_seconds);
  }
  if (r.cross_device) {
    const auto &v = *r.cross_device;
    const auto tables = cross_device_tables(v);
    ordered_json p{{"source", v.source},
                   {"target", v.target},
                   {"method", v.calibrated ? "calibrated" : "roofline"},
                   {"bandwidth_ratio", v.bandwidth_ratio},
                   {"source_device_seconds", ns(v.source_seconds)},
                   {"predicted_device_seconds", v.predicted_seconds}};
    if (v.steps > 0) {
      p["steps"] = v.steps;
      p["source_gpu_seconds_per_step"] = ns(v.source_step_seconds);
      p["predicted_gpu_seconds_per_step"] = v.predicted_step_seconds();
    }
    p["operators"] = json_rows(tables[0].grid);
    p["summary"] = json_rows(tables[1].grid);
    p["unmapped"] = json_rows(tables[2].grid);
    j["predict_on"] = p;
  }
  return perfmodel::report::json_text(j);
}

} // namespace perfmodel::report
