// From a traced PyTorch operator and its recorded input shapes to a one-layer perfmodel Graph,
// so that its FLOPs and bytes come from the core's counting rules (perfmodel::layer_cost).
//
// Newer traces (PyTorch >= 2.1) record scalar arguments as "Concrete Inputs": forward
// convolutions and max/avg pools then use their stride, padding, dilation, groups and window.
// What the trace does not record is derived from the trace itself, never from a known network:
//  - a forward convolution's output shape comes from a backward convolution op of the same
//    input and weight shapes (its grad-output shape); stride and padding are then the smallest
//    ones that give that output (only the output shape enters the counts);
//  - conv backward_input / backward_weight take input, grad-output and weight shapes from
//    their parent aten::cudnn_convolution_backward, which records all three;
//  - max-pool output shapes come from max_pool2d_with_indices_backward of the same input; the
//    window is the smallest (kernel = stride) that gives them: it changes FLOPs, not bytes;
//  - adaptive_avg_pool2d is a global average pool when PyTorch ran it as aten::mean.
// Ops with no rule, or whose shapes cannot be derived, are not modelled (the reason is given).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "perfmodel/graph.hpp"
#include "perfmodel/trace/op_tree.hpp"
#include "perfmodel/trace/trace.hpp"

namespace perfmodel::trace {

/// Which part of the layer's training pass the operator computes.
enum class OpPart { fwd, bwd_data, bwd_weight, bwd }; // bwd = bwd_data + bwd_weight
std::string_view to_string(OpPart p);

struct OpModel {
  Graph graph; // one layer (graph.layers[0]), shapes inferred
  OpPart part = OpPart::fwd;
};

/// Output shapes seen in the trace for a given input signature (see the file comment).
struct ShapeHints {
  std::map<std::pair<Dims, Dims>, std::set<Dims>> conv_out; // (input, weight) -> outputs
  std::map<Dims, std::set<Dims>> max_pool_out;              // input -> outputs
};
ShapeHints collect_shape_hints(const Trace &t);

/// The layout of the operator's first rank-4 tensor argument whose strides the trace recorded
/// ("Input Strides"): nhwc when its channels are adjacent (PyTorch's channels_last), else nchw;
/// nchw when none was recorded. model_op gives it to the op's graph (Graph::layout), so the GPU
/// target charges layout conversions only to calls that ran in the other layout.
Layout recorded_layout(const TraceEvent &e);

/// True when `name` is an operator this file has a rule for (shapes may still be missing).
bool has_shape_rule(const std::string &name);

/// The model of operator node `n`, or nullopt with the reason in `why`.
std::optional<OpModel> model_op(const Trace &t, const OpTree &tree, int n, const ShapeHints &hints,
                                std::string *why);

/// "32x3x224x224, 64x3x7x7": the recorded tensor shapes of an event (empty ones skipped).
std::string dims_label(const TraceEvent &e);

} // namespace perfmodel::trace
