// Winograd, alignment and strided-convolution rules of the GPU target
// (include/perfmodel/targets/gpu/conv_rules.hpp).
#include "perfmodel/targets/gpu/conv_rules.hpp"

#include <algorithm>
#include <cmath>

namespace perfmodel::gpu {

bool winograd_applies(const KernelFeatures &f) {
  if (!f.conv || f.dtype != DType::fp32)
    return false;
  const ConvGeometry &c = *f.conv;
  const bool filter = c.kernel_h == c.kernel_w && (c.kernel_h == 3 || c.kernel_h == 5);
  return filter && c.stride_h == 1 && c.stride_w == 1 && c.dilation_h == 1 && c.dilation_w == 1 &&
         c.groups == 1 && c.in_channels >= kWinogradMinChannels &&
         c.out_channels >= kWinogradMinChannels;
}

double winograd_work_factor(const KernelFeatures &f) {
  if (!winograd_applies(f))
    return 1.0;
  const ConvGeometry &c = *f.conv;
  const double r = double(c.kernel_h);
  const double savings = 4 * r * r / ((r + 1) * (r + 1));
  const bool data = f.pass == KernelPart::bwd_data;
  const double h = double(data ? c.in_h : c.out_h), w = double(data ? c.in_w : c.out_w);
  if (!(h > 0) || !(w > 0))
    return 1.0 / savings;
  const double rounded = std::ceil(h / 2) * 2 * std::ceil(w / 2) * 2;
  return rounded / (h * w) / savings;
}

int64_t tensor_alignment(DType dtype) { return std::max<int64_t>(1, 16 / bytes_of(dtype)); }

bool tensor_cores_aligned(const KernelFeatures &f) {
  if (!tensor_dtype(f.dtype))
    return true;
  const int64_t a = tensor_alignment(f.dtype);
  if (f.conv) {
    const int64_t g = std::max<int64_t>(1, f.conv->groups);
    return (f.conv->in_channels / g) % a == 0 && (f.conv->out_channels / g) % a == 0;
  }
  if (f.gemm)
    return f.gemm->k % a == 0 && f.gemm->n % a == 0;
  return true;
}

double alignment_work_factor(const KernelFeatures &f, const GpuArch &arch) {
  return tensor_cores_aligned(f) ? 1.0 : arch.tensor_over_simt;
}

double strided_1x1_unread_bytes(const KernelFeatures &f) {
  if (!f.conv || f.pass == KernelPart::bwd_data)
    return 0;
  const ConvGeometry &c = *f.conv;
  if (c.kernel_h != 1 || c.kernel_w != 1 || c.stride_h <= 1 || c.in_h <= 0 || c.out_h >= c.in_h)
    return 0;
  const double input = double(c.batch * c.in_channels * c.in_h * c.in_w) * bytes_of(f.dtype);
  return input * (1 - double(c.out_h) / double(c.in_h));
}

} // namespace perfmodel::gpu
