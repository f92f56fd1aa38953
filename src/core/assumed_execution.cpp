// The peaks, overheads and bandwidth a prediction timed its layers with (assumed_execution.hpp).
#include "perfmodel/assumed_execution.hpp"

#include <algorithm>

namespace perfmodel {

namespace {

// The entry that times `lp`: the calibration's class parameters where it has them (as
// calibrated_time picks them), else the roofline's unit.
PeakUsed peak_of(const Graph &g, const HwSpec &hw, const LayerPrediction &lp,
                 const Calibration *cal) {
  PeakUsed u;
  u.unit = lp.timing.unit.unit;
  u.dtype = lp.timing.unit.dtype;
  u.flops_per_second = lp.timing.unit.flops_per_second;
  u.overhead_seconds = hw.launch_overhead_seconds;
  if (!cal)
    return u;
  const KernelFeatures f = layer_features(g, *lp.layer, lp.cost, KernelPart::fwd);
  const ClassCalibration *cc = cal->find_or_fallback(f.op_class, f.dtype);
  if (!cc || cc->params.bytes_per_second.size() != cal->memory_levels.size())
    return u; // calibrated_time falls back to the roofline
  u.op_class = std::string(to_string(cc->op_class));
  u.flops_per_second = cc->params.peak_flops_per_second;
  u.overhead_seconds = cc->params.overhead_seconds;
  return u;
}

} // namespace

AssumedExecution assumed_execution(const Graph &g, const HwSpec &hw, const Prediction &p,
                                   const Calibration *cal, std::string calibration_name) {
  AssumedExecution a;
  a.batch = p.batch;
  a.dtype = p.dtype;
  a.pass = p.pass;
  a.fusion = std::string(to_string(p.fusion));
  a.calibration = cal ? std::move(calibration_name) : std::string();
  if (cal && cal->execution_target().reads_layout())
    a.layout = std::string(to_string(g.layout));
  a.dram_bytes_per_second = hw.memory.empty() ? 0.0 : hw.dram().bytes_per_second;
  a.launch_overhead_seconds = hw.launch_overhead_seconds;
  bool first = true;
  for (const LayerPrediction &lp : p.layers) {
    if (lp.cost.total.flops <= 0 && lp.cost.total.bytes() <= 0)
      continue; // views: no kernel
    const PeakUsed u = peak_of(g, hw, lp, cal);
    auto same = [&](const PeakUsed &o) {
      return o.op_class == u.op_class && o.unit == u.unit && o.dtype == u.dtype &&
             o.flops_per_second == u.flops_per_second && o.overhead_seconds == u.overhead_seconds;
    };
    auto it = std::find_if(a.peaks.begin(), a.peaks.end(), same);
    if (it == a.peaks.end())
      it = a.peaks.insert(a.peaks.end(), u);
    it->layers++;
    a.overhead_min_seconds =
        first ? u.overhead_seconds : std::min(a.overhead_min_seconds, u.overhead_seconds);
    a.overhead_max_seconds = std::max(a.overhead_max_seconds, u.overhead_seconds);
    first = false;
  }
  return a;
}

} // namespace perfmodel
