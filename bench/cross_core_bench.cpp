// Why layers run slower inside a network than alone on a multi-core CPU: a ReLU (the executor's
// map kernel, threads over contiguous halves) whose operands' cache lines were last touched by
// the *other* core. Each benchmark prepares the state in PauseTiming (one untimed pass of every
// thread over the buffers, partitioned as the case says), then times one ReLU.
//   same:         the output was last written by the core that writes it now (map after map)
//   out_shared:   the output was written by this core, then read by the other one (a buffer
//                 that a column-split GEMM read as its B operand before the buffer was reused)
//   out_other:    the output was last written by the other core
//   in_other:     the input was written by the other core (a map after a column-split GEMM)
// docs/measure.md ("Threads and cache lines") has the figures of the 2-core Zen 5 VM.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>

#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/tensor.hpp"

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

enum Case { same, out_shared, out_other, in_other };

void BM_ReluAfter(benchmark::State &st) {
  const int64_t n = st.range(0);
  const auto c = static_cast<Case>(st.range(1));
  kc::Tensor in = kc::zero_tensor({n}), out = kc::zero_tensor({n});
  for (auto _ : st) {
    st.PauseTiming();
    touch(in.ptr(), n, true, c == in_other);
    touch(out.ptr(), n, true, c == out_other);
    if (c == out_shared)
      touch(out.ptr(), n, false, true);
    st.ResumeTiming();
    kc::activation("relu", {}, in.ptr(), out.ptr(), n);
    benchmark::DoNotOptimize(out.ptr());
  }
  st.counters["B/s"] =
      benchmark::Counter(8.0 * double(n), benchmark::Counter::kIsIterationInvariantRate);
}

void args(benchmark::internal::Benchmark *b) {
  for (int64_t n : {200704, 802816}) // 0.8 and 3.2 MB per operand (ResNet-50 56x56x64, x256)
    for (int c : {same, out_shared, out_other, in_other})
      b->Args({n, c});
}
BENCHMARK(BM_ReluAfter)->Apply(args)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
