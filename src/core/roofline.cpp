// The roofline formula (documented in roofline.hpp): the one place a layer's time is computed
// from peaks and bandwidths.
#include "perfmodel/roofline.hpp"

#include <algorithm>

namespace perfmodel {

std::string_view to_string(Bound b) {
  switch (b) {
  case Bound::compute:
    return "compute";
  case Bound::memory:
    return "memory";
  case Bound::overhead:
    return "overhead";
  case Bound::none:
    return "none";
  }
  return "?";
}

LayerTiming roofline_time(const HwSpec &hw, const LayerCost &cost, DType dtype) {
  LayerTiming t;
  const double flops = static_cast<double>(cost.total.flops);
  const double bytes = static_cast<double>(cost.total.bytes());
  if (flops <= 0 && bytes <= 0)
    return t; // views and no-ops: no kernel runs

  if (auto u = hw.best_unit(dtype, cost.gemm_like)) {
    t.unit = *u;
  } else if (flops > 0) {
    throw InputError(hw.loc, "hardware '" + hw.name + "' has no compute unit for " +
                                 std::string(to_string(dtype)));
  }
  const double peak = t.unit.flops_per_second;
  const double bw = hw.dram().bytes_per_second;
  t.compute_seconds = flops > 0 ? flops / peak : 0.0;
  t.memory_seconds = bytes / bw;
  t.overhead_seconds = hw.launch_overhead_seconds;
  t.seconds = std::max(t.compute_seconds, t.memory_seconds) + t.overhead_seconds;
  if (t.overhead_seconds > std::max(t.compute_seconds, t.memory_seconds))
    t.bound = Bound::overhead;
  else if (t.compute_seconds >= t.memory_seconds)
    t.bound = Bound::compute;
  else
    t.bound = Bound::memory;
  const double ai = bytes > 0 ? flops / bytes : 0.0;
  t.attainable_flops_per_second = peak > 0 ? std::min(peak, ai * bw) : 0.0;
  return t;
}

} // namespace perfmodel
