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

PredictRun run_predict(Graph model, const HwSpec &hw, const PredictRequest &r) {
  PredictRun run;
  run.graph = std::make_shared<const Graph>(fuse(std::move(model), r.fusion, r.pass));
  const Graph &g = *run.graph;
  PredictOptions po;
  po.pass = r.pass;
  po.fusion = r.fusion;
  po.power_watts = r.power_watts;
  po.runtime_seconds = r.runtime_seconds;
  if (!r.calibration.empty())
    run.calibration = std::make_shared<const Calibration>(
        io::load_calibration_for(r.calibration, hw, r.calibration_other_hardware));
  po.calibration = run.calibration.get();
  if (!r.layer_costs.empty() && r.fusion != Fusion::none)
    throw InputError("--fusion: a language model's pass is predicted unfused (none)");
  run.prediction = r.layer_costs.empty() ? perfmodel::predict(g, hw, po)
                                         : perfmodel::predict(g, hw, po, r.layer_costs);
  run.context.execution = assumed_execution(g, hw, run.prediction, po.calibration, r.calibration);
  run.context.memory = memory_fit(memory_footprint(g, po.pass), hw); // as `sweep` reports it
  if (run.calibration)
    run.extrapolated = extrapolated_calls(
        *run.calibration, g, r.layer_costs.empty() ? graph_cost(g, po.pass) : r.layer_costs,
        po.pass);
  return run;
}

Rendered predict(Graph model, const HwSpec &hw, const PredictRequest &r, report::Format f,
                 const report::PredictionViewOptions &view) {
  const PredictRun run = run_predict(std::move(model), hw, r);
  return {report::render_prediction(*run.graph, run.prediction, run.context, f, view),
          run.extrapolated};
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
    cal = io::load_calibration_for(r.calibration, r.spec.hardware[0], r.calibration_other_hardware);
    r.spec.calibration = &*cal;
  }
  SweepRun run;
  run.result = run_sweep(model, r.spec);
  if (!r.sort.empty() && r.keep_axes_order)
    run.sorted = run.result;
  if (!r.sort.empty())
    report::sort_sweep(run.sorted ? *run.sorted : run.result, r.sort);
  return run;
}

} // namespace perfmodel::app
