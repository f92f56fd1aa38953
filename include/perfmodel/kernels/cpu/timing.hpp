// Repeated timing of a piece of work: warm-up runs, iterations, median/mean/sd/min/max, noisy flag.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "perfmodel/policy/quantile.hpp"
#include "perfmodel/time_statistic.hpp"

namespace perfmodel::kernels::cpu {

/// Spread above which a timing is flagged noisy: (max - min) / median or sd / mean.
inline constexpr double kNoisyRangeFraction = 0.50;
inline constexpr double kNoisySdFraction = 0.10;

/// Statistics of `iters` timed runs after `warmup` untimed ones (MegEngine load_and_run's
/// avg_time, sd, minmax). Seconds. `cache_state` says what the caches held when timing began:
/// "warm" = the inputs were just touched by the warm-up runs; "not warmed" = no warm-up run;
/// "in-network" = timed inside forward passes, or a microbenchmark set up like a layer inside
/// one (inputs just written, weights and outputs evicted).
struct TimingStats {
  int warmup = 0;
  int iters = 0;
  double median_seconds = 0;
  double mean_seconds = 0;
  double sd_seconds = 0; // sample standard deviation (n - 1)
  double min_seconds = 0;
  double max_seconds = 0;
  double p20_seconds = 0; // 20th percentile: faster than 80% of the runs (see kP20Fraction)
  std::string cache_state = "warm";
  bool noisy = false; // spread above the thresholds above; reported, never hidden
  std::vector<double> samples_seconds;
};

/// The quantile `p20_seconds` reports. On a shared host it skips both the slow spells (which a
/// median can catch whole) and the rare fast moments of an idle memory bus (which a min latches
/// onto: DRAM reads half again as fast as usual).
inline constexpr double kP20Fraction = 0.20;

/// Linear-interpolated quantile q in [0, 1] of sorted samples (0 for none).
using policy::quantile_sorted;

/// The statistic `s` of `t` (median, p20 or min seconds): what calibration fits and measure
/// compares against.
inline double pick(TimeStatistic s, const TimingStats &t) {
  return perfmodel::pick(s, t.median_seconds, t.p20_seconds, t.min_seconds);
}

/// Computes the statistics of a set of samples (sorted copy; `samples` may be unordered).
TimingStats summarize(std::vector<double> samples, int warmup);

/// Runs `fn` `warmup` times untimed, then `iters` times timed with a steady clock.
/// `inner` > 1 runs fn that many times per timed sample and divides (for very short kernels).
TimingStats time_runs(const std::function<void()> &fn, int warmup, int iters, int inner = 1);

/// Writes back and evicts the cache lines of [p, p + n) from every cache level of every core
/// (clflush), so that the next access comes from DRAM. Untimed setup of a timing.
void evict_from_caches(const float *p, int64_t n);

/// Like time_runs with inner = 1, but every run (warm-up and timed) follows an untimed
/// `setup` (a cache flush, a producer writing the inputs); the statistics carry `cache_state`.
TimingStats time_runs_after(const std::function<void()> &setup, const std::function<void()> &fn,
                            int warmup, int iters, const std::string &cache_state);

/// Throws InputError unless iters >= 1 and warmup >= 0.
void check_timing_counts(int warmup, int iters);

/// Seconds on a monotonic clock (std::chrono::steady_clock).
double now_seconds();

} // namespace perfmodel::kernels::cpu
