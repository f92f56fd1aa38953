// Tests of the GPU microbenchmark plans: names, sizes, grids, and FLOP/byte counts vs the core's.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/kernel_graph.hpp"
#include "perfmodel/calibrate/microbench_samples.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/kernels/cuda/gpu_bench.hpp"

using namespace perfmodel;
namespace kg = perfmodel::kernels::cuda;

namespace {

kg::GpuBenchResult measured(const kg::GpuBenchCase &c, double seconds) {
  kg::GpuBenchResult r;
  r.bench = c;
  r.time.median_seconds = seconds;
  return r;
}

} // namespace

TEST_CASE("the plans cover every kind with unique names; quick is a subset of full") {
  const auto full = kg::gpu_bench_plan({});
  kg::GpuBenchOptions q;
  q.quick = true;
  const auto quick = kg::gpu_bench_plan(q);
  std::set<std::string> names;
  std::set<kg::BenchKind> kinds;
  for (const auto &c : full) {
    CHECK_MESSAGE(names.insert(c.name).second, c.name);
    kinds.insert(c.kind);
  }
  CHECK(kinds == std::set<kg::BenchKind>{kg::BenchKind::bandwidth, kg::BenchKind::fma,
                                         kg::BenchKind::gemm, kg::BenchKind::conv,
                                         kg::BenchKind::launch});
  CHECK(quick.size() < full.size());
  CHECK(quick.size() >= 15);
  for (const auto &c : quick)
    CHECK_MESSAGE(names.count(c.name), c.name);
  // Every GEMM variant of the brief is planned.
  for (const char *n : {"gemm/fp32/1024x1024x1024", "gemm/tf32/1024x1024x1024",
                        "gemm/fp16/1024x1024x1024", "gemm/fp16/b64x128x128x128"})
    CHECK_MESSAGE(names.count(n), n);
}

// A class with fewer samples than the fit's minimum is not fitted: predictions for it stay
// uncalibrated, and a plan with no such class at all fails ("no op class had enough samples").
// The quick plan had two GEMMs per dtype and one conv of each class, and the full plan one 1x1
// convolution per dtype (the core's `pointwise` class), which the H200 run of 2026-11-27 showed.
TEST_CASE("both plans give every class they measure enough samples to be fitted") {
  const int min_samples = calibrate::FitOptions{}.min_samples;
  for (bool quick : {true, false}) {
    CAPTURE(quick);
    kg::GpuBenchOptions o;
    o.quick = quick;
    std::vector<kg::GpuBenchResult> results;
    for (const auto &c : kg::gpu_bench_plan(o))
      results.push_back(measured(c, 1e-3));
    std::map<std::pair<std::string, std::string>, int> count;
    for (const auto &s : calibrate::samples_from_benches(kg::as_bench_results(results)))
      ++count[{std::string(to_string(s.op_class)), std::string(to_string(s.dtype))}];
    for (const auto &entry : count) { // not a structured binding: clang 14 (CHECK_MESSAGE)
      const auto &key = entry.first;
      const int n = entry.second;
      CHECK_MESSAGE(n >= min_samples, key.first << "/" << key.second << ": " << n);
    }
    for (const char *cls : {"gemm", "conv", "pointwise"})
      for (const char *dt : {"fp32", "fp16"})
        CHECK_MESSAGE(count.count({cls, dt}), cls << "/" << dt);
    for (const char *cls : {"gemm", "conv", "pointwise"})
      CHECK_MESSAGE(count.count({cls, "tf32"}), cls << "/tf32");
    CHECK(count.count({"data_movement", "fp32"}));
  }
}

TEST_CASE("--only keeps the matching cases") {
  kg::GpuBenchOptions o;
  o.only = "bw/triad";
  const auto plan = kg::gpu_bench_plan(o);
  REQUIRE(plan.size() == 6);
  for (const auto &c : plan)
    CHECK(c.variant == "triad");
  o.only = "no such case";
  CHECK(kg::gpu_bench_plan(o).empty());
}

