// Known answers of the GPU target's layouts: which layout a convolution's kernel takes, the
// bytes its conversions move in the other one, and the time they add to a prediction
// (include/perfmodel/targets/gpu/layout.hpp, docs/gpu_model.md "Layouts").
#include <doctest/doctest.h>

#include "perfmodel/calibration.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/layout.hpp"
#include "perfmodel/targets/gpu.hpp"
#include "perfmodel/targets/gpu/layout.hpp"

using namespace perfmodel;
using namespace perfmodel::gpu;

namespace {

// A batch-32 convolution of c to k channels over a hw x hw plane ("same" padding).
KernelFeatures conv(DType dtype, Layout layout, int64_t c, int64_t k, int64_t hw, int64_t kernel,
                    int64_t stride = 1, KernelPart pass = KernelPart::fwd) {
  ConvGeometry g;
  g.batch = 32;
  g.in_channels = c;
  g.out_channels = k;
  g.in_h = g.in_w = hw;
  g.out_h = g.out_w = (hw + 2 * (kernel / 2) - kernel) / stride + 1;
  g.kernel_h = g.kernel_w = kernel;
  g.stride_h = g.stride_w = stride;
  KernelFeatures f;
  f.op_class = kernel == 1 && stride == 1 ? OpClass::pointwise : OpClass::conv;
  f.dtype = dtype;
  f.pass = pass;
  f.layout = layout;
  f.conv = g;
  const int64_t m = g.batch * g.out_h * g.out_w, kk = c * kernel * kernel;
  f.gemm = GemmShape{m, k, kk, 1};
  f.flops = 2.0 * double(m) * double(k) * double(kk);
  f.bytes = double(bytes_of(dtype)) * double(g.batch * c * hw * hw + k * kk + m * k);
  return f;
}

// 2 * (input + output elements) * element size of conv(...)'s call.
double activations_twice(const KernelFeatures &f) {
  const ConvGeometry &g = *f.conv;
  return 2.0 * double(bytes_of(f.dtype)) *
         double(g.batch * (g.in_channels * g.in_h * g.in_w + g.out_channels * g.out_h * g.out_w));
}

EfficiencyParams params(double layout_rate) {
  EfficiencyParams p;
  p.peak_flops_per_second = 5e14;
  p.bytes_per_second = {4e12};
  p.overhead_seconds = 2e-6;
  p.term_rates = {0.0, 0.0, layout_rate}; // split-K, CTA starts, layout
  return p;
}

Calibration h200_with(std::vector<ClassCalibration> classes) {
  Calibration c;
  c.hardware = "h200";
  c.cores = 132;
  c.memory_levels = {{"dram", 0}};
  c.target = &gpu::target();
  c.classes = std::move(classes);
  return c;
}

HwSpec h200_spec() {
  HwSpec hw;
  hw.name = "h200";
  hw.kind = "gpu";
  hw.units = 132;
  hw.memory = {MemoryLevel{"dram", 4.8e12, 0}};
  return hw;
}

} // namespace

TEST_CASE("fp32 convolutions are NCHW-native, the tensor-core dtypes NHWC-native") {
  CHECK(native_layout(conv(DType::fp32, Layout::nchw, 64, 64, 56, 3)) == Layout::nchw);
  CHECK(native_layout(conv(DType::fp32, Layout::nchw, 64, 256, 56, 1)) == Layout::nchw);
  // A 3-channel fp32 first layer runs in either layout.
  CHECK_FALSE(native_layout(conv(DType::fp32, Layout::nhwc, 3, 64, 224, 7, 2)).has_value());
  for (DType d : {DType::tf32, DType::fp16, DType::bf16}) {
    CHECK(native_layout(conv(d, Layout::nchw, 64, 64, 56, 3)) == Layout::nhwc);
    CHECK(native_layout(conv(d, Layout::nchw, 3, 64, 224, 7, 2)) == Layout::nhwc);   // unaligned
    CHECK(native_layout(conv(d, Layout::nchw, 256, 512, 56, 1, 2)) == Layout::nhwc); // strided
    // A plain 1x1 convolution over a large plane runs in either (a batched GEMM on NCHW planes).
    CHECK_FALSE(native_layout(conv(d, Layout::nchw, 64, 256, 56, 1)).has_value());
    CHECK_FALSE(native_layout(conv(d, Layout::nhwc, 128, 512, 28, 1)).has_value());
    CHECK(native_layout(conv(d, Layout::nchw, 256, 1024, 14, 1)) == Layout::nhwc);
  }
  // Depthwise convolutions are NHWC-native in every dtype; other grouped convolutions and
  // non-convolutions have no conversion either way.
  for (DType d : {DType::fp32, DType::fp16}) {
    KernelFeatures dw = conv(d, Layout::nchw, 96, 96, 56, 3);
    dw.conv->groups = 96;
    dw.op_class = OpClass::depthwise;
    CHECK(native_layout(dw) == Layout::nhwc);
    CHECK(layout_conversion_bytes(dw) == doctest::Approx(activations_twice(dw)));
  }
  KernelFeatures grouped = conv(DType::fp16, Layout::nchw, 96, 96, 56, 3);
  grouped.conv->groups = 4;
  CHECK_FALSE(native_layout(grouped).has_value());
  CHECK(layout_conversion_bytes(grouped) == 0);
  KernelFeatures gemm;
  gemm.op_class = OpClass::gemm;
  gemm.dtype = DType::fp16;
  gemm.gemm = GemmShape{512, 512, 512, 1};
  CHECK_FALSE(native_layout(gemm).has_value());
}

