// Building the GPU layer plan (layer_plan.hpp) of a shape-inferred graph.
#pragma once

#include "perfmodel/graph.hpp"
#include "perfmodel/kernels/gpu_plan/layer_plan.hpp"

namespace perfmodel::kernels::gpu_plan {

/// The plan of every layer of `g` (shape-inferred), in graph order. Activations are stored in
/// opts.dtype (fp16 for fp16, else fp32), integer graph inputs as int64. With channels_last,
/// rank-4 float activations are NHWC. A layer the GPU executor cannot run gets `unsupported`
/// (its reason) and no calls; its outputs are still allocated so that the layers after it can be
/// planned. Throws InputError (the option's name) when opts.dtype is not fp32, tf32 or fp16.
ModelPlan plan_gpu_model(const Graph &g, const PlanOptions &opts);

/// One line per layer: "name  op  path  library: what" (and "unsupported: reason"), for tests
/// and `measure --device cuda --plan`.
std::string describe_plan(const ModelPlan &plan);

} // namespace perfmodel::kernels::gpu_plan
