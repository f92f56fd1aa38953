// Tests of the GPU result helpers: event-time statistics, batching, the CPU-result view.
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/calibrate/microbench_samples.hpp"
#include "perfmodel/kernels/cuda/gpu_bench.hpp"

using namespace perfmodel;
namespace kg = perfmodel::kernels::cuda;

TEST_CASE("event milliseconds become seconds per call; median, min, max, noisy") {
  const auto s = kg::stats_from_event_ms({3.0f, 1.0f, 2.0f, 2.0f, 2.0f}, 3, 10);
  CHECK(s.iters == 5);
  CHECK(s.warmup == 3);
  CHECK(s.median_seconds == rel(2e-4));
  CHECK(s.min_seconds == rel(1e-4));
  CHECK(s.max_seconds == rel(3e-4));
  CHECK(s.mean_seconds == rel(2e-4));
  CHECK(s.noisy); // (3 - 1) / 2 = 100% range
  CHECK(s.cache_state == "warm");
  CHECK(s.samples_seconds.size() == 5);

  const auto even = kg::stats_from_event_ms({1.0f, 1.02f, 0.99f, 1.01f}, 0, 1);
  CHECK(even.median_seconds == doctest::Approx(1.005e-3).epsilon(1e-6));
  CHECK_FALSE(even.noisy);
  CHECK(even.cache_state == "not warmed");

  const auto none = kg::stats_from_event_ms({}, 1, 1);
  CHECK(none.iters == 0);
  CHECK(none.median_seconds == 0);
  CHECK(kg::stats_from_event_ms({4.0f}, 1, 0).median_seconds == rel(4e-3));
}

TEST_CASE("short kernels are batched so one sample lasts about the target") {
  CHECK(kg::choose_inner(1e-2) == 1);
  CHECK(kg::choose_inner(2e-4) == 1);
  CHECK(kg::choose_inner(1e-4) == 2);
  CHECK(kg::choose_inner(3e-6) == 67);
  CHECK(kg::choose_inner(1e-9) == 1000);
  CHECK(kg::choose_inner(0) == 1000); // below event resolution
  CHECK(kg::choose_inner(1e-6, 2e-4, 50) == 50);
}

TEST_CASE("results convert to CPU BenchResults; skipped and unmeasured ones do not") {
  kg::GpuBenchResult ok;
  ok.bench = kg::bandwidth_case("copy", 1 << 20);
  ok.time.median_seconds = 1e-5;
  CHECK(ok.bytes_per_second() == doctest::Approx(ok.bench.bytes / 1e-5));
  kg::GpuBenchResult skipped = ok;
  skipped.skipped = "tf32 needs compute capability >= 8.0";
  kg::GpuBenchResult unmeasured = ok;
  unmeasured.time.median_seconds = 0;
  CHECK(unmeasured.flops_per_second() == 0);
  const auto v = kg::as_bench_results({ok, skipped, unmeasured});
  REQUIRE(v.size() == 1);
  CHECK(v[0].bench.name == "cuda/bw/copy/1MiB");
  CHECK(v[0].bytes == ok.bench.bytes);
  CHECK(v[0].threads == ok.bench.blocks * ok.bench.threads_per_block);
  // A GPU copy is a data-movement sample; read bandwidth and FMA peaks only describe the machine.
  const auto s = calibrate::sample_from_bench(v[0]);
  REQUIRE(s);
  CHECK(s->op_class == OpClass::data_movement);
  kg::GpuBenchResult fma;
  fma.bench = kg::fma_case("fp32");
  fma.time.median_seconds = 1e-3;
  const auto ref = calibrate::microbench_reference(kg::as_bench_results({fma, ok}));
  CHECK(ref.fma_flops_per_second == doctest::Approx(fma.bench.flops / 1e-3));
  CHECK(ref.best_bytes_per_second == doctest::Approx(ok.bench.bytes / 1e-5));
}
