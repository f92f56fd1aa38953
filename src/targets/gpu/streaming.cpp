// CTAs of the GPU's streaming kernels (include/perfmodel/targets/gpu/streaming.hpp).
#include "perfmodel/targets/gpu/streaming.hpp"

#include <algorithm>
#include <cmath>

namespace perfmodel::gpu {

bool nhwc_batch_norm(const KernelFeatures &f) {
  return f.op_class == OpClass::norm && f.layout == Layout::nhwc && f.channel_elements > 0 &&
         f.parallel_units > 0;
}

double nhwc_batch_norm_ctas(const KernelFeatures &f, int sms) {
  if (!nhwc_batch_norm(f))
    return 0;
  const double rows = f.pass == KernelPart::fwd ? kNhwcNormRowsFwd : kNhwcNormRowsBwd;
  const double ctas =
      std::ceil(f.channel_elements / rows) * std::ceil(f.parallel_units / kNhwcNormChannels);
  return sms > 0 ? std::min(ctas, kNhwcNormCtasPerSm * sms) : ctas;
}

double streaming_ctas(const KernelFeatures &f, int sms) {
  if (!(f.parallel_units > 0))
    return 0;
  if (nhwc_batch_norm(f))
    return nhwc_batch_norm_ctas(f, sms);
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
  return streaming_ctas(f, sms) / double(std::max(1, sms));
}

double cta_start_count(const KernelFeatures &f, int sms) { return streaming_plane(f, sms); }

bool cta_start_visible(const std::vector<KernelFeatures> &calls, int sms) {
  std::vector<double> ctas;
  ctas.reserve(calls.size());
  for (const KernelFeatures &f : calls)
    ctas.push_back(streaming_ctas(f, sms));
  return cta_start_visible(calls, ctas);
}

bool cta_start_visible(const std::vector<KernelFeatures> &calls,
                       const std::vector<double> &call_ctas) {
  int n = 0;
  double bytes_lo = 0, bytes_hi = 0, ctas_lo = 0, ctas_hi = 0;
  for (size_t i = 0; i < calls.size() && i < call_ctas.size(); ++i) {
    const KernelFeatures &f = calls[i];
    const double ctas = call_ctas[i];
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
      !(f.parallel_units > 0) || f.layout == Layout::nhwc)
    return 0;
  const double tensors = f.pass == KernelPart::fwd ? 1 : 2; // x; backward x and dy
  const double channel_bytes = tensors * f.channel_elements * double(bytes_of(f.dtype));
  if (channel_bytes <= single_read_bytes)
    return 0;
  return channel_bytes * f.parallel_units;
}

} // namespace perfmodel::gpu
