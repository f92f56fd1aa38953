#include "perfmodel/kernels/cpu/host_probe.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "perfmodel/kernels/cpu/host_allocator.hpp"
#include "perfmodel/kernels/cpu/microbench.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/stream.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"

namespace perfmodel::kernels::cpu {

double cross_core_read_bytes_per_second(int rounds) {
  const int threads = num_threads();
  if (threads < 2 || rounds < 1)
    return 0;
  const int64_t block = kCrossCoreBlockBytes / int64_t(sizeof(float));
  std::vector<float, HostAllocator<float>> data(size_t(block * threads));
  std::vector<float> sums(size_t(threads), 0.0f);
  std::vector<double> seconds;
  for (int r = 0; r <= rounds; ++r) { // round 0 is the warm-up
    // chunk i of parallel_for(threads, 1, ...) runs on thread i (parallel.hpp), every round
    parallel_for(threads, 1, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t)
        std::fill_n(data.data() + t * block, block, float(r + t));
    });
    const double t0 = now_seconds();
    parallel_for(threads, 1, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t)
        sums[size_t(t)] += stream_read(data.data() + ((t + 1) % threads) * block, block);
    });
    if (r > 0)
      seconds.push_back(now_seconds() - t0);
  }
  static std::atomic<float> sink{0}; // the sums must not be elided
  sink.store(sums[0], std::memory_order_relaxed);
  std::nth_element(seconds.begin(), seconds.begin() + seconds.size() / 2, seconds.end());
  const double median = seconds[seconds.size() / 2];
  return median > 0 ? double(kCrossCoreBlockBytes) * threads / median : 0;
}

double core_round_trip_seconds(int calls) {
  if (num_threads() < 2 || calls < 1)
    return 0;
  std::vector<double> seconds;
  seconds.reserve(size_t(calls));
  for (int i = 0; i < calls; ++i) {
    const double t0 = now_seconds();
    parallel_for(num_threads(), 1, [](int64_t, int64_t) {});
    seconds.push_back(now_seconds() - t0);
  }
  std::nth_element(seconds.begin(), seconds.begin() + seconds.size() / 2, seconds.end());
  return seconds[seconds.size() / 2];
}

BenchCase conv_probe_case() { return conv_case(1, 48, 40, 96, 3, 1); }

namespace {

// Every probe's microbenchmarks: one warm-up, then `runs` timed runs.
MicrobenchOptions probe_options(int runs) {
  MicrobenchOptions o;
  o.warmup = 1;
  o.iters = runs;
  return o;
}

double conv_rate(const MicrobenchOptions &o) {
  return run_bench(conv_probe_case(), o).flops_per_second();
}

} // namespace

HostState probe_host(const policy::ProbePolicy &p) {
  const int runs = p.runs;
  const MicrobenchOptions o = probe_options(runs);
  BenchCase fma;
  fma.name = "probe/fma/fp32";
  fma.kind = BenchKind::fma;
  BenchCase read;
  read.name = "probe/read";
  read.kind = BenchKind::bandwidth;
  read.variant = "read";
  read.working_set_bytes = kHostProbeDramBytes;
  // The convolution twice, first and last, and the faster of the two: a short dip slows one
  // of them, a slow spell of the caches both (docs/measurement-policy.md, "ProbePolicy").
  HostState s;
  const double conv_first = conv_rate(o);
  s.fp32_flops_per_second = run_bench(fma, o).flops_per_second();
  s.dram_bytes_per_second = run_bench(read, o).bytes_per_second();
  s.cross_core_bytes_per_second = cross_core_read_bytes_per_second(3 * runs);
  s.core_round_trip_seconds = core_round_trip_seconds(3 * runs);
  s.conv_flops_per_second = std::max(conv_first, conv_rate(o));
  return s;
}

HostState probe_conv(const policy::ProbePolicy &p) {
  const MicrobenchOptions o = probe_options(p.runs);
  HostState s;
  const double first = conv_rate(o);
  s.conv_flops_per_second = std::max(first, conv_rate(o));
  return s;
}

} // namespace perfmodel::kernels::cpu
