// Google Benchmark harness for the CPU kernels the executor runs (for tuning them; the
// calibration uses kernels/cpu/microbench_plan.cpp, not this file).
#include <benchmark/benchmark.h>

#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/gemm.hpp"
#include "kernels/cpu/pool.hpp"
#include "kernels/cpu/tensor.hpp"

namespace kc = perfmodel::kernels::cpu;

namespace {

void BM_Gemm(benchmark::State &st) {
  const int64_t m = st.range(0), n = st.range(1), k = st.range(2);
  kc::Tensor a = kc::random_tensor({m, k}, 1), b = kc::random_tensor({n, k}, 2);
  kc::Tensor c = kc::zero_tensor({m, n});
  for (auto _ : st) {
    kc::gemm(m, n, k, a.ptr(), k, false, b.ptr(), k, true, c.ptr(), n);
    benchmark::DoNotOptimize(c.ptr());
  }
  st.counters["FLOP/s"] =
      benchmark::Counter(2.0 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Gemm)
    ->Args({256, 256, 256})
    ->Args({1, 4096, 4096})
    ->Args({64, 3136, 576})
    ->UseRealTime();

// Square image, 3x3 "same" convolution; groups == channels gives the depthwise path.
void BM_Conv(benchmark::State &st) {
  kc::ConvGeom g;
  g.c = st.range(0), g.h = g.w = g.oh = g.ow = st.range(1), g.oc = st.range(2);
  g.kh = g.kw = 3, g.pad_top = g.pad_left = 1, g.groups = st.range(3);
  kc::Tensor in = kc::random_tensor({1, g.c, g.h, g.w}, 1);
  kc::Tensor w = kc::random_tensor({g.oc, g.c / g.groups, 3, 3}, 2),
             bias = kc::random_tensor({g.oc}, 3);
  kc::Tensor out = kc::zero_tensor({1, g.oc, g.oh, g.ow});
  kc::Tensor ws = kc::zero_tensor({std::max<int64_t>(kc::conv_workspace(g, false), 1)});
  for (auto _ : st) {
    kc::conv2d(g, in.ptr(), w.ptr(), bias.ptr(), out.ptr(), ws.ptr());
    benchmark::DoNotOptimize(out.ptr());
  }
  st.counters["FLOP/s"] = benchmark::Counter(2.0 * g.oh * g.ow * g.oc * (g.c / g.groups) * 9,
                                             benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Conv)
    ->Args({64, 56, 64, 1})
    ->Args({128, 28, 128, 1})
    ->Args({144, 56, 144, 144})
    ->UseRealTime();

void BM_Relu(benchmark::State &st) {
  const int64_t n = st.range(0);
  kc::Tensor x = kc::random_tensor({n}, 1), y = kc::zero_tensor({n});
  for (auto _ : st) {
    kc::activation("relu", {}, x.ptr(), y.ptr(), n);
    benchmark::DoNotOptimize(y.ptr());
  }
  st.counters["B/s"] = benchmark::Counter(8.0 * n, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Relu)->Arg(1 << 12)->Arg(1 << 20)->Arg(1 << 24)->UseRealTime();

void BM_MaxPool(benchmark::State &st) {
  kc::PoolGeom g;
  g.c = 64, g.h = g.w = st.range(0), g.kh = g.kw = 3, g.sh = g.sw = 2, g.pad_top = g.pad_left = 1;
  g.oh = g.ow = (g.h + 2 - 3) / 2 + 1;
  kc::Tensor in = kc::random_tensor({1, g.c, g.h, g.w}, 1),
             out = kc::zero_tensor({1, g.c, g.oh, g.ow});
  for (auto _ : st) {
    kc::max_pool(g, in.ptr(), out.ptr());
    benchmark::DoNotOptimize(out.ptr());
  }
}
BENCHMARK(BM_MaxPool)->Arg(56)->Arg(112)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
