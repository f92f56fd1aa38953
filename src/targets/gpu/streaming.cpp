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

double cta_start_count(const KernelFeatures &f, int sms) { return streaming_plane(f, sms); }

bool cta_start_visible(const std::vector<KernelFeatures> &calls) {
  int n = 0;
  double bytes_lo = 0, bytes_hi = 0, ctas_lo = 0, ctas_hi = 0;
  for (const KernelFeatures &f : calls) {
    const double ctas = streaming_ctas(f);
    if (!(ctas > 0) || !(f.bytes > 0))
      continue;
    const double per_cta = f.bytes / ctas;
    bytes_lo = n ? std::min(bytes_lo, per_cta) : per_cta;
    bytes_hi = n ? std::max(bytes_hi, per_cta) : per_cta;
    ctas_lo = n ? std::min(ctas_lo, ctas) : ctas;
    ctas_hi = n ? std::max(ctas_hi, ctas) : ctas;
    ++n;
  }
  return n >= kCtaStartMinCalls && bytes_hi >= kCtaStartMinSpan * bytes_lo &&
         ctas_hi >= kCtaStartMinSpan * ctas_lo;
}

double batch_norm_reread_bytes(const KernelFeatures &f, double single_read_bytes) {
  if (f.op_class != OpClass::norm || f.dtype != DType::fp32 || !(f.channel_elements > 0) ||
      !(f.parallel_units > 0))
    return 0;
  const double tensors = f.pass == KernelPart::fwd ? 1 : 2; // x; backward x and dy
  const double channel_bytes = tensors * f.channel_elements * double(bytes_of(f.dtype));
  if (channel_bytes <= single_read_bytes)
    return 0;
  return channel_bytes * f.parallel_units;
}

} // namespace perfmodel::gpu
