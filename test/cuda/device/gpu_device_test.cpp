// Tests that need a real GPU (registered only with -DPERFMODEL_DEVICE_TESTS=ON): query,
// cuBLAS correctness against a CPU reference, every benchmark kind measuring something sane.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "kernels/cuda/nvml_energy.hpp"
#include "perfmodel/kernels/cuda/gpu_bench.hpp"

using namespace perfmodel;
namespace kg = perfmodel::kernels::cuda;

namespace {

kg::GpuBenchResult run_one(const kg::GpuBenchCase &c) {
  kg::GpuBenchOptions o;
  o.warmup = 2;
  o.iters = 5;
  return kg::run_gpu_bench(c, o);
}

std::vector<float> pattern(size_t n, int seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float(int((i * 7 + seed * 13) % 17) - 8) / 8.0f;
  return v;
}

} // namespace

TEST_CASE("device 0 reports plausible properties") {
  const auto d = kg::query_device(0);
  CHECK_FALSE(d.name.empty());
  CHECK(d.sm_count > 0);
  CHECK(d.cc_major >= 5);
  CHECK(d.sm_clock_hz > 1e8);
  CHECK(d.memory_bytes > 1e9);
  CHECK(d.theoretical_bytes_per_second() > 1e10);
  MESSAGE(d.name << ": " << d.sm_count << " SMs, cc " << d.cc_major << "." << d.cc_minor);
}

TEST_CASE("cuBLAS GEMM matches a CPU reference (fp32 exactly-ish, tf32/fp16 loosely)") {
  const kg::GemmDims g{33, 17, 65, 1};
  const auto a = pattern(size_t(g.m * g.k), 1), b = pattern(size_t(g.n * g.k), 2);
  std::vector<double> ref(size_t(g.m * g.n));
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < g.k; ++p)
        s += double(a[i * g.k + p]) * b[j * g.k + p]; // B^T
      ref[i * g.n + j] = s;
    }
  const auto dev = kg::query_device(0);
  for (DType t : {DType::fp32, DType::tf32, DType::fp16}) {
    if (t == DType::tf32 && dev.cc_major < 8)
      continue;
    const auto c = kg::gemm_on_device(g, t, a, b);
    REQUIRE(c.size() == ref.size());
    // The inputs are multiples of 1/8 (exact in fp16 and tf32); fp16 output rounds to 11 bits.
    const double tol = t == DType::fp16 ? 2e-2 : 1e-4;
    for (size_t i = 0; i < c.size(); ++i)
      REQUIRE_MESSAGE(std::abs(c[i] - ref[i]) <= tol * (1 + std::abs(ref[i])),
                      to_string(t) << " at " << i << ": " << c[i] << " vs " << ref[i]);
  }
}

TEST_CASE("bandwidth, FMA and launch benchmarks measure positive, bounded rates") {
  const auto dev = kg::query_device(0);
  for (const char *v : {"read", "copy", "triad"}) {
    const auto r = run_one(kg::bandwidth_case(v, 256 << 20));
    REQUIRE_MESSAGE(r.skipped.empty(), r.skipped);
    CHECK(r.bytes_per_second() > 1e10);
    // DRAM-sized: no faster than 1.5x the datasheet figure (L2 cannot hold 256 MiB).
    CHECK(r.bytes_per_second() < 1.5 * dev.theoretical_bytes_per_second());
    CHECK(r.time.min_seconds <= r.time.median_seconds);
    CHECK(r.time.median_seconds <= r.time.max_seconds);
  }
  const auto f = run_one(kg::fma_case("fp32"));
  REQUIRE_MESSAGE(f.skipped.empty(), f.skipped);
  // At most 128 FP32 lanes per SM per clock, 2 FLOPs each.
  CHECK(f.flops_per_second() > 1e11);
  CHECK(f.flops_per_second() < 1.05 * 2 * 128 * dev.sm_count * dev.sm_clock_hz);
  const auto h = run_one(kg::fma_case("half2"));
  // Pascal consumer parts run fp16 at 1/64 rate: only require a measurement.
  if (h.skipped.empty())
    CHECK(h.flops_per_second() > 0);
  const auto l = run_one(kg::launch_case());
  CHECK(l.time.median_seconds > 1e-7);
  CHECK(l.time.median_seconds < 1e-4);
  CHECK(l.inner > 1);
}

TEST_CASE("cuBLAS and cuDNN cases run and beat no peak") {
  for (const char *v : {"fp32", "tf32", "fp16"}) {
    const auto r = run_one(kg::gemm_case(v, {1024, 1024, 1024, 1}));
    if (!r.skipped.empty()) {
      MESSAGE(v << " skipped: " << r.skipped);
      continue;
    }
    CHECK(r.flops_per_second() > 1e11);
    CHECK(r.flops_per_second() < 5e15);
    // the library's kernels from a CUDA graph's replays, not the host's cost of each call
    CHECK_MESSAGE(r.algorithm.ends_with(", graph replay"), r.algorithm);
  }
  kg::ConvDims d;
  d.batch = 8, d.c = 64, d.h = d.w = 28, d.out_channels = 64;
  d.kernel_h = d.kernel_w = 3, d.pad_h = d.pad_w = 1;
  for (const char *v : {"fp32", "tf32", "fp16"}) {
    const auto r = run_one(kg::conv_case(v, d));
    if (std::string(v) == "tf32" && !r.skipped.empty()) {
      MESSAGE("tf32 skipped: " << r.skipped); // compute capability < 8.0
      continue;
    }
    REQUIRE_MESSAGE(r.skipped.empty(), r.skipped);
    CHECK(r.flops_per_second() > 1e10);
    CHECK_MESSAGE(r.algorithm.ends_with(", graph replay"), r.algorithm);
    const bool layout = r.algorithm.find(", NCHW") != std::string::npos ||
                        r.algorithm.find(", NHWC") != std::string::npos;
    CHECK_MESSAGE(layout, r.algorithm);
  }
}

TEST_CASE("NVML, when present, reads energy that does not go backwards") {
  const kg::NvmlEnergy nvml;
  if (!nvml.available()) {
    MESSAGE(nvml.status());
    return;
  }
  const auto a = nvml.read();
  (void)run_one(kg::gemm_case("fp32", {2048, 2048, 2048, 1}));
  const auto b = nvml.read();
  if (auto e = kg::energy_between(a, b))
    CHECK(*e >= 0);
  if (b.power_watts)
    CHECK(*b.power_watts > 0);
}
