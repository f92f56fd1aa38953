// `predict` and `sweep` as library functions (perfmodel/app/commands.hpp).
#include <algorithm>

#include "perfmodel/app/commands.hpp"
#include "perfmodel/assumed_execution.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/io/calibration_for.hpp"
#include "perfmodel/memory_footprint.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/report/sweep_view.hpp"

namespace perfmodel::app {

Rendered predict(Graph model, const HwSpec &hw, const PredictRequest &r, report::Format f,
                 const report::PredictionViewOptions &view) {
  const Graph g = fuse(std::move(model), r.fusion, r.pass);
  PredictOptions po;
  po.pass = r.pass;
  po.fusion = r.fusion;
  po.power_watts = r.power_watts;
  po.runtime_seconds = r.runtime_seconds;
  std::optional<Calibration> cal;
  if (!r.calibration.empty())
    cal = io::load_calibration_for(r.calibration, hw, r.calibration_other_hardware);
  po.calibration = cal ? &*cal : nullptr;
  const Prediction p = predict(g, hw, po);
  report::PredictionContext ctx;
  ctx.execution = assumed_execution(g, hw, p, po.calibration, r.calibration);
  ctx.memory = memory_fit(memory_footprint(g, po.pass), hw); // as `sweep` reports it
  Rendered out;
  if (cal)
    out.extrapolated = extrapolated_calls(*cal, g, graph_cost(g, po.pass), po.pass);
  out.text = report::render_prediction(g, p, ctx, f, view);
  return out;
}

void check_sweep_sort(const std::string &key) {
  const std::vector<std::string> keys = report::sweep_sort_keys();
  if (key.empty() || std::find(keys.begin(), keys.end(), key) != keys.end())
    return;
  std::string list;
  for (const std::string &k : keys)
    list += (list.empty() ? "" : ", ") + k;
  throw InputError("--sort '" + key + "' is not a sweep sort key (" + list + ")");
}

SweepRun sweep(const Graph &model, SweepRequest r) {
  check_sweep_sort(r.sort);
  std::optional<Calibration> cal;
  if (!r.calibration.empty()) {
    if (r.spec.hardware.size() != 1)
      throw InputError("--calibration fits one device: give exactly one --hw with it");
    cal = io::load_calibration_for(r.calibration, r.spec.hardware[0],
                                   r.calibration_other_hardware);
    r.spec.calibration = &*cal;
  }
  SweepRun run;
  run.result = run_sweep(model, r.spec);
  run.shown = run.result;
  if (!r.sort.empty())
    report::sort_sweep(run.shown, r.sort);
  return run;
}

} // namespace perfmodel::app
