// 2-D convolution and transposed convolution, NCHW fp32: im2col + the pool-split Eigen GEMM,
// a direct path for 1x1 stride-1 convolutions and a direct depthwise kernel.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

#include "perfmodel/kernels/cpu/tensor.hpp"

namespace perfmodel::kernels::cpu {

/// Geometry of a convolution. Padding is given per side (top/left; bottom/right follow from
/// the output size, so asymmetric ONNX pads work). For a transposed convolution (h, w) is the
/// input and (oh, ow) the output; the weight is [c, oc/groups, kh, kw] instead of
/// [oc, c/groups, kh, kw].
struct ConvGeom {
  int64_t n = 1, c = 0, h = 0, w = 0;
  int64_t oc = 0, oh = 0, ow = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, pad_top = 0, pad_left = 0, dh = 1, dw = 1;
  int64_t groups = 1;
  /// A fused ReLU / ReLU6 (clamp of the output), applied where the output is written: in the
  /// GEMM's epilogue, or per plane after a depthwise convolution (gemm.hpp, GemmEpilogue).
  float clamp_lo = -std::numeric_limits<float>::infinity();
  float clamp_hi = std::numeric_limits<float>::infinity();
};

/// Which code path conv2d() takes for a geometry (what its microbenchmarks must cover).
enum class ConvPath { im2col, direct1x1, depthwise };
ConvPath conv_path(const ConvGeom &g);
std::string_view to_string(ConvPath p);

/// Scratch floats conv2d()/conv_transpose2d() need under the current thread count (im2col: one
/// slab per thread, conv_slab; col2im: the columns of one group).
int64_t conv_workspace(const ConvGeom &g, bool transposed);

/// Floats of one thread's slab of an im2col workspace (0 for the other paths): the columns of
/// the lowered matrix that thread multiplies, or all of them when the product splits its rows
/// (each thread then lowers the whole matrix for itself).
int64_t conv_slab(const ConvGeom &g);

/// out[n, oc, oh, ow] = sum over the window of in * weight (+ bias[oc] when bias != nullptr).
/// The im2col path: each thread lowers the columns of the product it computes into its own slab
/// of `workspace`, thread t at workspace + t * stride, stride = max(slab_stride, conv_slab(g)),
/// so that no line of the workspace is ever written by one core and read by another (a
/// workspace shared that way made the next lowering up to 1.5x slower on two cores:
/// docs/measure.md, "The im2col workspace"). `workspace` must hold num_threads() * stride
/// floats; layers that share one workspace pass one slab_stride, so each slab keeps its thread.
void conv2d(const ConvGeom &g, const float *in, const float *weight, const float *bias, float *out,
            float *workspace, int64_t slab_stride = 0);

/// Transposed convolution (the gradient of conv2d w.r.t. its input): GEMM + col2im.
/// `workspace` must hold conv_workspace(g, true) floats.
void conv_transpose2d(const ConvGeom &g, const float *in, const float *weight, const float *bias,
                      float *out, float *workspace);

} // namespace perfmodel::kernels::cpu
