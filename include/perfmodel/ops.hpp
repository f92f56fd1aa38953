// The operator vocabulary of the IR and the registry of op names, with each op's counting rule
// as text (what `perfmodel list ops` prints and docs/ops.md explains).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfmodel {

enum class OpKind {
  conv2d,           // attrs: out_channels, kernel, stride, pad, dilation, groups, bias
  conv_transpose2d, // attrs: out_channels, kernel, stride, pad, output_padding, dilation, groups,
                    // bias
  linear,           // fully connected / gemm with a weight: attrs out_features, bias
  matmul,           // batched matrix product of two tensors, numpy broadcasting
  max_pool,         // attrs: kernel, stride (default kernel), pad, dilation, ceil_mode
  avg_pool,         // attrs: kernel, stride, pad, ceil_mode, count_include_pad
  global_avg_pool,  // NCHW -> NC11
  global_max_pool,
  activation,  // attr function: relu, relu6, sigmoid, tanh, gelu, silu, hardswish, ...
  batch_norm,  // inference batch norm over channel dim 1 (4 params per channel)
  layer_norm,  // attrs: axis (default -1), elementwise_affine
  elementwise, // attr function: add, sub, mul, div, pow, max, min, sqrt, ...; broadcasting
  reduce,      // attr function: mean, sum, max; attrs axes, keepdims
  softmax,     // attr axis (default -1)
  concat,      // attr axis (default 1)
  split,       // attrs axis, split (sizes) or outputs
  slice,       // attrs starts, ends, axes, steps
  gather,      // attrs axis; input 1 holds indices
  flatten,     // attr axis (default 1); a view
  reshape,     // attr shape (0 copies, -1 infers); a view
  transpose,   // attr perm; moves data
  dropout,     // no-op at inference
  embedding,   // attrs num_embeddings, embedding_dim; input holds indices
  identity,    // shape-only or no-op (Identity, Shape, Constant, Cast of shapes, ...)
  generic,     // anything else: counted by the bytes it reads and writes
};

/// One entry of the op registry: a name users write and what it means.
struct OpInfo {
  std::string_view name; // "conv2d", "relu", "add", ...
  OpKind kind;
  std::string_view function; // for activation/elementwise/reduce: the function; else ""
  std::string_view rule;     // the counting rule, one line
};

/// All registered op names, in a stable order.
const std::vector<OpInfo> &op_registry();
/// Looks an op name up (case-sensitive, aliases included); nullopt when unknown.
std::optional<OpInfo> find_op(std::string_view name);
std::string_view to_string(OpKind k);

/// FLOPs per element of an activation function (relu 1, sigmoid 4, ...); nullopt if unknown.
std::optional<int> activation_flops_per_element(std::string_view function);
/// FLOPs per output element of an elementwise function (add 1, pow 1, ...); nullopt if unknown.
std::optional<int> elementwise_flops_per_element(std::string_view function);

/// The attributes a layer of this kind takes in a model file (docs/formats.md, "Model",
/// its attributes per op), in the order the docs list them. The model reader rejects any other key:
/// a name the code never reads (PyTorch's `padding` for `pad`, say) would otherwise be dropped in
/// silence and the layer counted with the default.
const std::vector<std::string_view> &op_attributes(OpKind k);

/// True for ops whose core is a matrix product (conv, transposed conv, linear, matmul).
bool is_gemm_like(OpKind k);

} // namespace perfmodel
