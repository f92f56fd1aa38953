// Per-layer cost: FLOPs, MACs, bytes per tensor role, parameters, GEMM shape, intensity.
// The counting rules (boda's for conv and gemm) are in docs/ops.md; one function per op in
// src/core/cost_*.cpp implements them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/graph.hpp"

namespace perfmodel {

enum class Pass { fwd, train };
std::string_view to_string(Pass p);
std::optional<Pass> parse_pass(std::string_view s);

/// C[m x n] = A[m x k] B[k x n], done `groups` times (conv groups or matmul batch).
struct GemmShape {
  int64_t m = 0, n = 0, k = 0, groups = 1;
};

/// Counts for one pass direction. Integers: exact, like boda's.
struct PassCost {
  int64_t flops = 0;
  int64_t macs = 0;
  int64_t bytes_input = 0;   // activation tensors read
  int64_t bytes_weights = 0; // weight tensors (everything in params but the bias)
  int64_t bytes_bias = 0;
  int64_t bytes_output = 0; // activation tensors written
  int64_t bytes() const { return bytes_input + bytes_weights + bytes_bias + bytes_output; }
  PassCost &operator+=(const PassCost &o);
};

struct LayerCost {
  PassCost fwd;
  PassCost bwd_data;   // train pass only: gradient w.r.t. inputs
  PassCost bwd_weight; // train pass only: gradient w.r.t. weights (zero without weights)
  PassCost total;      // fwd (+ bwd_data + bwd_weight for the train pass)
  int64_t params = 0;
  std::optional<GemmShape> gemm; // conv / transposed conv / linear / matmul
  bool gemm_like = false;        // runs on matrix units (tensor cores) where the hw has them
  double arithmetic_intensity() const {
    return total.bytes() ? double(total.flops) / double(total.bytes()) : 0.0;
  }
};

/// Cost of one layer of a shape-inferred graph.
LayerCost layer_cost(const Graph &g, const Layer &layer, Pass pass);
/// Costs of every layer, in layer order.
std::vector<LayerCost> graph_cost(const Graph &g, Pass pass);

} // namespace perfmodel
