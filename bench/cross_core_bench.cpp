// Why layers run slower inside a network than alone on a multi-core CPU: a ReLU (the executor's
// map kernel, threads over contiguous halves) whose operands' cache lines were last touched by
// the *other* core. Each benchmark prepares the state in PauseTiming (one untimed pass of every
// thread over the buffers, partitioned as the case says), then times one ReLU.
//   same:         the output was last written by the core that writes it now (map after map)
//   out_shared:   the output was written by this core, then read by the other one (a buffer
//                 that a column-split GEMM read as its B operand before the buffer was reused)
//   out_other:    the output was last written by the other core
//   in_other:     the input was written by the other core (a map after a column-split GEMM)
//   out_other_read:  the output was written by the other core, then read by this one (a
//                 column-split GEMM's output that a batch norm read, then reused)
//   out_shared_read: out_shared, then read by this core again (a ReLU's output read by a
//                 row-split 1x1 convolution and by the residual add, then reused)
// The third argument, 1, puts 8 MB of other traffic (both threads) between the state and the
// timed ReLU, as the layers between a buffer's last touch and its reuse do in a network.
// docs/measure.md ("Threads and cache lines") has the figures of the 2-core Zen 5 VM.
// BM_ConvCacheState: a convolution's time with its output and im2col workspace in or out of
// the caches (below).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <tuple>
#include <utility>

#include "perfmodel/kernels/cpu/conv.hpp"
#include "perfmodel/kernels/cpu/elementwise.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"

namespace kc = perfmodel::kernels::cpu;

namespace {

std::atomic<float> g_sink{0};

// One pass of every thread over b: thread t takes the same contiguous slice the map kernel
// gives it, or (other) the slice the map kernel gives the next thread.
void touch(float *b, int64_t n, bool write, bool other) {
  const int t = kc::num_threads();
  kc::parallel_for(t, 1, [&](int64_t t0, int64_t t1) {
    for (int64_t i = t0; i < t1; ++i) {
      const int64_t s = other ? (i + 1) % t : i;
      const int64_t b0 = n * s / t, b1 = n * (s + 1) / t;
      float acc = 0;
      for (int64_t j = b0; j < b1; ++j) {
        if (write)
          b[j] = float(j & 7) - 3.5f;
        else
          acc += b[j];
      }
      g_sink.store(acc, std::memory_order_relaxed);
    }
  });
}

enum Case { same, out_shared, out_other, in_other, out_other_read, out_shared_read };

void BM_ReluAfter(benchmark::State &st) {
  const int64_t n = st.range(0);
  const auto c = static_cast<Case>(st.range(1));
  const bool traffic = st.range(2) != 0;
  const int64_t scratch_n = traffic ? int64_t(2) << 20 : 1; // 8 MB of floats
  kc::Tensor in = kc::zero_tensor({n}), out = kc::zero_tensor({n});
  kc::Tensor scratch = kc::zero_tensor({scratch_n});
  for (auto _ : st) {
    st.PauseTiming();
    touch(out.ptr(), n, true, c == out_other || c == out_other_read);
    if (c == out_shared || c == out_shared_read)
      touch(out.ptr(), n, false, true);
    if (c == out_other_read || c == out_shared_read)
      touch(out.ptr(), n, false, false);
    if (traffic)
      touch(scratch.ptr(), scratch_n, true, false);
    touch(in.ptr(), n, true, c == in_other);
    st.ResumeTiming();
    kc::activation("relu", {}, in.ptr(), out.ptr(), n);
    benchmark::DoNotOptimize(out.ptr());
  }
  st.counters["B/s"] =
      benchmark::Counter(8.0 * double(n), benchmark::Counter::kIsIterationInvariantRate);
}

void args(benchmark::internal::Benchmark *b) {
  for (int64_t n : {200704, 802816}) // 0.8 and 3.2 MB per operand (ResNet-50 56x56x64, x256)
    for (int c : {same, out_shared, out_other, in_other, out_other_read, out_shared_read})
      for (int traffic : {0, 1})
        b->Args({n, c, traffic});
}
BENCHMARK(BM_ReluAfter)->Apply(args)->UseRealTime();

// A convolution (the executor's conv2d: a 1x1 runs the GEMM on its input, a 3x3 is lowered
// through an im2col workspace) with its output and workspace either evicted (clflush: no core
// holds their lines) or as the previous call left them (written by the same threads, the
// workspace also read by the GEMM's threads). The weights are evicted and the input rewritten
// by every thread in all cases (the conv microbenchmarks' setup). Args: channels in, plane
// side, channels out, kernel side, output state, workspace state (0 evicted, 1 as left),
// threads. docs/calibration.md ("Outputs and workspaces") has the figures of the 2-core VM.
void BM_ConvCacheState(benchmark::State &st) {
  kc::ThreadCountScope threads(int(st.range(6)));
  kc::ConvGeom g;
  g.c = st.range(0);
  g.h = g.w = g.oh = g.ow = st.range(1);
  g.oc = st.range(2);
  g.kh = g.kw = st.range(3);
  g.pad_top = g.pad_left = g.kh / 2;
  kc::Tensor in = kc::random_tensor({1, g.c, g.h, g.w}, 1);
  kc::Tensor wt = kc::random_tensor({g.oc, g.c, g.kh, g.kw}, 2);
  kc::Tensor out = kc::zero_tensor({1, g.oc, g.h, g.w});
  kc::Tensor ws = kc::zero_tensor({std::max<int64_t>(kc::conv_workspace(g, false), 1)});
  const bool evict_out = st.range(4) == 0, evict_ws = st.range(5) == 0;
  kc::conv2d(g, in.ptr(), wt.ptr(), nullptr, out.ptr(), ws.ptr());
  for (auto _ : st) {
    st.PauseTiming();
    kc::evict_from_caches(wt.ptr(), wt.size());
    if (evict_out)
      kc::evict_from_caches(out.ptr(), out.size());
    if (evict_ws)
      kc::evict_from_caches(ws.ptr(), ws.size());
    touch(in.ptr(), in.size(), true, false);
    st.ResumeTiming();
    kc::conv2d(g, in.ptr(), wt.ptr(), nullptr, out.ptr(), ws.ptr());
    benchmark::DoNotOptimize(out.ptr());
  }
  st.counters["FLOP/s"] = benchmark::Counter(2.0 * g.oc * g.oh * g.ow * g.c * g.kh * g.kw,
                                             benchmark::Counter::kIsIterationInvariantRate);
}

void conv_args(benchmark::internal::Benchmark *b) {
  // ResNet-50's 1x1 (64->256 at 56x56, 256->1024 at 14x14) and 3x3 (128 at 28x28, 256 at
  // 14x14) convolutions, and a narrow 3x3 (24 at 80x80, a 5.5 MB workspace): output evicted or
  // as left; a 3x3's workspace as well, on 2 and 1 threads.
  for (auto [c, hw, oc] : {std::tuple{64, 56, 256}, {256, 14, 1024}})
    for (int out_state : {0, 1})
      b->Args({c, hw, oc, 1, out_state, 0, 2});
  for (auto [c, hw] : {std::pair{128, 28}, {256, 14}, {24, 80}})
    for (int threads : {2, 1})
      for (auto [out_state, ws_state] : {std::pair{0, 0}, {1, 0}, {1, 1}})
        b->Args({c, hw, c, 3, out_state, ws_state, threads});
}
BENCHMARK(BM_ConvCacheState)->Apply(conv_args)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
