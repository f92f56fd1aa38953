// Which kernel a GPU runs for a convolution or GEMM, as far as the work it costs
// (docs/gpu_model.md, "Convolutions"): Winograd, the tensor cores' alignment, the wasted work
// and the rows a strided 1x1 convolution reads.
#pragma once

#include "perfmodel/calibration.hpp"
#include "perfmodel/targets/gpu/arch.hpp"

namespace perfmodel::gpu {

/// Whether cuDNN runs the call as a Winograd convolution: fp32 (cuDNN's Winograd algorithms,
/// CUDNN_CONVOLUTION_*_ALGO_WINOGRAD(_NONFUSED), take 3x3 and 5x5 filters at stride 1 and
/// dilation 1; the half-precision and tf32 calls run faster on the tensor cores), an ungrouped
/// 3x3 or 5x5 filter, stride 1, dilation 1, and at least kWinogradMinChannels input and output
/// channels (the transforms are amortised over the channels: a 3-channel first layer runs the
/// direct kernel). Every pass part: the backward-data pass of such a convolution is one of the
/// same kind, and cuDNN's backward-filter Winograd takes the same filters.
bool winograd_applies(const KernelFeatures &f);
inline constexpr int64_t kWinogradMinChannels = 16;

/// The work of a Winograd call relative to the direct count: F(2x2, r x r) computes a 2x2
/// output tile with (r+1)^2 multiplies instead of 4 r^2 (2.25x fewer for 3x3, 2.78x for 5x5;
/// Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks", CVPR 2016), over the
/// output plane rounded up to whole 2x2 tiles (the pass's output: dX's plane for backward-data,
/// dY's for the others). 1 where winograd_applies is false.
double winograd_work_factor(const KernelFeatures &f);

/// The elements a tensor-core operand's leading dimension must be a multiple of: 16 bytes
/// (8 fp16 or bf16, 4 tf32, 16 int8 or fp8).
int64_t tensor_alignment(DType dtype);

/// Whether a call of a tensor-core dtype is aligned for the tensor cores: a convolution's
/// input and output channels per group, a GEMM's k and n, multiples of tensor_alignment. True
/// for other dtypes (they never use them).
bool tensor_cores_aligned(const KernelFeatures &f);

/// What an unaligned tensor-core call costs over an aligned one: the SIMT path, the
/// architecture's tensor_over_simt times the work. 1 otherwise.
double alignment_work_factor(const KernelFeatures &f, const GpuArch &arch);

/// The input bytes a strided 1x1 convolution does not read (forward and backward-filter): it
/// reads out_h of the in_h rows of each plane (a row's elements share its memory sectors, a
/// skipped row is never fetched). 0 for other calls.
double strided_1x1_unread_bytes(const KernelFeatures &f);

} // namespace perfmodel::gpu
