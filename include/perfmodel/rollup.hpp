// Where the time goes: a prediction's layers summed per op type and per bound.
//
// Every layer lands in exactly one op-type group (its op as written: "Conv", "conv2d") and in
// exactly one bound group (the term that bounds it: compute, memory, overhead, or none for a
// layer that does no work), so each list sums to the prediction's totals: the layers, time,
// FLOPs, bytes and energy of the groups add up to Prediction::totals, and their time shares
// to 1 (when any time was predicted). A calibration's pass excess belongs to no layer and is
// not in any group.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/cost.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel {

/// The layers of one op type or one bound, summed.
struct LayerGroup {
  std::string name; // the op type, or the bound's name
  int layers = 0;
  double seconds = 0;
  double fraction = 0; // seconds / the prediction's total layer time (0 when that is 0)
  PassCost cost;       // FLOPs, MACs and bytes of every pass the prediction counts
  double energy_joules = 0;
  /// The group's time split by what bounds each of its layers (an op-type group's mix; a
  /// bound group has all of its time in its own bound).
  double seconds_compute_bound = 0, seconds_memory_bound = 0, seconds_overhead_bound = 0;
  /// The bound holding most of the group's time (none when it has no time).
  Bound dominant_bound() const;
};

struct Rollup {
  /// One group per op type, most time first (ties: by name), layers without time last.
  std::vector<LayerGroup> op_types;
  /// compute, memory and overhead always (in that order), then none when a layer has no work.
  std::vector<LayerGroup> bounds;
};

/// Groups the layers of `p` by op type and by bound.
Rollup rollup(const Prediction &p);

} // namespace perfmodel
