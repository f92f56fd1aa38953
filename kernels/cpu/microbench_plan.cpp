// The microbenchmark plans: a generic sweep of sizes chosen to cover the classes the executor
// runs (GEMM shapes, conv paths, maps, pools, copies) without copying any model's layer shapes.
#include <array>
#include <cstdio>

#include "perfmodel/kernels/cpu/microbench.hpp"

namespace perfmodel::kernels::cpu {

namespace {

std::string bytes_label(int64_t b) {
  char buf[32];
  if (b >= (1 << 20))
    std::snprintf(buf, sizeof buf, "%lldMiB", static_cast<long long>(b >> 20));
  else
    std::snprintf(buf, sizeof buf, "%lldKiB", static_cast<long long>(b >> 10));
  return buf;
}

BenchCase gemm_case(int64_t m, int64_t n, int64_t k) {
  BenchCase c;
  c.kind = BenchKind::gemm;
  c.name = "gemm/" + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  c.gemm = GemmDims{m, n, k, 1};
  return c;
}

// The same convolution with another epilogue (the plan's convolutions have a bias and no fused
// activation): none at all (ResNet-50's ONNX convolutions), or a fused ReLU after the bias (NIN's
// layers). What a pass over C costs depends on how the product is split (docs/model.md,
// "Work split and epilogue, t_e"), so these cases are products the executor splits by columns.
BenchCase with_epilogue(BenchCase b, bool bias, bool relu) {
  b.conv->bias = bias;
  b.conv->relu = relu;
  b.name += relu ? (bias ? "/bias+relu" : "/relu") : (bias ? "" : "/nobias");
  return b;
}

BenchCase bw_case(const std::string &variant, int64_t bytes) {
  BenchCase c;
  c.kind = BenchKind::bandwidth;
  c.variant = variant;
  c.working_set_bytes = bytes;
  c.name = "bw/" + variant + "/" + bytes_label(bytes);
  return c;
}

BenchCase map_case(const std::string &variant, int64_t bytes) {
  BenchCase c = bw_case(variant, bytes);
  c.kind = BenchKind::elementwise;
  c.name = "elementwise/" + variant + "/" + bytes_label(bytes);
  return c;
}

BenchCase pool_case(const std::string &variant, int64_t c, int64_t hw, int64_t k, int64_t s) {
  BenchCase b;
  b.kind = BenchKind::pool;
  b.variant = variant;
  ConvDims d;
  d.c = c, d.h = d.w = hw, d.out_channels = c, d.kernel_h = d.kernel_w = k;
  d.stride_h = d.stride_w = s;
  d.pad_h = d.pad_w = variant == "global" ? 0 : k / 2;
  b.conv = d;
  b.name = "pool/" + variant + "/c" + std::to_string(c) + "h" + std::to_string(hw) + "k" +
           std::to_string(k) + "s" + std::to_string(s);
  return b;
}

} // namespace

BenchCase conv_case(int64_t batch, int64_t c, int64_t hw, int64_t oc, int64_t k, int64_t stride,
                    int64_t groups) {
  BenchCase b;
  b.kind = BenchKind::conv;
  ConvDims d;
  d.batch = batch, d.c = c, d.h = hw, d.w = hw, d.out_channels = oc;
  d.kernel_h = d.kernel_w = k;
  d.stride_h = d.stride_w = stride;
  d.pad_h = d.pad_w = k / 2;
  d.groups = groups;
  b.conv = d;
  b.variant = groups == c && groups > 1 ? "depthwise"
              : (k == 1 && stride == 1) ? "direct1x1"
                                        : "im2col";
  b.name = "conv/" + b.variant + "/n" + std::to_string(batch) + "c" + std::to_string(c) + "h" +
           std::to_string(hw) + "o" + std::to_string(oc) + "k" + std::to_string(k) + "s" +
           std::to_string(stride);
  return b;
}

std::vector<BenchCase> microbench_plan(const MicrobenchOptions &opts) {
  const bool q = opts.quick;
  std::vector<BenchCase> p;
  // Peak FLOP/s: all threads fp32 and fp64, and one thread fp32 (the per-core figure).
  for (DType t : {DType::fp32, DType::fp64}) {
    BenchCase c;
    c.kind = BenchKind::fma;
    c.dtype = t;
    c.name = std::string("fma/") + (t == DType::fp32 ? "fp32" : "fp64");
    p.push_back(c);
  }
  {
    BenchCase c;
    c.kind = BenchKind::fma;
    c.threads = 1;
    c.name = "fma/fp32/1thread";
    p.push_back(c);
  }
  // Launch overhead: waking the pool for empty work, and starting a std::thread.
  for (const char *v : {"pool", "thread"}) {
    BenchCase c;
    c.kind = BenchKind::launch;
    c.variant = v;
    c.name = std::string("launch/") + v;
    p.push_back(c);
  }
  // Bandwidth over working sets from L1 to DRAM (all threads: each core streams its slice).
  const std::vector<int64_t> ws =
      q ? std::vector<int64_t>{48 << 10, 1 << 20, 12 << 20, 192 << 20}
        : std::vector<int64_t>{24 << 10, 48 << 10, 256 << 10, 1 << 20,  3 << 20,
                               12 << 20, 24 << 20, 64 << 20,  192 << 20};
  for (const char *v : {"read", "copy", "triad"})
    for (int64_t b : ws)
      p.push_back(bw_case(v, b));
  // GEMM: small, skinny (matrix-vector like), conv-like (few rows, many columns), large.
  std::vector<std::array<int64_t, 3>> gemms = {
      {48, 48, 48},     {96, 96, 96},     {200, 200, 200}, {400, 400, 400}, {900, 900, 900},
      {1, 3000, 1500},  {1, 1500, 6000},  {8, 2000, 2000}, {40, 5000, 300}, {80, 2500, 700},
      {160, 600, 1400}, {300, 150, 2700}, {600, 40, 5000}, {24, 9000, 100}};
  if (!q) {
    for (auto s : std::vector<std::array<int64_t, 3>>{{1400, 1400, 1400},
                                                      {1, 6000, 6000},
                                                      {3, 4000, 3000},
                                                      {20, 1000, 20},
                                                      {120, 12000, 40},
                                                      {200, 3000, 200},
                                                      {500, 300, 500},
                                                      {700, 90, 3000},
                                                      {1000, 20, 1000},
                                                      {50, 900, 900},
                                                      {2000, 2000, 64},
                                                      {64, 64, 4000}})
      gemms.push_back(s);
  }
  for (auto [m, n, k] : gemms)
    p.push_back(gemm_case(m, n, k));
  // Convolutions on each executor path; sizes log-spaced between the extremes of CNNs.
  std::vector<BenchCase> convs = {
      // im2col: first layers (few input channels, large images), 3x3 and 5x5 bodies, strides
      conv_case(1, 3, 160, 40, 5, 2), conv_case(1, 24, 80, 24, 3, 1),
      conv_case(1, 48, 40, 96, 3, 1), conv_case(1, 96, 20, 192, 3, 1),
      conv_case(1, 200, 10, 400, 3, 1), conv_case(1, 48, 40, 96, 3, 2),
      conv_case(1, 40, 150, 40, 3, 1), conv_case(2, 24, 60, 80, 7, 3),
      conv_case(3, 80, 20, 160, 5, 1), conv_case(1, 100, 30, 100, 1, 2),
      // direct 1x1: wide and narrow channel counts, large and small images
      conv_case(1, 40, 40, 160, 1, 1), conv_case(1, 160, 20, 48, 1, 1),
      conv_case(1, 400, 10, 800, 1, 1), conv_case(1, 24, 90, 120, 1, 1),
      conv_case(1, 900, 6, 160, 1, 1), conv_case(3, 80, 40, 80, 1, 1),
      // depthwise: stride 1 and 2, large to small images
      conv_case(1, 96, 40, 96, 3, 1, 96), conv_case(1, 240, 20, 240, 3, 2, 240),
      conv_case(1, 20, 100, 20, 3, 1, 20), conv_case(1, 60, 80, 60, 3, 2, 60),
      conv_case(1, 500, 12, 500, 3, 1, 500), conv_case(1, 800, 8, 800, 3, 2, 800)};
  if (!q) {
    for (auto c : {conv_case(1, 3, 300, 32, 3, 1),          conv_case(1, 16, 150, 16, 3, 1),
                   conv_case(1, 32, 120, 64, 3, 1),         conv_case(1, 72, 30, 72, 5, 1),
                   conv_case(1, 300, 12, 300, 3, 1),        conv_case(1, 700, 5, 700, 3, 1),
                   conv_case(1, 120, 30, 240, 3, 2),        conv_case(1, 20, 100, 80, 1, 1),
                   conv_case(1, 80, 50, 20, 1, 1),          conv_case(1, 600, 10, 150, 1, 1),
                   conv_case(1, 1200, 5, 300, 1, 1),        conv_case(1, 150, 10, 1200, 1, 1),
                   conv_case(1, 120, 30, 120, 1, 2),        conv_case(1, 24, 120, 24, 3, 1, 24),
                   conv_case(1, 48, 60, 48, 3, 2, 48),      conv_case(1, 480, 10, 480, 3, 1, 480),
                   conv_case(1, 800, 6, 800, 5, 1, 800),    conv_case(3, 64, 30, 160, 5, 1),
                   conv_case(4, 100, 12, 200, 3, 1),        conv_case(4, 3, 200, 64, 9, 4),
                   conv_case(1, 320, 5, 1000, 1, 1),        conv_case(1, 1000, 5, 320, 1, 1),
                   conv_case(1, 64, 70, 256, 1, 1),         conv_case(1, 250, 70, 60, 1, 1),
                   conv_case(4, 90, 50, 90, 1, 1),          conv_case(4, 200, 25, 200, 1, 1),
                   conv_case(1, 120, 50, 120, 3, 1, 120),   conv_case(1, 300, 25, 300, 3, 2, 300),
                   conv_case(1, 1000, 5, 1000, 3, 1, 1000), conv_case(1, 40, 200, 40, 3, 1, 40),
                   conv_case(1, 56, 110, 56, 3, 1),         conv_case(1, 140, 50, 140, 3, 1),
                   conv_case(1, 350, 25, 350, 3, 1),        conv_case(2, 200, 12, 300, 3, 1),
                   conv_case(1, 6, 250, 48, 7, 2),          conv_case(1, 200, 60, 400, 1, 2),
                   conv_case(1, 100, 90, 100, 3, 2, 100),   conv_case(1, 400, 16, 400, 3, 2, 400),
                   conv_case(1, 30, 150, 30, 3, 2, 30),     conv_case(1, 600, 9, 600, 3, 1, 600),
                   conv_case(1, 320, 18, 320, 3, 1, 320),   conv_case(1, 160, 36, 160, 3, 1, 160),
                   conv_case(1, 1200, 4, 1200, 3, 1, 1200), conv_case(1, 64, 64, 64, 3, 1, 64),
                   conv_case(1, 250, 24, 250, 3, 1, 250),   conv_case(1, 700, 11, 700, 3, 1, 700)})
      convs.push_back(c);
  }
  // Epilogues: each of these without the bias, and with a fused ReLU after it.
  std::vector<BenchCase> epilogue_bases = {conv_case(1, 40, 40, 160, 1, 1),
                                           conv_case(1, 48, 40, 96, 3, 1)};
  if (!q)
    for (auto c : {conv_case(1, 24, 90, 120, 1, 1), conv_case(1, 64, 70, 256, 1, 1),
                   conv_case(3, 80, 40, 80, 1, 1), conv_case(1, 160, 20, 48, 1, 1),
                   conv_case(1, 24, 80, 24, 3, 1), conv_case(1, 96, 20, 192, 3, 1)})
      epilogue_bases.push_back(c);
  for (const BenchCase &c : epilogue_bases) {
    convs.push_back(with_epilogue(c, false, false));
    convs.push_back(with_epilogue(c, true, true));
  }
  p.insert(p.end(), convs.begin(), convs.end());
  // Maps (activations, binary ops, batch norm) over working sets from L1 to DRAM.
  const std::vector<int64_t> mws =
      q ? std::vector<int64_t>{64 << 10, 2 << 20, 64 << 20}
        : std::vector<int64_t>{32 << 10, 256 << 10, 2 << 20, 8 << 20, 32 << 20, 96 << 20};
  for (const char *v : {"relu", "add", "add_bcast", "batchnorm", "sigmoid"})
    for (int64_t b : mws)
      p.push_back(map_case(v, b));
  // Pools.
  p.push_back(pool_case("max", 48, 100, 3, 2));
  p.push_back(pool_case("avg", 200, 30, 3, 1));
  p.push_back(pool_case("global", 1500, 9, 9, 1));
  p.push_back(pool_case("max", 60, 120, 3, 2));
  p.push_back(pool_case("global", 300, 20, 20, 1));
  if (!q) {
    p.push_back(pool_case("avg", 500, 12, 3, 1));
    p.push_back(pool_case("max", 200, 60, 3, 2));
    p.push_back(pool_case("max", 100, 50, 2, 2));
    p.push_back(pool_case("max", 300, 25, 3, 2));
    p.push_back(pool_case("global", 200, 40, 40, 1));
  }
  std::vector<BenchCase> out;
  for (auto &c : p)
    if (opts.only.empty() || c.name.find(opts.only) != std::string::npos)
      out.push_back(c);
  return out;
}

} // namespace perfmodel::kernels::cpu