TEST_CASE("a call in the other layout converts its input and output once each way") {
  const KernelFeatures nchw16 = conv(DType::fp16, Layout::nchw, 64, 128, 56, 3, 2);
  // 32x64x56x56 in, 32x128x28x28 out, fp16, each read and written: 2 * 2 * (6,422,528 +
  // 3,211,264) bytes.
  CHECK(layout_conversion_bytes(nchw16) == doctest::Approx(2.0 * 2.0 * (6422528.0 + 3211264.0)));
  CHECK(layout_conversion_bytes(nchw16) == doctest::Approx(activations_twice(nchw16)));
  CHECK(layout_conversion_bytes(conv(DType::fp16, Layout::nhwc, 64, 128, 56, 3, 2)) == 0);
  CHECK(layout_conversion_bytes(conv(DType::fp32, Layout::nchw, 64, 128, 56, 3, 2)) == 0);
  const KernelFeatures nhwc32 = conv(DType::fp32, Layout::nhwc, 64, 128, 56, 3, 2);
  CHECK(layout_conversion_bytes(nhwc32) == doctest::Approx(activations_twice(nhwc32)));
  // Every pass part converts the same two activations (dY and dX; X and dY).
  for (KernelPart p : {KernelPart::bwd_data, KernelPart::bwd_weight})
    CHECK(layout_conversion_bytes(conv(DType::fp16, Layout::nchw, 64, 128, 56, 3, 2, p)) ==
          doctest::Approx(layout_conversion_bytes(nchw16)));
  // The target reports them as its layout term.
  const Calibration cal = h200_with({});
  const EfficiencyTerms e = efficiency_terms(cal, 1, 1, nchw16);
  REQUIRE(e.term_bytes.size() == gpu::target().terms().size());
  CHECK(e.term_bytes[kLayout] == doctest::Approx(layout_conversion_bytes(nchw16)));
  CHECK(e.term_joins[kLayout] == TermJoin::serial);
  CHECK(gpu::target().terms()[kLayout].key == "layout_bytes_per_second");
}

TEST_CASE("the conversions add bytes / rate to a prediction, at the class's rate or a fallback") {
  const HwSpec hw = h200_spec();
  const KernelFeatures nchw = conv(DType::fp16, Layout::nchw, 256, 256, 28, 3);
  const KernelFeatures nhwc = conv(DType::fp16, Layout::nhwc, 256, 256, 28, 3);
  const double bytes = layout_conversion_bytes(nchw);
  REQUIRE(bytes > 0);

  ClassCalibration fwd{OpClass::conv, DType::fp16, params(2e12)};
  fwd.pass = KernelPart::fwd;
  const Calibration fitted = h200_with({fwd});
  const double diff =
      calibrated_time(fitted, hw, nchw).seconds - calibrated_time(fitted, hw, nhwc).seconds;
  CHECK(diff == doctest::Approx(bytes / 2e12));

  // A class without a rate of its own: the forward class's of its op class and dtype.
  ClassCalibration data{OpClass::conv, DType::fp16, params(0.0)};
  data.pass = KernelPart::bwd_data;
  const Calibration split = h200_with({fwd, data});
  const KernelFeatures bd_nchw =
      conv(DType::fp16, Layout::nchw, 256, 256, 28, 3, 1, KernelPart::bwd_data);
  const KernelFeatures bd_nhwc =
      conv(DType::fp16, Layout::nhwc, 256, 256, 28, 3, 1, KernelPart::bwd_data);
  CHECK(calibrated_time(split, hw, bd_nchw).seconds - calibrated_time(split, hw, bd_nhwc).seconds ==
        doctest::Approx(bytes / 2e12));

  // No class of the dtype has one: the start rate.
  ClassCalibration bare{OpClass::conv, DType::fp16, params(0.0)};
  const Calibration none = h200_with({bare});
  CHECK(calibrated_time(none, hw, nchw).seconds - calibrated_time(none, hw, nhwc).seconds ==
        doctest::Approx(bytes / kLayoutStart));

  // The generic target has no layout term: the layout changes nothing.
  Calibration generic = h200_with({bare});
  generic.target = nullptr;
  CHECK(calibrated_time(generic, hw, nchw).seconds ==
        doctest::Approx(calibrated_time(generic, hw, nhwc).seconds));
}
