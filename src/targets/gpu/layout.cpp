// Native layouts and layout conversions of the GPU target (gpu/layout.hpp).
#include "perfmodel/targets/gpu/layout.hpp"

#include "perfmodel/targets/gpu/arch.hpp"

namespace perfmodel::gpu {

std::optional<Layout> native_layout(const KernelFeatures &f) {
  if (!f.conv)
    return std::nullopt;
  const ConvGeometry &g = *f.conv;
  if (f.op_class == OpClass::depthwise || f.op_class == OpClass::depthwise_strided)
    return Layout::nhwc;
  if (g.groups != 1)
    return std::nullopt;
  if (!tensor_dtype(f.dtype))
    return g.in_channels < kSimtMinChannels ? std::nullopt : std::optional(Layout::nchw);
  if (f.op_class == OpClass::pointwise && g.in_h * g.in_w >= kNchwGemmMinPlane)
    return std::nullopt;
  return Layout::nhwc;
}

double layout_conversion_bytes(const KernelFeatures &f) {
  const std::optional<Layout> native = native_layout(f);
  if (!native || *native == f.layout)
    return 0.0;
  const ConvGeometry &g = *f.conv;
  const double in = double(g.batch) * double(g.in_channels) * double(g.in_h) * double(g.in_w);
  const double out = double(g.batch) * double(g.out_channels) * double(g.out_h) * double(g.out_w);
  return 2.0 * (in + out) * double(bytes_of(f.dtype));
}

double layout_unfitted_rate(const Calibration &cal, const KernelFeatures &f, size_t term) {
  if (const ClassCalibration *cc = cal.find_for_pass(f.op_class, f.dtype, KernelPart::fwd))
    if (cc->params.term_rate(term) > 0)
      return cc->params.term_rate(term);
  for (const ClassCalibration &cc : cal.classes)
    if (cc.dtype == f.dtype && cc.params.term_rate(term) > 0)
      return cc.params.term_rate(term);
  return kLayoutStart;
}

} // namespace perfmodel::gpu
