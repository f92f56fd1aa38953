// Which layers a calibrated prediction prices far outside the sizes their class was fitted on
// (ClassCalibration::fitted_range): there the fitted parameters extrapolate, and a size-aware
// model can be far off (docs/calibration.md, "Extrapolation"). `predict`, `roofline` and
// `sweep` warn about them on stderr.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/cost.hpp"
#include "perfmodel/graph.hpp"

namespace perfmodel {

/// A call lies far outside its class's fitted range when its FLOPs or its bytes exceed the
/// range's largest by more than this factor, or fall under its smallest by more than it (a
/// decade: the Hockney sizes and the overhead are fitted where the samples are, and a call a
/// decade away from every sample is priced by the formula's shape alone).
constexpr double kExtrapolationFactor = 10;

/// One kernel call of a layer outside its class's fitted range.
struct ExtrapolatedCall {
  std::string layer;
  KernelPart part = KernelPart::fwd;
  OpClass op_class = OpClass::gemm; // the class whose parameters price it (find_or_fallback)
  DType dtype = DType::fp32;
  double flops = 0, bytes = 0; // of one call (the target's one_call)
  FittedRange range;           // the class's
};

/// The calls of the layers of a shape-inferred graph (costs: one per layer, graph_cost(g,
/// pass)) that lie more than `factor` outside their class's fitted range. Calls whose class the
/// calibration does not fit (priced by the roofline) or has no range for (a file from before
/// the range was recorded) are never listed. A dimension is judged only where the call and the
/// range both have some (a copy without FLOPs is judged on its bytes).
std::vector<ExtrapolatedCall> extrapolated_calls(const Calibration &cal, const Graph &g,
                                                 const std::vector<LayerCost> &costs, Pass pass,
                                                 double factor = kExtrapolationFactor);

/// One warning line per class x dtype, aggregated: how many layers, the class's range, and the
/// first `names` layer names ("and N more"). A layer listed more than once (several passes, or
/// several points of a sweep) counts once.
std::vector<std::string> extrapolation_warnings(const std::vector<ExtrapolatedCall> &calls,
                                                size_t names = 4,
                                                double factor = kExtrapolationFactor);

} // namespace perfmodel