TEST_CASE("bandwidth cases: float4 arrays, every byte read or written counted once") {
  const auto r = kg::bandwidth_case("read", 4 << 20);
  CHECK(r.name == "bw/read/4MiB");
  CHECK(r.elements == (4 << 20) / 4);
  CHECK(r.bytes == 4.0 * r.elements);
  CHECK(r.flops == 0);
  const auto t = kg::bandwidth_case("triad", 1 << 30);
  CHECK(t.name == "bw/triad/1GiB");
  CHECK(t.elements % 4 == 0);
  CHECK(t.bytes == 3.0 * 4.0 * t.elements);
  CHECK(t.bytes <= double(1 << 30));
  CHECK(t.bytes > 0.999 * double(1 << 30));
  CHECK(t.flops == 2.0 * t.elements);
  CHECK(t.blocks == 4096); // grid-stride loop: capped grid
  const auto c = kg::bandwidth_case("copy", 1 << 20);
  CHECK(c.bytes == 2.0 * 4.0 * c.elements);
  CHECK(c.blocks == (c.elements / 4 + 255) / 256);
  CHECK_THROWS_AS(kg::bandwidth_case("scale", 1 << 20), InputError);
  CHECK_THROWS_AS(kg::bandwidth_case("read", 0), InputError);
}

TEST_CASE("fma cases: an FMA counts 2 FLOPs, a half2 FMA 4") {
  const auto f = kg::fma_case("fp32");
  const double threads = double(f.blocks * f.threads_per_block);
  CHECK(f.flops == 2.0 * kg::kFmaChains * f.fma_iterations * threads);
  CHECK(f.dtype == DType::fp32);
  const auto h = kg::fma_case("half2");
  CHECK(h.flops == 2.0 * f.flops);
  CHECK(h.dtype == DType::fp16);
  CHECK(h.bytes == 0);
  CHECK_THROWS_AS(kg::fma_case("fp64"), InputError);
}

TEST_CASE("gemm cases: 2mnk FLOPs and A, B, C once in the element size of the dtype") {
  const auto g = kg::gemm_case("fp16", {64, 4096, 1024, 1});
  CHECK(g.name == "gemm/fp16/64x4096x1024");
  CHECK(g.flops == 2.0 * 64 * 4096 * 1024);
  CHECK(g.bytes == 2.0 * (64 * 1024 + 4096 * 1024 + 64 * 4096));
  const auto t = kg::gemm_case("tf32", {8, 4, 2, 3});
  CHECK(t.dtype == DType::tf32);
  CHECK(t.bytes == 4.0 * 3 * (8 * 2 + 4 * 2 + 8 * 4)); // tf32 is stored as fp32
  CHECK_THROWS_AS(kg::gemm_case("fp32", {0, 4, 4, 1}), InputError);
  CHECK_THROWS_AS(kg::gemm_case("int8", {4, 4, 4, 1}), InputError);
}

TEST_CASE("conv cases: output size, 2 x MACs, no bias") {
  kg::ConvDims d;
  d.batch = 2, d.c = 3, d.h = d.w = 9, d.out_channels = 4;
  d.kernel_h = d.kernel_w = 3, d.stride_h = d.stride_w = 2, d.pad_h = d.pad_w = 1;
  const auto c = kg::conv_case("fp32", d);
  CHECK(c.name == "conv/fp32/n2c3h9o4k3s2");
  // OH = OW = (9 + 2 - 3) / 2 + 1 = 5
  CHECK(c.flops == 2.0 * (2 * 5 * 5) * 4 * (3 * 3 * 3));
  CHECK(c.bytes == 4.0 * (2 * 3 * 9 * 9 + 4 * 3 * 3 * 3 + 2 * 4 * 5 * 5));
  d.groups = 2;
  CHECK_THROWS_AS(kg::conv_case("fp32", d), InputError); // 3 channels in 2 groups
  d.groups = 1;
  const auto t = kg::conv_case("tf32", d); // fp32 data on tensor cores: stored as fp32
  CHECK(t.name == "conv/tf32/n2c3h9o4k3s2");
  CHECK(t.dtype == DType::tf32);
  CHECK(t.bytes == c.bytes);
  CHECK_THROWS_AS(kg::conv_case("int8", d), InputError);
}

TEST_CASE("every planned GEMM and conv counts exactly as the core does") {
  for (const auto &c : kg::gpu_bench_plan({})) {
    if (c.kind != kg::BenchKind::gemm && c.kind != kg::BenchKind::conv)
      continue;
    const auto b = kg::as_bench_result(measured(c, 1e-3));
    REQUIRE(b);
    const auto s = calibrate::sample_from_bench(*b);
    REQUIRE_MESSAGE(s, c.name);
    CHECK_MESSAGE(s->flops == doctest::Approx(c.flops).epsilon(1e-12), c.name);
    CHECK_MESSAGE(s->bytes == doctest::Approx(c.bytes).epsilon(1e-12), c.name);
    CHECK(s->dtype == c.dtype);
    CHECK(s->source == "microbench:cuda/" + c.name);
  }
}
