// Sums a prediction's layers per op type and per bound (perfmodel/rollup.hpp).
#include "perfmodel/rollup.hpp"

#include <algorithm>
#include <map>

namespace perfmodel {

Bound LayerGroup::dominant_bound() const {
  if (seconds <= 0)
    return Bound::none;
  if (seconds_compute_bound >= seconds_memory_bound &&
      seconds_compute_bound >= seconds_overhead_bound)
    return Bound::compute;
  return seconds_memory_bound >= seconds_overhead_bound ? Bound::memory : Bound::overhead;
}

namespace {

void add(LayerGroup &g, const LayerPrediction &lp) {
  g.layers++;
  g.seconds += lp.timing.seconds;
  g.cost += lp.cost.total;
  g.energy_joules += lp.energy_joules;
  switch (lp.timing.bound) {
  case Bound::compute:
    g.seconds_compute_bound += lp.timing.seconds;
    break;
  case Bound::memory:
    g.seconds_memory_bound += lp.timing.seconds;
    break;
  case Bound::overhead:
    g.seconds_overhead_bound += lp.timing.seconds;
    break;
  case Bound::none:
    break;
  }
}

} // namespace

Rollup rollup(const Prediction &p) {
  Rollup r;
  std::map<std::string, LayerGroup> by_op;
  LayerGroup bounds[4];
  for (Bound b : {Bound::compute, Bound::memory, Bound::overhead, Bound::none})
    bounds[int(b)].name = std::string(to_string(b));
  for (const LayerPrediction &lp : p.layers) {
    LayerGroup &g = by_op[lp.layer->op_name];
    g.name = lp.layer->op_name;
    add(g, lp);
    add(bounds[int(lp.timing.bound)], lp);
  }
  const double total = p.totals.predicted_seconds;
  for (auto &[name, g] : by_op)
    r.op_types.push_back(g);
  for (Bound b : {Bound::compute, Bound::memory, Bound::overhead, Bound::none})
    if (b != Bound::none || bounds[int(b)].layers > 0)
      r.bounds.push_back(bounds[int(b)]);
  for (auto *list : {&r.op_types, &r.bounds})
    for (LayerGroup &g : *list)
      g.fraction = total > 0 ? g.seconds / total : 0.0;
  // by_op is in name order, so a stable sort by time leaves ties by name.
  std::stable_sort(r.op_types.begin(), r.op_types.end(),
                   [](const LayerGroup &a, const LayerGroup &b) { return a.seconds > b.seconds; });
  return r;
}

} // namespace perfmodel
