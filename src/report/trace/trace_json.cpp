// JSON printer of the trace views: "schema": "perfmodel.trace/1", SI units (seconds, FLOPs, B).
#include <cmath>
#include <nlohmann/json.hpp>

#include "report/trace/trace_report.hpp"

namespace perfmodel::report {
namespace {

using nlohmann::ordered_json;

// Measured times to whole nanoseconds: traces record microseconds (newer ones nanoseconds), so
// this drops only the rounding noise of summing range lengths in seconds.
double ns(double seconds) { return std::round(seconds * 1e9) / 1e9; }

ordered_json step_json(const trace::StepTimes &s) {
  return ordered_json{{"step", s.step},
                      {"kernel", ns(s.kernel)},
                      {"memcpy", ns(s.memcpy)},
                      {"memset", ns(s.memset)},
                      {"communication", ns(s.communication)},
                      {"runtime", ns(s.runtime)},
                      {"dataloader", ns(s.dataloader)},
                      {"cpu_exec", ns(s.cpu_exec)},
                      {"other", ns(s.other)},
                      {"total", ns(s.total)}};
}

ordered_json overview_json(const trace::Overview &o) {
  ordered_json steps = ordered_json::array();
  for (const auto &s : o.steps)
    steps.push_back(step_json(s));
  ordered_json avg = step_json(o.average);
  avg.erase("step");
  return ordered_json{{"steps", steps},
                      {"average", avg},
                      {"gpu_utilization", o.gpu_utilization},
                      {"recommendations", o.recommendations},
                      {"dropped_tail_steps", o.dropped_tail_steps}};
}

ordered_json efficiency_json(const trace::EfficiencyView &v) {
  ordered_json rows = ordered_json::array();
  for (const auto &r : v.rows) {
    ordered_json j{{"name", r.name},
                   {"op", r.op},
                   {"shapes", r.shapes},
                   {"calls", r.calls},
                   {"flops", r.flops},
                   {"bytes", r.bytes},
                   {"device_seconds", ns(r.device_seconds)},
                   {"roofline_seconds", r.roofline_seconds},
                   {"fraction_of_roofline", r.fraction_of_roofline()},
                   {"time_lost_seconds", r.time_lost()},
                   {"achieved_flops_per_second", r.achieved_flops_per_second()},
                   {"achieved_bytes_per_second", r.achieved_bytes_per_second()},
                   {"bound", std::string(to_string(r.bound))}};
    if (r.calibrated_seconds >= 0)
      j["calibrated_seconds"] = r.calibrated_seconds;
    rows.push_back(std::move(j));
  }
  return rows;
}

} // namespace

std::string render_trace_json(const TraceReport &r) {
  ordered_json j;
  j["schema"] = "perfmodel.trace/1";
  j["file"] = r.file;
  if (r.overview)
    j["overview"] = overview_json(*r.overview);
  if (r.operators) {
    ordered_json ops = ordered_json::array();
    for (const auto &o : *r.operators)
      ops.push_back({{"name", o.name},
                     {"calls", o.calls},
                     {"device_self", ns(o.device_self)},
                     {"device_total", ns(o.device_total)},
                     {"host_self", ns(o.host_self)},
                     {"host_total", ns(o.host_total)}});
    j["operators"] = ops;
  }
  if (r.kernels) {
    ordered_json ks = ordered_json::array();
    for (const auto &k : *r.kernels)
      ks.push_back({{"name", k.name},
                    {"calls", k.calls},
                    {"total", ns(k.total)},
                    {"mean", ns(k.mean)},
                    {"max", ns(k.max)},
                    {"min", ns(k.min)}});
    j["kernels"] = ks;
  }
  if (r.efficiency) {
    const auto &v = *r.efficiency;
    j["hardware"] = v.hardware;
    j["efficiency"] = efficiency_json(v);
    ordered_json sum = ordered_json::array();
    for (const auto &s : v.summary)
      sum.push_back({{"op", s.op},
                     {"calls", s.calls},
                     {"flops", s.flops},
                     {"bytes", s.bytes},
                     {"device_seconds", s.device_seconds},
                     {"roofline_seconds", s.roofline_seconds},
                     {"fraction_of_roofline", s.fraction_of_roofline()},
                     {"time_lost_seconds", s.time_lost()}});
    j["efficiency_summary"] = sum;
    ordered_json un = ordered_json::array();
    for (const auto &u : v.unattributed)
      un.push_back({{"name", u.name},
                    {"op", u.op},
                    {"reason", u.reason},
                    {"calls", u.calls},
                    {"device_seconds", ns(u.seconds)}});
    j["unattributed"] = un;
    j["device_seconds"] = ns(v.device_seconds);
    j["modelled_device_seconds"] = ns(v.modelled_seconds);
  }
  return j.dump(2) + "\n";
}

} // namespace perfmodel::report
