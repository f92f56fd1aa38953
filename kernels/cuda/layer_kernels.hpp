// Launchers of the GPU layer executor's own kernels (layer_kernels.cu): pointwise functions over
// strided views, layer norm, softmax, pooling, row gathers and fills. Plain C++ signatures; each
// launches on `stream` (a cudaStream_t) and returns the launch's cudaError_t as an int.
#pragma once

#include <cstdint>

namespace perfmodel::kernels::cuda::detail {

/// The pointwise functions (gpu_plan::pointwise_functions names them; pointwise_opcode maps).
enum class PointwiseOp : int {
  copy,
  relu,
  relu6,
  sigmoid,
  tanh_,
  gelu,
  silu,
  hardswish,
  hardsigmoid,
  leaky_relu,
  elu,
  clip,
  exp_,
  log_,
  sqrt_,
  neg,
  abs_,
  erf_,
  softplus,
  add,
  sub,
  mul,
  div,
  max_,
  min_,
  pow_,
  scale_shift
};

/// PointwiseOp's functions by name, in its order: the names gpu_plan::pointwise_functions gives.
inline constexpr const char *kPointwiseNames[] = {
    "copy",       "relu", "relu6", "sigmoid", "tanh", "gelu", "silu", "hardswish", "hardsigmoid",
    "leaky_relu", "elu",  "clip",  "exp",     "log",  "sqrt", "neg",  "abs",       "erf",
    "softplus",   "add",  "sub",   "mul",     "div",  "max",  "min",  "pow",       "scale_shift"};

inline constexpr int kMaxDims = 6;

/// out[o] = f(in0[i0], in1[i1], in2[i2]) over an iteration space of `rank` dims (innermost
/// last), each operand at offset + sum(index_d * stride_d), in elements.
struct PointwiseArgs {
  int rank = 1, inputs = 1;
  int op = 0;
  float alpha = 0, beta = 0;
  int64_t shape[kMaxDims] = {};
  int64_t out_offset = 0, out_strides[kMaxDims] = {};
  int64_t in_offset[3] = {}, in_strides[3][kMaxDims] = {};
  void *out = nullptr;
  const void *in[3] = {nullptr, nullptr, nullptr};
};

/// Pooling of x [n, c, h, w] into y [n, c, p, q], both at their element strides (NCHW or NHWC).
struct PoolArgs {
  int64_t n = 0, c = 0, h = 0, w = 0, p = 0, q = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  bool max = true, count_include_pad = false;
  int64_t in_offset = 0, in_strides[4] = {}, out_offset = 0, out_strides[4] = {};
};

// `half`: the float operands are __half (fp16), else float; arithmetic is in float.
int launch_pointwise(const PointwiseArgs &a, bool half, void *stream);
int launch_layer_norm(const void *x, const void *gamma, const void *beta, void *y, int64_t rows,
                      int64_t cols, float eps, bool half, void *stream);
int launch_softmax(const void *x, void *y, int64_t rows, int64_t cols, bool half, void *stream);
int launch_pool(const PoolArgs &a, const void *x, void *y, bool half, void *stream);
/// The whole h x w plane of each (n, c): its max or mean.
int launch_global_pool(const PoolArgs &a, const void *x, void *y, bool half, void *stream);
/// out[r, :] = table[index[r], :] for r < rows, rows of `cols` elements.
int launch_gather_rows(const void *table, const int64_t *index, void *out, int64_t rows,
                       int64_t cols, bool half, void *stream);
/// Deterministic values in [-1, 1) (float or half), or indices in [0, bound).
int launch_fill_values(void *p, int64_t n, uint32_t seed, bool half, void *stream);
int launch_fill_indices(int64_t *p, int64_t n, int64_t bound, uint32_t seed, void *stream);

} // namespace perfmodel::kernels::cuda::detail
