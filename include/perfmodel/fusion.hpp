// Inference fusion: a pass over a shape-inferred graph that merges the layers an inference
// runtime (TensorRT, ONNX Runtime, torch.compile) runs as one kernel, and records what went
// into what (Layer::fused). Every command that predicts a graph's layers applies it the same
// way; the rules, and the bytes and FLOPs a fused layer keeps, are in docs/ops.md ("Fusion").
#pragma once

#include <optional>
#include <string_view>

#include "perfmodel/cost.hpp"
#include "perfmodel/graph.hpp"

namespace perfmodel {

/// How the layers of a graph are assumed to run: `none` each layer as its own kernel (eager
/// execution, the default); `inference` fused as an inference runtime does.
enum class Fusion { none, inference };
std::string_view to_string(Fusion f);
/// "none" or "inference"; nullopt for anything else.
std::optional<Fusion> parse_fusion(std::string_view s);

/// The graph `g` runs as under `mode` for `pass`: `g` itself for `none`; for `inference`
///   - a batch norm right after a conv2d, conv_transpose2d or linear (2-D output) folded into
///     its weights and bias (the layer gains a bias if it had none);
///   - the element-wise layers after a conv2d, conv_transpose2d, linear or matmul (activations,
///     element-wise arithmetic such as a residual add) as that layer's epilogue;
///   - a chain of element-wise layers (activation, elementwise, batch_norm) as one layer;
/// each only where the value passed on has exactly one reader (the next layer, once), keeps
/// the head's output shape and data type, and the next layer carries no fused activation of
/// its own. A fused layer stands where the last of its parts stood, is named after its parts
/// (`conv1+bn1+relu`: the head's name, then each part's with the head's leading path removed)
/// and records them in Layer::fused. Throws InputError for `inference` with Pass::train:
/// training keeps every layer's output for the backward pass, so nothing is fused.
Graph fuse(const Graph &g, Fusion mode, Pass pass);

} // namespace perfmodel
