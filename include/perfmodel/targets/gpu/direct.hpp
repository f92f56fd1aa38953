// The GPU's direct kernels: depthwise convolutions, which PyTorch runs as its own
// one-thread-per-element kernels rather than as CTA tiles of a product (docs/gpu_model.md,
// "Depthwise convolutions").
#pragma once

#include "perfmodel/calibration.hpp"

namespace perfmodel::gpu {

/// Work items per CTA of PyTorch's depthwise kernels (aten/src/ATen/native/cuda/
/// DepthwiseConv2d.cu; their grids in the H200 MobileNetV2 traces): the forward kernel
/// (conv_depthwise2d_forward_kernel) and the input-gradient kernel
/// (conv_depthwise2d_backward_kernel) run one thread per output (input-gradient) element in
/// 1024-thread CTAs (32x576x7x7 outputs: 882 CTAs; 32x96x112x112 input gradients: 37,632); the
/// weight-gradient kernel (conv_depthwise2d_grad_weight_kernel) one 256-thread CTA per weight
/// element, reducing over the batch and the output plane (192 channels x 3x3: 1,728 CTAs).
inline constexpr double kDepthwisePerCta = 1024, kDepthwiseWeightPerCta = 1;

/// Whether calls of class `c` run the depthwise kernels (depthwise, depthwise_strided).
bool is_depthwise(OpClass c);

/// The depthwise call's work items, from its convolution geometry (KernelFeatures::conv): the
/// output elements (forward), the input elements (backward-data) or the weight elements
/// (backward-weight: out_channels x in_channels / groups x kernel). 0 for other classes and
/// for calls without a geometry.
double depthwise_work_items(const KernelFeatures &f);

/// The CTAs the depthwise call launches: ceil(work items / items per CTA); 0 without work items.
double depthwise_ctas(const KernelFeatures &f);

/// The work the depthwise call's kernel does, relative to its counted FLOPs: the input-gradient
/// kernel loops over every tap of each input element and skips those that no output reads
/// (a stride s leaves 1 in s_h x s_w), so a strided backward-data call costs stride_h x
/// stride_w its counted work; 1 for the other parts and for calls without a geometry.
double depthwise_work_factor(const KernelFeatures &f);

/// The plane of the GPU target's parallelism factor plane / (plane + m_half) for a depthwise
/// call: its CTAs per SM, depthwise_ctas / sms (0: no factor), as for the streaming kernels
/// (streaming.hpp): each thread computes its own element, so a call reaches its class's rates
/// only with enough CTAs to keep every SM's loads and arithmetic in flight.
double depthwise_plane(const KernelFeatures &f, int sms);

} // namespace perfmodel::gpu
