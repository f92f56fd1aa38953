// The GPU layer plan: which library call (cuDNN, cuBLAS) or kernel of our own each layer of a
// model becomes on an NVIDIA GPU, with every tensor's shape, physical strides and data type.
//
// The plan is built on the host from a shape-inferred Graph (plan_gpu_model, pure C++, tested
// without a GPU) and handed to the CUDA plugin, which allocates the tensors, runs the calls and
// times them (kernels/cuda, `measure --device cuda`; docs/cuda.md, "The layer plan"). The
// structs below are plain data (no Graph, no CUDA type): they cross the plugin boundary as they
// are (kernels/cuda/plugin.hpp), so this header includes nothing the plugin does not carry.
//
// Conventions: shapes are logical (NCHW for rank-4 activations); strides are in elements and
// give the physical layout (NHWC = channels-last for rank-4 activations with
// PlanOptions::channels_last). A StridedView addresses element [i0..ik] of an iteration space
// at offset + sum(i_d * strides[d]); a stride of 0 broadcasts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfmodel/dtype.hpp"

namespace perfmodel::kernels::gpu_plan {

enum class TensorRole { input, param, activation, constant };

/// One tensor of the run. A view (`alias` >= 0) shares the buffer of tensor `alias` and is
/// never allocated.
struct PlanTensor {
  std::string name;
  std::vector<int64_t> shape;   // logical
  std::vector<int64_t> strides; // physical, elements
  DType dtype = DType::fp32;    // storage: fp32 (fp32, tf32 runs), fp16, or int64 (indices)
  TensorRole role = TensorRole::activation;
  int alias = -1;
  int64_t index_bound = 0; // int64 index tensors: values are drawn from [0, index_bound)
  /// Elements the buffer must hold: 1 + the largest offset the strides reach (0 when empty).
  int64_t storage_elements() const {
    int64_t last = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 0)
        return 0;
      last += (shape[d] - 1) * (d < strides.size() ? strides[d] : 0);
    }
    return last + 1;
  }
};

/// A tensor as one operand of a call over an iteration space.
struct StridedView {
  int tensor = -1;
  int64_t offset = 0;
  std::vector<int64_t> strides; // one per dimension of the call's `shape`
};

enum class CallKind {
  conv,        // cuDNN convolution forward (algorithm chosen at run time)
  gemm,        // cuBLAS GEMM, or strided batched GEMM when gemm.batch > 1
  pointwise,   // our kernel: out = f(in...) over `shape` (1 to 3 strided operands)
  layer_norm,  // our kernel: rows of `rows.cols` contiguous elements, gamma and beta
  softmax,     // our kernel: rows of `rows.cols` contiguous elements
  pool,        // our kernel: max or average pooling, 2-D window
  global_pool, // our kernel: max or average over H x W per (n, c)
  gather_rows, // our kernel: out[i, :] = table[index[i], :]
};

/// cuDNN convolution forward: x [n, c, h, w], filter [k, c/groups, r, s], y [n, k, p, q].
struct ConvShape {
  int64_t n = 0, c = 0, h = 0, w = 0, k = 0, r = 0, s = 0;
  int64_t pad_h = 0, pad_w = 0, stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1, groups = 1;
  int64_t p = 0, q = 0; // output height and width
  bool nhwc = false;    // tensors and filter in NHWC (channels-last), else NCHW
};

/// Row-major C[m x n] (+)= op(A) op(B), `batch` times at the given element strides (0:
/// broadcast). op(A) is A [m x k] (lda >= k) or, with trans_a, A stored [k x m] (lda >= m);
/// op(B) is B [k x n] (ldb >= n) or, with trans_b, B stored [n x k] (ldb >= k).
struct GemmShape {
  int64_t m = 0, n = 0, k = 0, batch = 1;
  bool trans_a = false, trans_b = false;
  int64_t lda = 0, ldb = 0, ldc = 0;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0;
};

/// Pooling over a 2-D window; the views' strides are those of [n, c, h, w] of input and output.
struct PoolShape {
  int64_t n = 0, c = 0, h = 0, w = 0, p = 0, q = 0;
  int64_t kh = 1, kw = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dil_h = 1, dil_w = 1;
  bool max = true;
  bool count_include_pad = false; // average: divide by the whole window, padding included
};

/// Rows of contiguous elements (layer norm, softmax, gather).
struct RowsShape {
  int64_t rows = 0, cols = 0;
};

struct PlanCall {
  CallKind kind = CallKind::pointwise;
  std::string library;         // "cuDNN", "cuBLAS" or "own"
  std::string what;            // "convolution forward NHWC 3x3/1", "GEMM 512x1000x2048 A.B^T", ...
  std::vector<StridedView> in; // conv: x, w; gemm: A, B; pointwise: operands; norms: x, gamma,
                               // beta; gather: table, indices
  StridedView out;
  std::vector<int64_t> shape; // pointwise: the iteration space, coalesced (at most 6 dims)
  std::string function;       // pointwise: relu, add, copy, scale_shift ... (pointwise_functions)
  float alpha = 0, beta = 0;  // pointwise: a function's parameters (clip bounds, leaky slope,
                              // scalar); layer_norm: epsilon in alpha
  ConvShape conv;
  GemmShape gemm;
  PoolShape pool;
  RowsShape rows;
  double flops = 0, bytes = 0; // this call's own count (boda rules), for the plan's listing
};

struct PlannedLayer {
  std::string name, op;        // the layer's name and its IR op kind (to_string(OpKind))
  std::string path;            // short: "cudnn", "cublas", "pointwise", "rows", "pool", "view", ...
  std::vector<PlanCall> calls; // in run order; empty for a view
  std::string unsupported;     // non-empty: why this layer cannot run on the GPU executor
};

struct PlanOptions {
  DType dtype = DType::fp32; // fp32, tf32 or fp16
  bool channels_last = false;
};

struct ModelPlan {
  std::string model;
  DType dtype = DType::fp32;
  bool channels_last = false;
  std::vector<PlanTensor> tensors;
  std::vector<PlannedLayer> layers; // the graph's layers, in its order
  /// "<layer> (<op>): <reason>" for every unsupported layer.
  std::vector<std::string> unsupported() const;
  /// Bytes of every allocated (non-view) tensor.
  double allocated_bytes() const;
};

/// The element functions of a pointwise call, with their operand count: unary activations
/// (relu, relu6, sigmoid, tanh, gelu, silu, hardswish, leaky_relu, clip, exp, sqrt, neg, ...),
/// binary (add, sub, mul, div, max, min, pow), scale_shift (x * a + b, three operands) and
/// copy. The CUDA kernel implements exactly these (bench_kernels/layer_kernels.cu).
const std::vector<std::pair<std::string, int>> &pointwise_functions();
/// The operand count of `f`, or 0 when it is not one.
int pointwise_arity(const std::string &f);

/// Row-major strides of `shape`.
std::vector<int64_t> row_major_strides(const std::vector<int64_t> &shape);

/// Merges adjacent dimensions of an iteration space where every view steps through them as one
/// (after ordering them by the output's strides, largest first) and drops dimensions of size 1;
/// the result has at least one dimension. Throws InputError above 6 dimensions.
void coalesce(std::vector<int64_t> &shape, std::vector<StridedView *> views);

} // namespace perfmodel::kernels::gpu_plan
