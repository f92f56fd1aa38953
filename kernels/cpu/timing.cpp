// Repeated timing and its statistics (median, mean, sd, min, max, noisy flag).
#include "perfmodel/kernels/cpu/timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "perfmodel/error.hpp"

#include <immintrin.h>

namespace perfmodel::kernels::cpu {

double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

TimingStats summarize(std::vector<double> samples, int warmup) {
  TimingStats s;
  s.warmup = warmup;
  s.iters = static_cast<int>(samples.size());
  s.samples_seconds = samples;
  if (samples.empty())
    return s;
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  s.median_seconds = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.mean_seconds = std::accumulate(samples.begin(), samples.end(), 0.0) / double(n);
  double ss = 0;
  for (double v : samples)
    ss += (v - s.mean_seconds) * (v - s.mean_seconds);
  s.sd_seconds = n > 1 ? std::sqrt(ss / double(n - 1)) : 0.0;
  s.min_seconds = samples.front();
  s.max_seconds = samples.back();
  s.p20_seconds = quantile_sorted(samples, kP20Fraction);
  const double range =
      s.median_seconds > 0 ? (s.max_seconds - s.min_seconds) / s.median_seconds : 0;
  const double cv = s.mean_seconds > 0 ? s.sd_seconds / s.mean_seconds : 0;
  s.noisy = range > kNoisyRangeFraction || cv > kNoisySdFraction;
  return s;
}

void check_timing_counts(int warmup, int iters) {
  if (iters < 1)
    throw InputError("timing: --iters must be at least 1, got " + std::to_string(iters));
  if (warmup < 0)
    throw InputError("timing: --warmup must be >= 0, got " + std::to_string(warmup));
}

namespace {
// clflushopt where the ISA has it (-march=native): unlike clflush, flushes of different lines
// are not ordered among themselves, so they overlap: on a 2-vCPU cloud guest clflush of 256 MiB
// took 60x longer than clflushopt (a third of a full calibration's time), and the lines were as
// cold afterwards (docs/calibration.md, "Cache state").
inline void flush_line(const char *c) {
#ifdef __CLFLUSHOPT__
  _mm_clflushopt(const_cast<char *>(c));
#else
  _mm_clflush(c);
#endif
}
} // namespace

void evict_from_caches(const float *p, int64_t n) {
  constexpr int64_t kLineFloats = 16; // 64-byte lines
  const char *begin = reinterpret_cast<const char *>(p);
  const char *end = reinterpret_cast<const char *>(p + std::max<int64_t>(n, 0));
  for (const char *c = begin; c < end; c += 4 * kLineFloats)
    flush_line(c);
  if (n > 0)
    flush_line(end - 1); // an unaligned tail line
  _mm_mfence();          // orders the flushes before what follows (clflushopt is weakly ordered)
}

TimingStats time_runs_after(const std::function<void()> &setup, const std::function<void()> &fn,
                            int warmup, int iters, const std::string &cache_state) {
  check_timing_counts(warmup, iters);
  std::vector<double> samples;
  samples.reserve(static_cast<size_t>(iters));
  for (int i = 0; i < warmup + iters; ++i) {
    setup();
    const double t0 = now_seconds();
    fn();
    const double t1 = now_seconds();
    if (i >= warmup)
      samples.push_back(t1 - t0);
  }
  TimingStats s = summarize(std::move(samples), warmup);
  s.cache_state = cache_state;
  return s;
}

TimingStats time_runs(const std::function<void()> &fn, int warmup, int iters, int inner) {
  check_timing_counts(warmup, iters);
  inner = std::max(inner, 1);
  for (int i = 0; i < warmup; ++i)
    fn();
  std::vector<double> samples;
  samples.reserve(static_cast<size_t>(iters));
  for (int i = 0; i < iters; ++i) {
    const double t0 = now_seconds();
    for (int j = 0; j < inner; ++j)
      fn();
    samples.push_back((now_seconds() - t0) / inner);
  }
  TimingStats s = summarize(std::move(samples), warmup);
  s.cache_state = warmup > 0 ? "warm" : "not warmed";
  return s;
}

} // namespace perfmodel::kernels::cpu
