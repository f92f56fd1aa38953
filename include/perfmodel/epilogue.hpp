// What the CPU executor fuses into a matrix product (a GEMM epilogue: a bias as C's initial value,
// the clamp of a ReLU or ReLU6 after the product), stated once for kernels/cpu, which runs it,
// and for the efficiency model, which charges its passes over C (docs/model.md, "Work
// split and epilogue, t_e").
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "perfmodel/graph.hpp"

namespace perfmodel {

/// Whether a layer adds a bias: its parameters say (a second tensor), else its `bias` attribute
/// (default 1, as a YAML conv or linear layer has one unless it says `bias: 0`).
bool layer_has_bias(const Layer &l);

/// The clamp [lo, hi] of an activation a GEMM epilogue fuses ("relu": [0, inf), "relu6": [0,
/// 6]), or nullopt (any other activation runs as a pass of its own after the layer).
std::optional<std::pair<float, float>> fused_clamp(const std::string &activation);

/// The passes over C that the epilogue of a layer's forward product makes besides the product
/// itself: one for a bias, one for a fused clamp, and one per element-wise step inference
/// fusion put after the product (perfmodel/fusion.hpp: an activation, a residual add; a folded
/// batch norm is none, its shift is the bias). conv2d and linear; matmul for fused steps only
/// (it has no bias or clamp); none for a transposed convolution (it adds its bias after
/// col2im, not over C).
int epilogue_sweeps(const Layer &l);

} // namespace perfmodel
