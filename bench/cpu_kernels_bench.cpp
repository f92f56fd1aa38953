// Google Benchmark harness for the CPU kernels the executor runs (for tuning them; the
// calibration uses kernels/cpu/microbench_plan.cpp, not this file).
#include <benchmark/benchmark.h>

#include "perfmodel/kernels/cpu/conv.hpp"
#include "perfmodel/kernels/cpu/elementwise.hpp"
#include "perfmodel/kernels/cpu/gemm.hpp"
#include "perfmodel/kernels/cpu/host_allocator.hpp"
#include "perfmodel/kernels/cpu/host_probe.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/pool.hpp"
#include "perfmodel/kernels/cpu/stream.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"

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

// A batch-1 linear layer, y[n] = W[n x k] x[k] (W's layout: the executor's), in the state its
// weights are read in (third argument, set up untimed before each run):
//   0: W flushed from every cache (clflush), the GEMM microbenchmarks' state;
//   1: W flushed, then 256 MiB of other data read by both threads: no free way left in the
//      caches, so every line read evicts another;
//   2: 400 MiB of other data read, no flush: a network's pass between two reads of W;
//   3: 64 MiB of other data read, no flush: some of W survives in the last-level cache.
// Whether a linear layer inside a network reads its weights slower than the flushed
// microbenchmark (docs/calibration.md, Limits: "Batch-1 linear layers").
void BM_GemvCacheState(benchmark::State &st) {
  const int64_t n = st.range(0), k = st.range(1), state = st.range(2);
  kc::Tensor x = kc::random_tensor({1, k}, 1), w = kc::random_tensor({n, k}, 2);
  kc::Tensor y = kc::zero_tensor({1, n});
  const int64_t other_floats = (state == 3 ? int64_t(64) : state == 2 ? 400 : 256) << 18;
  kc::Tensor other = kc::zero_tensor({state == 0 ? 1 : other_floats});
  for (auto _ : st) {
    st.PauseTiming();
    if (state <= 1)
      kc::evict_from_caches(w.ptr(), w.size());
    if (state >= 1)
      kc::parallel_for(other.size(), 1 << 16, [&](int64_t i0, int64_t i1) {
        benchmark::DoNotOptimize(kc::stream_read(other.ptr() + i0, i1 - i0));
      });
    st.ResumeTiming();
    kc::gemm(1, n, k, x.ptr(), k, false, w.ptr(), k, true, y.ptr(), n);
    benchmark::DoNotOptimize(y.ptr());
  }
  st.counters["B/s"] =
      benchmark::Counter(4.0 * n * k, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_GemvCacheState)
    ->ArgsProduct({{4096}, {4096}, {0, 1, 2, 3}})
    ->ArgsProduct({{1000}, {2048}, {0, 1, 2, 3}})
    ->UseRealTime();

// Times C[m x n] = epilogue(A[m x k] * B[k x n]) for m, n, k = the state's first three
// arguments: a row bias if `bias`, a fused ReLU if `relu`, split as `split` says.
void time_product(benchmark::State &st, bool bias, bool relu, kc::GemmSplit split) {
  const int64_t m = st.range(0), n = st.range(1), k = st.range(2);
  kc::Tensor a = kc::random_tensor({m, k}, 1), b = kc::random_tensor({k, n}, 2);
  kc::Tensor row = kc::random_tensor({m}, 3), c = kc::zero_tensor({m, n});
  kc::GemmEpilogue e;
  if (bias)
    e.row = row.ptr();
  if (relu)
    e.lo = 0.0f;
  for (auto _ : st) {
    kc::gemm(m, n, k, a.ptr(), k, false, b.ptr(), n, false, c.ptr(), n, false, e, split);
    benchmark::DoNotOptimize(c.ptr());
  }
  st.counters["FLOP/s"] =
      benchmark::Counter(2.0 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
}

// A convolution's product (C = W * cols: a row bias, optionally a fused ReLU) split by rows or by
// columns whatever work_split::gemm_splits_rows says: the measurements behind the rule
// (docs/measure.md, "How a GEMM is split"). Args: m, n, k, split (0 rows, 1 columns), ReLU (0/1).
void BM_GemmSplit(benchmark::State &st) {
  time_product(st, true, st.range(4) != 0,
               st.range(3) == 0 ? kc::GemmSplit::rows : kc::GemmSplit::columns);
}
BENCHMARK(BM_GemmSplit)
    ->ArgsProduct({{256}, {529}, {256}, {0, 1}, {0, 1}})
    ->ArgsProduct({{128}, {529}, {128}, {0, 1}, {0, 1}})
    ->ArgsProduct({{512}, {784}, {128}, {0, 1}, {0, 1}})
    ->ArgsProduct({{96}, {2916}, {96}, {0, 1}, {0, 1}})
    ->ArgsProduct({{256}, {3136}, {64}, {0, 1}, {0, 1}})
    ->ArgsProduct({{128}, {3025}, {128}, {0, 1}, {0, 1}})
    ->ArgsProduct({{128}, {784}, {1152}, {0, 1}, {0, 1}})
    ->UseRealTime();

// A convolution's product under the split rule with each epilogue the executor fuses: none (the
// ONNX convolutions of ResNet-50: no bias, the ReLU a layer of its own), a row bias (the
// calibration's convolution microbenchmarks), a row bias and a fused ReLU (NIN's layers).
// Args: m, n, k, epilogue (0 none, 1 bias, 2 bias + ReLU), threads (0: all).
void BM_GemmEpilogue(benchmark::State &st) {
  kc::ThreadCountScope threads(st.range(4) > 0 ? int(st.range(4)) : kc::num_threads());
  time_product(st, st.range(3) >= 1, st.range(3) >= 2, kc::GemmSplit::rule);
}
BENCHMARK(BM_GemmEpilogue)
    ->ArgsProduct({{96}, {3025}, {96}, {0, 1, 2}, {0, 1}})
    ->ArgsProduct({{64}, {3136}, {256}, {0, 1, 2}, {0}})
    ->ArgsProduct({{256}, {3136}, {64}, {0, 1, 2}, {0, 1}})
    ->ArgsProduct({{128}, {784}, {512}, {0, 1, 2}, {0}})
    ->ArgsProduct({{160}, {1600}, {40}, {0, 1, 2}, {0, 1}})
    ->ArgsProduct({{256}, {529}, {256}, {0, 1, 2}, {0}})
    ->ArgsProduct({{384}, {169}, {384}, {0, 1, 2}, {0}})
    ->ArgsProduct({{1000}, {49}, {1024}, {0, 1, 2}, {0}})
    ->UseRealTime();

// A convolution's product C[rows x plane] = W[rows x k] * cols[k x plane] (a row bias) by the
// plane's size: Eigen's kernel tiles the plane (the rows of its column-major view) with 3, 2, 1
// vector-wide panels and narrower ones for the rows left over, so the rate by plane size shows
// what a partial tile costs (docs/model.md, "Panel tiles"). Args: rows, plane, k.
void BM_GemmPlane(benchmark::State &st) { time_product(st, true, false, kc::GemmSplit::rule); }
BENCHMARK(BM_GemmPlane)
    ->ArgsProduct({{512}, benchmark::CreateDenseRange(16, 100, 1), {2304}})
    ->ArgsProduct({{512}, {112, 128, 144, 145, 160, 196}, {2304}})
    ->UseRealTime();

// Times conv2d on random operands of geometry `g` (g.n images, with a bias). `cold`: before
// each run (untimed) every thread writes its share of 64 MiB, flushing the caches, and of the
// input, so the weights come from DRAM as in a network's pass, the input from cache, and the
// pool's threads are awake.
void time_conv(benchmark::State &st, const kc::ConvGeom &g, bool cold = false) {
  kc::Tensor in = kc::random_tensor({g.n, g.c, g.h, g.w}, 1);
  kc::Tensor w = kc::random_tensor({g.oc, g.c / g.groups, g.kh, g.kw}, 2),
             bias = kc::random_tensor({g.oc}, 3);
  kc::Tensor out = kc::zero_tensor({g.n, g.oc, g.oh, g.ow});
  kc::Tensor ws = kc::zero_tensor({std::max<int64_t>(kc::conv_workspace(g, false), 1)});
  kc::Tensor flush = kc::zero_tensor({cold ? int64_t(16) << 20 : 1});
  for (auto _ : st) {
    if (cold) {
      st.PauseTiming();
      for (kc::Tensor *t : {&flush, &in})
        kc::parallel_for(t->size(), 1 << 14, [&](int64_t i0, int64_t i1) {
          std::fill(t->ptr() + i0, t->ptr() + i1, 0.5f);
        });
      st.ResumeTiming();
    }
    kc::conv2d(g, in.ptr(), w.ptr(), bias.ptr(), out.ptr(), ws.ptr());
    benchmark::DoNotOptimize(out.ptr());
  }
}

// Square image, 3x3 "same" convolution; groups == channels gives the depthwise path.
void BM_Conv(benchmark::State &st) {
  kc::ConvGeom g;
  g.c = st.range(0), g.h = g.w = g.oh = g.ow = st.range(1), g.oc = st.range(2);
  g.kh = g.kw = 3, g.pad_top = g.pad_left = 1, g.groups = st.range(3);
  time_conv(st, g);
  st.counters["FLOP/s"] = benchmark::Counter(2.0 * g.oh * g.ow * g.oc * (g.c / g.groups) * 9,
                                             benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Conv)
    ->Args({64, 56, 64, 1})
    ->Args({128, 28, 128, 1})
    ->Args({144, 56, 144, 144})
    ->Args({256, 14, 256, 1}) // these three split the product's rows (out channels >= pixels)
    ->Args({512, 14, 512, 1})
    ->Args({512, 7, 512, 1})
    ->UseRealTime();

// A convolution whose weights come from DRAM, at a batch of one or more images (args c, image
// size, out channels, kernel, batch; time per image = time / batch): the executor runs a batch
// image by image, and the images after the first find the weights in cache (docs/model.md, "Cold
// weights, t_w").
void BM_ConvColdWeights(benchmark::State &st) {
  kc::ConvGeom g;
  g.c = st.range(0), g.h = g.w = g.oh = g.ow = st.range(1), g.oc = st.range(2);
  g.kh = g.kw = st.range(3), g.pad_top = g.pad_left = g.kh / 2, g.n = st.range(4);
  time_conv(st, g, true);
}
BENCHMARK(BM_ConvColdWeights)
    ->ArgsProduct({{1024}, {6}, {1024}, {1}, {1, 5}})
    ->ArgsProduct({{384}, {6}, {1024}, {3}, {1, 5}})
    ->ArgsProduct({{96}, {54}, {96}, {1}, {1, 5}})
    ->UseRealTime();

// A convolution by its stride: args c, output size, out channels, kernel, stride. The input
// is sized so that the output (and so the GEMM, out channels x pixels x c*k*k) is the same at
// every stride; only the im2col's reads differ (a row copy at stride 1, a gather beyond).
void BM_ConvStride(benchmark::State &st) {
  kc::ConvGeom g;
  g.c = st.range(0), g.oh = g.ow = st.range(1), g.oc = st.range(2);
  g.kh = g.kw = st.range(3), g.sh = g.sw = st.range(4);
  g.pad_top = g.pad_left = g.kh / 2;
  g.h = g.w = (g.oh - 1) * g.sh + g.kh - 2 * g.pad_top;
  time_conv(st, g);
  st.counters["cols_MB"] = 4e-6 * double(kc::conv_workspace(g, false));
}
BENCHMARK(BM_ConvStride)
    ->ArgsProduct({{3}, {112}, {8, 64}, {7}, {1, 2, 3}})
    ->ArgsProduct({{3}, {50}, {8, 64}, {9}, {1, 4}})
    ->ArgsProduct({{3}, {112}, {32}, {3}, {1, 2}})
    ->ArgsProduct({{64}, {28}, {128}, {3}, {1, 2}})
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

// A 3x3 stride-2 max pool over `c` planes of h x h, padded by `pad` (one image).
void time_max_pool(benchmark::State &st, int64_t c, int64_t pad, bool ceil_mode) {
  kc::PoolGeom g;
  g.c = c, g.h = g.w = st.range(0), g.kh = g.kw = 3, g.sh = g.sw = 2, g.pad_top = g.pad_left = pad;
  g.oh = g.ow = (g.h + 2 * pad - 3 + (ceil_mode ? 1 : 0)) / 2 + 1;
  kc::Tensor in = kc::random_tensor({1, g.c, g.h, g.w}, 1),
             out = kc::zero_tensor({1, g.c, g.oh, g.ow});
  for (auto _ : st) {
    kc::max_pool(g, in.ptr(), out.ptr());
    benchmark::DoNotOptimize(out.ptr());
  }
}

void BM_MaxPool(benchmark::State &st) { time_max_pool(st, 64, 1, false); }
BENCHMARK(BM_MaxPool)->Arg(56)->Arg(112)->UseRealTime();

// Unpadded windows in ceil mode over 96 planes (NIN's pool0 at 55x55): an odd width is read in
// place, without a padded copy (docs/measure.md, kernels table).
void BM_MaxPoolUnpadded(benchmark::State &st) { time_max_pool(st, 96, 0, true); }
BENCHMARK(BM_MaxPoolUnpadded)->Arg(55)->Arg(13)->UseRealTime();

// The host probes' own cost: the full probe calibrate takes between rounds and measure around
// its passes, and the convolution probe calibrate takes every 0.25 s inside its rounds.
void BM_ProbeHost(benchmark::State &st) {
  for (auto _ : st)
    benchmark::DoNotOptimize(kc::probe_host().conv_flops_per_second);
}
BENCHMARK(BM_ProbeHost)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ProbeConv(benchmark::State &st) {
  for (auto _ : st)
    benchmark::DoNotOptimize(kc::probe_conv().conv_flops_per_second);
}
BENCHMARK(BM_ProbeConv)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

// As the timing entry points do: Eigen's packing buffers are not handed back to the kernel after
// every product (docs/measure.md, "Allocator settings").
int main(int argc, char **argv) {
  kc::retain_freed_heap_memory();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
