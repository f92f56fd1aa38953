// CTAs of the GPU's streaming kernels (include/perfmodel/targets/gpu/streaming.hpp).
#include "perfmodel/targets/gpu/streaming.hpp"

#include <algorithm>
#include <cmath>

namespace perfmodel::gpu {

double streaming_ctas(const KernelFeatures &f) {
  if (!(f.parallel_units > 0))
    return 0;
  double per_cta = 0;
  switch (f.op_class) {
  case OpClass::elementwise:
    per_cta = kElementwisePerCta;
    break;
  case OpClass::pool:
    per_cta = kPoolPerCta;
    break;
  case OpClass::norm:
    per_cta = kNormPerCta;
    break;
  case OpClass::reduce:
    per_cta = kReducePerCta;
    break;
  default:
    return 0;
  }
  return std::ceil(f.parallel_units / per_cta);
}

double streaming_plane(const KernelFeatures &f, int sms) {
  return streaming_ctas(f) / double(std::max(1, sms));
}

} // namespace perfmodel::gpu
