// Whole-model prediction: runs cost, roofline (or the calibrated efficiency model) and energy
// over every layer, then sums totals.
#include "perfmodel/predict.hpp"

#include <algorithm>
#include <stdexcept>

#include "perfmodel/calibration.hpp"
#include "perfmodel/memory_footprint.hpp"

namespace perfmodel {

void set_dtype(Graph &g, DType dtype) {
  auto is_float = [](DType t) {
    return t != DType::int32 && t != DType::int64 && t != DType::boolean;
  };
  g.dtype = dtype;
  for (auto &in : g.inputs)
    if (is_float(in.dtype))
      in.dtype = dtype;
  for (auto &[name, t] : g.tensors)
    if (is_float(t.dtype))
      t.dtype = dtype;
  for (auto &l : g.layers) {
    if (!is_float(l.dtype))
      continue;
    l.dtype = dtype;
    for (auto &p : l.params)
      if (is_float(p.dtype))
        p.dtype = dtype;
  }
}

namespace {

// The sum over the predictions `at(0)`, `at(1)`, ... `at(n - 1)`, in that order.
template <class At>
Totals sum_in_order(size_t n, At at, bool gemm_only, const PredictOptions &opts,
                    double power_watts) {
  Totals t;
  for (size_t i = 0; i < n; ++i) {
    const LayerPrediction &lp = at(i);
    if (gemm_only && !lp.cost.gemm_like)
      continue;
    t.cost += lp.cost.total;
    t.params += lp.cost.params;
    t.layers++;
    t.predicted_seconds += lp.timing.seconds;
    t.energy_joules += lp.energy_joules;
    t.energy_power_time_joules += lp.energy_power_time_joules;
    switch (lp.timing.bound) {
    case Bound::compute:
      t.seconds_compute_bound += lp.timing.seconds;
      break;
    case Bound::memory:
      t.seconds_memory_bound += lp.timing.seconds;
      break;
    case Bound::overhead:
      t.seconds_overhead_bound += lp.timing.seconds;
      break;
    case Bound::none:
      break;
    }
  }
  const double flops = static_cast<double>(t.cost.flops);
  const double bytes = static_cast<double>(t.cost.bytes());
  t.predicted = make_rates(flops, bytes, t.predicted_seconds, t.energy_joules);
  if (opts.runtime_seconds)
    t.measured = make_rates(flops, bytes, *opts.runtime_seconds,
                            power_time_energy_joules(power_watts, *opts.runtime_seconds));
  return t;
}

} // namespace

Totals sum_totals(const std::vector<LayerPrediction> &layers, bool gemm_only,
                  const PredictOptions &opts, double power_watts) {
  return sum_in_order(
      layers.size(), [&](size_t i) -> const LayerPrediction & { return layers[i]; }, gemm_only,
      opts, power_watts);
}

Totals sum_totals(const std::vector<LayerPrediction> &layers, const std::vector<uint32_t> &order,
                  bool gemm_only, const PredictOptions &opts, double power_watts) {
  return sum_in_order(
      order.size(), [&](size_t i) -> const LayerPrediction & { return layers.at(order[i]); },
      gemm_only, opts, power_watts);
}

LayerPrediction roofline_layer(const HwSpec &hw, const Layer &l, const LayerCost &cost,
                               double power_watts) {
  LayerPrediction lp;
  lp.layer = &l;
  lp.cost = cost;
  lp.timing = roofline_time(hw, lp.cost, l.dtype);
  lp.energy_joules = component_energy_joules(hw, lp.cost, lp.timing);
  lp.energy_power_time_joules = power_time_energy_joules(power_watts, lp.timing.seconds);
  return lp;
}

Prediction predict(const Graph &g, const HwSpec &hw, const PredictOptions &opts) {
  return predict(g, hw, opts, graph_cost(g, opts.pass));
}

Prediction predict(const Graph &g, const HwSpec &hw, const PredictOptions &opts,
                   const std::vector<LayerCost> &costs) {
  if (costs.size() != g.layers.size())
    throw std::invalid_argument("predict: one cost per layer expected");
  Prediction p;
  p.model = g.name;
  p.hardware = hw.name;
  p.batch = g.batch();
  p.dtype = g.dtype;
  p.pass = opts.pass;
  p.power_watts = opts.power_watts.value_or(hw.tdp_watts);
  p.calibrated = opts.calibration != nullptr;
  p.fusion = opts.fusion;
  p.layers.reserve(g.layers.size());
  // A calibrated layer's data may have been pushed out of a cache by the layers before it,
  // written by another core, or its weights still cached from the pass before: what the
  // calibration's execution target schedules (forward calls only: layer_features gives the
  // backward ones none).
  const GraphSchedule schedule =
      opts.calibration ? opts.calibration->execution_target().schedule(g, costs, *opts.calibration)
                       : GraphSchedule{};
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer &l = g.layers[i];
    // The pure roofline is the uncalibrated baseline; a calibration swaps in its fitted model.
    if (!opts.calibration) {
      p.layers.push_back(roofline_layer(hw, l, costs[i], p.power_watts));
      continue;
    }
    LayerPrediction lp;
    lp.layer = &l;
    lp.cost = costs[i];
    lp.timing = calibrated_layer_time(*opts.calibration, hw, g, l, lp.cost, opts.pass,
                                      schedule.layers[i], schedule.weights_cached);
    lp.energy_joules = component_energy_joules(hw, lp.cost, lp.timing);
    lp.energy_power_time_joules = power_time_energy_joules(p.power_watts, lp.timing.seconds);
    p.layers.push_back(std::move(lp));
  }
  p.totals = sum_totals(p.layers, false, opts, p.power_watts);
  p.gemm_totals = sum_totals(p.layers, true, opts, p.power_watts);
  if (opts.calibration && opts.calibration->pass_excess)
    p.pass_excess_seconds =
        opts.calibration->pass_excess->seconds(kernel_layer_count(g), p.totals.predicted_seconds);
  return p;
}

int kernel_layer_count(const Graph &g) {
  return int(std::count_if(g.layers.begin(), g.layers.end(),
                           [](const Layer &l) { return !is_view_op(l.op); }));
}

} // namespace perfmodel
