// The GPU's direct kernels (include/perfmodel/targets/gpu/direct.hpp).
#include "perfmodel/targets/gpu/direct.hpp"

#include <algorithm>
#include <cmath>

namespace perfmodel::gpu {

bool is_depthwise(OpClass c) { return c == OpClass::depthwise || c == OpClass::depthwise_strided; }

double depthwise_work_items(const KernelFeatures &f) {
  if (!is_depthwise(f.op_class) || !f.conv)
    return 0;
  const ConvGeometry &c = *f.conv;
  switch (f.pass) {
  case KernelPart::fwd:
    return double(c.batch) * double(c.out_channels) * double(c.out_h) * double(c.out_w);
  case KernelPart::bwd_data:
    return double(c.batch) * double(c.in_channels) * double(c.in_h) * double(c.in_w);
  case KernelPart::bwd_weight:
    return c.groups > 0 ? double(c.out_channels) * double(c.in_channels / c.groups) *
                              double(c.kernel_h) * double(c.kernel_w)
                        : 0.0;
  }
  return 0;
}

double depthwise_ctas(const KernelFeatures &f) {
  const double items = depthwise_work_items(f);
  if (!(items > 0))
    return 0;
  return std::ceil(items /
                   (f.pass == KernelPart::bwd_weight ? kDepthwiseWeightPerCta : kDepthwisePerCta));
}

double depthwise_work_factor(const KernelFeatures &f) {
  if (!is_depthwise(f.op_class) || !f.conv || f.pass != KernelPart::bwd_data)
    return 1;
  return double(std::max<int64_t>(1, f.conv->stride_h)) *
         double(std::max<int64_t>(1, f.conv->stride_w));
}

double depthwise_plane(const KernelFeatures &f, int sms) {
  return depthwise_ctas(f) / double(std::max(1, sms));
}

} // namespace perfmodel::gpu
