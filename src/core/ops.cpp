// The op registry: every op name the IR accepts, its kind, and its counting rule in one line.
// docs/ops.md explains the rules; src/core/cost_*.cpp implement them.
#include "perfmodel/ops.hpp"

#include <array>
#include <utility>

namespace perfmodel {

namespace {

const std::vector<OpInfo> kRegistry = {
    {"conv2d", OpKind::conv2d, "",
     "MACs = N*OH*OW*Cout*(Cin/g)*KH*KW; GEMM M=N*OH*OW N=Cout/g K=Cin/g*KH*KW x g; FLOPs = "
     "2*MACs; "
     "bytes = input + weight + bias + output"},
    {"conv_transpose2d", OpKind::conv_transpose2d, "",
     "MACs = N*IH*IW*Cin*(Cout/g)*KH*KW; GEMM M=N*IH*IW N=Cout/g*KH*KW K=Cin/g x g; FLOPs = "
     "2*MACs"},
    {"linear", OpKind::linear, "",
     "input [.., K], weight [N, K]: MACs = M*N*K, M = numel/K; "
     "FLOPs = 2*MACs; bytes = input + weight + bias + output"},
    {"matmul", OpKind::matmul, "",
     "A[..,M,K] x B[..,K,N], broadcast batch b: MACs = b*M*N*K, b GEMMs; FLOPs = 2*MACs"},
    {"maxpool", OpKind::max_pool, "", "FLOPs = output elements * KH*KW; bytes = input + output"},
    {"avgpool", OpKind::avg_pool, "", "FLOPs = output elements * KH*KW; bytes = input + output"},
    {"global_avgpool", OpKind::global_avg_pool, "",
     "FLOPs = input elements; bytes = input + output"},
    {"global_maxpool", OpKind::global_max_pool, "",
     "FLOPs = input elements; bytes = input + output"},
    {"relu", OpKind::activation, "relu", "1 FLOP per element; bytes = input + output"},
    {"leaky_relu", OpKind::activation, "leaky_relu", "2 FLOPs per element; bytes = input + output"},
    {"relu6", OpKind::activation, "relu6",
     "2 FLOPs per element (max, min); bytes = input + output"},
    {"clip", OpKind::activation, "clip", "2 FLOPs per element (max, min); bytes = input + output"},
    {"sigmoid", OpKind::activation, "sigmoid", "4 FLOPs per element (neg, exp, add, div)"},
    {"tanh", OpKind::activation, "tanh", "5 FLOPs per element (mul, exp, sub, add, div)"},
    {"gelu", OpKind::activation, "gelu", "5 FLOPs per element (div, erf, add, mul, mul)"},
    {"silu", OpKind::activation, "silu", "5 FLOPs per element (x * sigmoid(x))"},
    {"swish", OpKind::activation, "silu", "alias of silu"},
    {"hardsigmoid", OpKind::activation, "hardsigmoid", "4 FLOPs per element (mul, add, max, min)"},
    {"hardswish", OpKind::activation, "hardswish", "5 FLOPs per element (x * hardsigmoid(x))"},
    {"batchnorm", OpKind::batch_norm, "",
     "inference: 2 FLOPs per element (folded scale and shift); params 2*C + buffers 2*C; "
     "bytes = input + 4*C + output"},
    {"layernorm", OpKind::layer_norm, "",
     "8 FLOPs per element (mean 1, variance 3, normalize 2, affine 2); params 2*D"},
    {"add", OpKind::elementwise, "add", "1 FLOP per output element; bytes = inputs + output"},
    {"sub", OpKind::elementwise, "sub", "1 FLOP per output element; bytes = inputs + output"},
    {"mul", OpKind::elementwise, "mul", "1 FLOP per output element; bytes = inputs + output"},
    {"div", OpKind::elementwise, "div", "1 FLOP per output element; bytes = inputs + output"},
    {"pow", OpKind::elementwise, "pow", "1 FLOP per output element; bytes = inputs + output"},
    {"max", OpKind::elementwise, "max", "1 FLOP per output element; bytes = inputs + output"},
    {"min", OpKind::elementwise, "min", "1 FLOP per output element; bytes = inputs + output"},
    {"where", OpKind::elementwise, "where", "1 FLOP per output element; bytes = inputs + output"},
    {"sqrt", OpKind::elementwise, "sqrt", "1 FLOP per element; bytes = input + output"},
    {"erf", OpKind::elementwise, "erf", "1 FLOP per element; bytes = input + output"},
    {"exp", OpKind::elementwise, "exp", "1 FLOP per element; bytes = input + output"},
    {"log", OpKind::elementwise, "log", "1 FLOP per element; bytes = input + output"},
    {"neg", OpKind::elementwise, "neg", "1 FLOP per element; bytes = input + output"},
    {"abs", OpKind::elementwise, "abs", "1 FLOP per element; bytes = input + output"},
    {"reciprocal", OpKind::elementwise, "reciprocal", "1 FLOP per element; bytes = input + output"},
    {"reduce_mean", OpKind::reduce, "mean", "FLOPs = input elements; bytes = input + output"},
    {"reduce_sum", OpKind::reduce, "sum", "FLOPs = input elements; bytes = input + output"},
    {"reduce_max", OpKind::reduce, "max", "FLOPs = input elements; bytes = input + output"},
    {"softmax", OpKind::softmax, "",
     "5 FLOPs per element (max, sub, exp, sum, div); bytes = input + output"},
    {"concat", OpKind::concat, "", "0 FLOPs; bytes = inputs + output"},
    {"split", OpKind::split, "", "0 FLOPs; bytes = input + outputs"},
    {"slice", OpKind::slice, "", "0 FLOPs; bytes = 2 * output (reads only the slice)"},
    {"gather", OpKind::gather, "", "0 FLOPs; bytes = indices + 2 * output"},
    {"flatten", OpKind::flatten, "", "a view: 0 FLOPs, 0 bytes"},
    {"reshape", OpKind::reshape, "", "a view: 0 FLOPs, 0 bytes"},
    {"transpose", OpKind::transpose, "", "0 FLOPs; bytes = input + output (moves data)"},
    {"dropout", OpKind::dropout, "",
     "inference: a no-op (0, 0); train: 1 FLOP per element, bytes = input + output"},
    {"embedding", OpKind::embedding, "",
     "0 FLOPs; bytes = indices + gathered rows + output; params = num_embeddings*embedding_dim"},
    {"identity", OpKind::identity, "", "shape-only or no-op: 0 FLOPs, 0 bytes"},
    {"generic", OpKind::generic, "", "no rule: 0 FLOPs; bytes = inputs + params + outputs"},
};

const std::array<std::pair<std::string_view, std::string_view>, 6> kAliases{{
    {"fc", "linear"},
    {"gemm", "linear"},
    {"fully_connected", "linear"},
    {"conv", "conv2d"},
    {"deconv2d", "conv_transpose2d"},
    {"bmm", "matmul"},
}};

} // namespace

const std::vector<OpInfo> &op_registry() { return kRegistry; }

std::optional<OpInfo> find_op(std::string_view name) {
  for (const auto &[alias, target] : kAliases)
    if (alias == name)
      name = target;
  for (const auto &info : kRegistry)
    if (info.name == name)
      return info;
  return std::nullopt;
}

std::string_view to_string(OpKind k) {
  switch (k) {
  case OpKind::conv2d:
    return "conv2d";
  case OpKind::conv_transpose2d:
    return "conv_transpose2d";
  case OpKind::linear:
    return "linear";
  case OpKind::matmul:
    return "matmul";
  case OpKind::max_pool:
    return "maxpool";
  case OpKind::avg_pool:
    return "avgpool";
  case OpKind::global_avg_pool:
    return "global_avgpool";
  case OpKind::global_max_pool:
    return "global_maxpool";
  case OpKind::activation:
    return "activation";
  case OpKind::batch_norm:
    return "batchnorm";
  case OpKind::layer_norm:
    return "layernorm";
  case OpKind::elementwise:
    return "elementwise";
  case OpKind::reduce:
    return "reduce";
  case OpKind::softmax:
    return "softmax";
  case OpKind::concat:
    return "concat";
  case OpKind::split:
    return "split";
  case OpKind::slice:
    return "slice";
  case OpKind::gather:
    return "gather";
  case OpKind::flatten:
    return "flatten";
  case OpKind::reshape:
    return "reshape";
  case OpKind::transpose:
    return "transpose";
  case OpKind::dropout:
    return "dropout";
  case OpKind::embedding:
    return "embedding";
  case OpKind::identity:
    return "identity";
  case OpKind::generic:
    return "generic";
  }
  return "?";
}

const std::vector<std::string_view> &op_attributes(OpKind k) {
  using List = std::vector<std::string_view>;
  static const List none,
      conv{"out_channels", "kernel", "stride", "pad", "dilation", "groups", "bias"},
      conv_t{"out_channels",   "kernel",   "stride", "pad",
             "output_padding", "dilation", "groups", "bias"},
      linear{"out_features", "bias"}, max_pool{"kernel", "stride", "pad", "dilation", "ceil_mode"},
      avg_pool{"kernel", "stride", "pad", "dilation", "ceil_mode", "count_include_pad"},
      activation{"alpha", "min", "max"}, batch_norm{"epsilon"},
      layer_norm{"axis", "elementwise_affine", "epsilon"}, axis{"axis"}, reduce{"axes", "keepdims"},
      split{"axis", "split"}, slice{"starts", "ends", "axes", "steps"}, reshape{"shape"},
      transpose{"perm"}, dropout{"ratio"}, embedding{"num_embeddings", "embedding_dim"};
  switch (k) {
  case OpKind::conv2d:
    return conv;
  case OpKind::conv_transpose2d:
    return conv_t;
  case OpKind::linear:
    return linear;
  case OpKind::max_pool:
    return max_pool;
  case OpKind::avg_pool:
    return avg_pool;
  case OpKind::activation:
    return activation;
  case OpKind::batch_norm:
    return batch_norm;
  case OpKind::layer_norm:
    return layer_norm;
  case OpKind::reduce:
    return reduce;
  case OpKind::softmax:
  case OpKind::concat:
  case OpKind::gather:
  case OpKind::flatten:
    return axis;
  case OpKind::split:
    return split;
  case OpKind::slice:
    return slice;
  case OpKind::reshape:
    return reshape;
  case OpKind::transpose:
    return transpose;
  case OpKind::dropout:
    return dropout;
  case OpKind::embedding:
    return embedding;
  case OpKind::matmul:
  case OpKind::global_avg_pool:
  case OpKind::global_max_pool:
  case OpKind::elementwise:
  case OpKind::identity:
  case OpKind::generic:
    return none;
  }
  return none;
}

std::optional<int> activation_flops_per_element(std::string_view f) {
  static const std::array<std::pair<std::string_view, int>, 10> table{{
      {"relu", 1},
      {"leaky_relu", 2},
      {"relu6", 2},
      {"clip", 2},
      {"sigmoid", 4},
      {"tanh", 5},
      {"gelu", 5},
      {"silu", 5},
      {"hardsigmoid", 4},
      {"hardswish", 5},
  }};
  for (const auto &[name, n] : table)
    if (name == f)
      return n;
  return std::nullopt;
}

std::optional<int> elementwise_flops_per_element(std::string_view f) {
  static const std::array<std::string_view, 15> names{"add", "sub", "mul",   "div",  "pow",
                                                      "max", "min", "where", "sqrt", "erf",
                                                      "exp", "log", "neg",   "abs",  "reciprocal"};
  for (auto n : names)
    if (n == f)
      return 1;
  return std::nullopt;
}

bool is_gemm_like(OpKind k) {
  return k == OpKind::conv2d || k == OpKind::conv_transpose2d || k == OpKind::linear ||
         k == OpKind::matmul;
}

} // namespace perfmodel
