// The roofline time of one layer on one piece of hardware: the formula lives here and only here.
#pragma once

#include <string>
#include <string_view>

#include "perfmodel/cost.hpp"
#include "perfmodel/hw_spec.hpp"

namespace perfmodel {

enum class Bound { compute, memory, overhead, none };
std::string_view to_string(Bound b);

struct LayerTiming {
  double compute_seconds = 0;  // flops / peak of the unit used
  double memory_seconds = 0;   // bytes / DRAM bandwidth
  double overhead_seconds = 0; // kernel launch (0 for layers that move no data)
  double seconds = 0;          // predicted time
  Bound bound = Bound::none;
  double attainable_flops_per_second = 0; // min(peak, AI * bandwidth)
  ComputeUnit unit;                       // the unit the layer runs on
};

/// Roofline prediction:
///   t_compute  = flops / peak(dtype, unit)      (matrix units only for GEMM-like layers)
///   t_memory   = bytes / dram_bandwidth         (compulsory traffic, each tensor once)
///   t_overhead = launch_overhead                (only for layers that do work)
///   t          = max(t_compute, t_memory) + t_overhead
/// bound = the largest of the three terms; a layer with no FLOPs and no bytes is `none`.
/// Throws InputError when the hardware has no unit for `dtype`.
LayerTiming roofline_time(const HwSpec &hw, const LayerCost &cost, DType dtype);

} // namespace perfmodel
