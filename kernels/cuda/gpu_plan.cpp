// The GPU microbenchmark plans: sizes, launch grids, FLOP and byte counts (pure C++, no device).
#include <algorithm>
#include <cstdio>
#include <utility>

#include "perfmodel/error.hpp"
#include "perfmodel/kernels/cuda/gpu_bench.hpp"

namespace perfmodel::kernels::cuda {

namespace {

constexpr int64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

std::string bytes_label(int64_t b) {
  char buf[32];
  if (b >= GiB && b % GiB == 0)
    std::snprintf(buf, sizeof buf, "%lldGiB", static_cast<long long>(b / GiB));
  else if (b >= MiB)
    std::snprintf(buf, sizeof buf, "%lldMiB", static_cast<long long>(b / MiB));
  else
    std::snprintf(buf, sizeof buf, "%lldKiB", static_cast<long long>(b / KiB));
  return buf;
}

DType dtype_of_variant(const std::string &v) {
  if (v == "fp32")
    return DType::fp32;
  if (v == "tf32")
    return DType::tf32;
  if (v == "fp16" || v == "half2")
    return DType::fp16;
  throw InputError("gpu bench: unknown variant '" + v + "'");
}

} // namespace

GpuBenchCase bandwidth_case(const std::string &variant, int64_t working_set_bytes) {
  int arrays = 0;
  if (variant == "read")
    arrays = 1;
  else if (variant == "copy")
    arrays = 2;
  else if (variant == "triad")
    arrays = 3;
  else
    throw InputError("gpu bench: unknown bandwidth variant '" + variant + "'");
  if (working_set_bytes <= 0)
    throw InputError("gpu bench: working set must be positive");
  GpuBenchCase c;
  c.kind = BenchKind::bandwidth;
  c.variant = variant;
  c.dtype = DType::fp32;
  // The kernels move float4s: every array holds a multiple of 4 floats.
  c.elements = std::max<int64_t>(working_set_bytes / (4 * arrays) / 4 * 4, 1024);
  c.working_set_bytes = 4 * c.elements * arrays;
  c.threads_per_block = 256;
  c.blocks = std::clamp<int64_t>((c.elements / 4 + 255) / 256, 1, 4096);
  c.bytes = double(c.working_set_bytes);
  c.flops = variant == "triad" ? 2.0 * double(c.elements) : 0.0; // a[i] = b[i] + s * c[i]
  c.name = "bw/" + variant + "/" + bytes_label(working_set_bytes);
  return c;
}

GpuBenchCase fma_case(const std::string &variant) {
  if (variant != "fp32" && variant != "half2")
    throw InputError("gpu bench: unknown fma variant '" + variant + "'");
  GpuBenchCase c;
  c.kind = BenchKind::fma;
  c.variant = variant;
  c.dtype = dtype_of_variant(variant);
  // 256k threads fill every GPU of the last decade several times over (H100: 132 SMs x 2048).
  c.blocks = 1024;
  c.threads_per_block = 256;
  c.fma_iterations = 2048;
  const double fmas = double(c.blocks * c.threads_per_block) * c.fma_iterations * kFmaChains;
  c.flops = fmas * (variant == "half2" ? 4.0 : 2.0); // a half2 FMA is two lanes of 2 FLOPs
  c.name = "fma/" + variant;
  return c;
}

GpuBenchCase gemm_case(const std::string &variant, GemmDims d) {
  if (d.m <= 0 || d.n <= 0 || d.k <= 0 || d.batch <= 0)
    throw InputError("gpu bench: GEMM dimensions must be positive");
  GpuBenchCase c;
  c.kind = BenchKind::gemm;
  c.variant = variant;
  c.dtype = dtype_of_variant(variant);
  if (variant == "half2")
    throw InputError("gpu bench: GEMM variants are fp32, tf32, fp16");
  c.gemm = d;
  const double b = double(d.batch);
  c.flops = 2.0 * b * double(d.m) * double(d.n) * double(d.k);
  c.bytes = double(bytes_of(c.dtype)) * b * double(d.m * d.k + d.n * d.k + d.m * d.n);
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "b" + std::to_string(...).
  c.name = "gemm/" + variant + "/";
  if (d.batch > 1)
    c.name.append("b").append(std::to_string(d.batch)).append("x");
  c.name.append(std::to_string(d.m)).append("x").append(std::to_string(d.n));
  c.name.append("x").append(std::to_string(d.k));
  return c;
}

GpuBenchCase conv_case(const std::string &variant, ConvDims d) {
  if (variant != "fp32" && variant != "tf32" && variant != "fp16")
    throw InputError("gpu bench: conv variants are fp32, tf32 and fp16, got '" + variant + "'");
  if (d.batch <= 0 || d.c <= 0 || d.h <= 0 || d.w <= 0 || d.out_channels <= 0 || d.groups <= 0 ||
      d.c % d.groups || d.out_channels % d.groups || d.out_h() <= 0 || d.out_w() <= 0)
    throw InputError("gpu bench: invalid convolution shape");
  GpuBenchCase c;
  c.kind = BenchKind::conv;
  c.variant = variant;
  c.dtype = dtype_of_variant(variant);
  d.bias = false; // cuDNN's forward convolution alone: no epilogue
  c.conv = d;
  const double cin_g = double(d.c / d.groups);
  const double in = double(d.batch * d.c * d.h * d.w);
  const double wt = double(d.out_channels) * cin_g * double(d.kernel_h * d.kernel_w);
  const double out = double(d.batch * d.out_channels * d.out_h() * d.out_w());
  // M = batch*OH*OW, N = out_channels/groups, K = in_channels/groups*KH*KW, `groups` GEMMs.
  c.flops = 2.0 * out * cin_g * double(d.kernel_h * d.kernel_w);
  c.bytes = double(bytes_of(c.dtype)) * (in + wt + out); // no bias: cuDNN forward alone
  c.name = "conv/" + variant + "/";
  for (auto [tag, v] : {std::pair{"n", d.batch},
                        {"c", d.c},
                        {"h", d.h},
                        {"o", d.out_channels},
                        {"k", d.kernel_h},
                        {"s", d.stride_h},
                        {"g", d.groups}})
    if (tag[0] != 'g' || v > 1)
      c.name.append(tag).append(std::to_string(v));
  return c;
}

GpuBenchCase launch_case() {
  GpuBenchCase c;
  c.kind = BenchKind::launch;
  c.variant = "empty";
  c.blocks = 1;
  c.threads_per_block = 1;
  c.name = "launch/empty";
  return c;
}

std::vector<GpuBenchCase> gpu_bench_plan(const GpuBenchOptions &opts) {
  auto conv = [](int64_t n, int64_t c, int64_t hw, int64_t oc, int64_t k, int64_t s) {
    ConvDims d;
    d.batch = n, d.c = c, d.h = d.w = hw, d.out_channels = oc;
    d.kernel_h = d.kernel_w = k, d.stride_h = d.stride_w = s, d.pad_h = d.pad_w = k / 2;
    return d;
  };
  std::vector<GpuBenchCase> plan;
  plan.push_back(launch_case());
  for (const char *v : {"fp32", "half2"})
    plan.push_back(fma_case(v));

  // From L2-resident (1-4 MiB fits every L2 since Pascal) to far beyond any L2 (256 MiB, 1 GiB).
  const std::vector<int64_t> sets =
      opts.quick ? std::vector<int64_t>{4 * MiB, 64 * MiB, 256 * MiB}
                 : std::vector<int64_t>{1 * MiB, 4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, 1 * GiB};
  for (int64_t ws : sets)
    for (const char *v : {"read", "copy", "triad"})
      plan.push_back(bandwidth_case(v, ws));

  // Square sizes, skinny (small-batch linear) and a batched product.
  std::vector<GemmDims> shapes =
      opts.quick
          ? std::vector<GemmDims>{{1024, 1024, 1024, 1}, {4096, 4096, 4096, 1}, {64, 4096, 4096, 1}}
          : std::vector<GemmDims>{
                {256, 256, 256, 1},    {512, 512, 512, 1},    {1024, 1024, 1024, 1},
                {2048, 2048, 2048, 1}, {4096, 4096, 4096, 1}, {64, 4096, 4096, 1},
                {4096, 64, 4096, 1},   {4096, 4096, 256, 1},  {128, 128, 128, 64}};
  for (const char *v : {"fp32", "tf32", "fp16"})
    for (const GemmDims &d : shapes)
      plan.push_back(gemm_case(v, d));

  // A generic spread of channel counts, spatial sizes, kernel sizes and strides. The core
  // classes a 1x1 stride-1 convolution as `pointwise` (a plain GEMM on the input), the others
  // as `conv`: each plan gives both classes at least FitOptions::min_samples (3) shapes per
  // dtype, so that both are fitted (gpu_plan_test checks it).
  std::vector<ConvDims> convs =
      opts.quick
          ? std::vector<ConvDims>{conv(32, 64, 56, 64, 3, 1),   conv(32, 128, 28, 128, 3, 1),
                                  conv(32, 256, 28, 512, 1, 2), conv(32, 256, 14, 256, 1, 1),
                                  conv(32, 64, 56, 256, 1, 1),  conv(32, 1024, 14, 256, 1, 1)}
          : std::vector<ConvDims>{conv(32, 3, 224, 64, 7, 2),    conv(32, 64, 56, 64, 3, 1),
                                  conv(32, 128, 28, 128, 3, 1),  conv(32, 512, 7, 512, 3, 1),
                                  conv(32, 256, 28, 512, 1, 2),  conv(32, 256, 14, 256, 1, 1),
                                  conv(32, 64, 56, 256, 1, 1),   conv(32, 256, 56, 64, 1, 1),
                                  conv(32, 1024, 14, 256, 1, 1), conv(32, 512, 7, 2048, 1, 1)};
  for (const char *v : {"fp32", "tf32", "fp16"})
    for (const ConvDims &d : convs)
      plan.push_back(conv_case(v, d));

  if (!opts.only.empty())
    std::erase_if(
        plan, [&](const GpuBenchCase &c) { return c.name.find(opts.only) == std::string::npos; });
  return plan;
}

} // namespace perfmodel::kernels::cuda
