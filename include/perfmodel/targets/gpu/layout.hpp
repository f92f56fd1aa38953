// Which layout cuDNN's kernel for a convolution runs in natively, and the bytes the layout
// conversions around a call in the other layout move (docs/gpu_model.md, "Layouts").
#pragma once

#include "perfmodel/calibration.hpp"

namespace perfmodel::gpu {

/// The layout a convolution call's kernel reads and writes, from the H200's measured kernels
/// (reference/gpu/h200/torch_kernels.csv against torch_kernels_cl.csv):
///   - fp32 and fp64 (SIMT kernels): NCHW, but for fewer than kSimtMinChannels input channels
///     (the 3-channel first layers run in either layout at the same time);
///   - tensor-core dtypes (tf32, fp16, bf16, fp8, int8): NHWC, unaligned channels included (the
///     3-channel first layers pay the conversion as the others do), but a plain 1x1
///     convolution (stride 1, no padding: the pointwise class) over a plane of at least
///     kNchwGemmMinPlane pixels runs in either layout (a batched GEMM on the NCHW planes).
///   - depthwise convolutions, every dtype: NHWC. PyTorch runs its own NCHW depthwise kernels
///     and cuDNN's NHWC ones for channels-last; the NCHW ones take longer by the time of a
///     conversion at 2.3-2.8 TB/s (stride 1, fp32), so the model charges them one.
/// nullopt where both layouts run at the same cost: those above, other grouped convolutions,
/// and every call that is not a convolution.
std::optional<Layout> native_layout(const KernelFeatures &f);
inline constexpr int64_t kNchwGemmMinPlane = 28 * 28;
inline constexpr int64_t kSimtMinChannels = 8;

/// The bytes the conversions of a call run in a layout (f.layout) other than its kernel's native
/// one move: each activation tensor the call reads or writes is read and written once more in
/// the other layout. Forward: X and Y; backward-data: dY and dX; backward-filter: X and dY (the
/// filter's gradient is not converted: its bytes are a small part of the activations'). The
/// same element count in every pass part: 2 * (input + output elements) * element size. 0 when
/// the call runs in its native layout or has none.
double layout_conversion_bytes(const KernelFeatures &f);

/// The conversion rate (bytes per second) a call takes where its class has no fitted one: the
/// rate of the forward class of the same op class and dtype, else of any class of the dtype
/// that has one, else kLayoutStart.
double layout_unfitted_rate(const Calibration &cal, const KernelFeatures &f, size_t term);

/// The conversion rate the fit starts from and holds where it cannot fit one: cuDNN's
/// nchwToNhwcKernel<float> in the H200 ResNet-50 fp32 training trace
/// (reference/gpu/h200/traces/resnet50_train_b32_fp32) converts its 13-51 MB tensors at
/// 2.9-3.7 TB/s of bytes read and written.
inline constexpr double kLayoutStart = 3.5e12;

} // namespace perfmodel::gpu
