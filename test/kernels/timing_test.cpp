// Timing statistics: median/mean/sd/min/max of known samples, the noisy flag, time_runs counts.
#include <doctest/doctest.h>

#include "perfmodel/error.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"

using namespace perfmodel::kernels::cpu;

TEST_CASE("summarize computes the statistics of known samples") {
  const TimingStats s = summarize({3.0, 1.0, 2.0, 4.0}, 2);
  CHECK(s.iters == 4);
  CHECK(s.warmup == 2);
  CHECK(s.median_seconds == doctest::Approx(2.5));
  CHECK(s.mean_seconds == doctest::Approx(2.5));
  CHECK(s.sd_seconds == doctest::Approx(1.2909944));
  CHECK(s.min_seconds == 1.0);
  CHECK(s.max_seconds == 4.0);
  CHECK(s.p20_seconds == doctest::Approx(1.6)); // 1 + 0.2 * 3 * (2 - 1)
  CHECK(s.noisy);                               // (4 - 1) / 2.5 = 1.2 > 0.5
  const TimingStats quiet = summarize({1.00, 1.01, 0.99, 1.00, 1.02}, 0);
  CHECK(quiet.median_seconds == doctest::Approx(1.00));
  CHECK_FALSE(quiet.noisy);
  CHECK(summarize({}, 0).iters == 0);
}

TEST_CASE("time_runs runs warm-up and timed iterations") {
  int calls = 0;
  const TimingStats s = time_runs([&] { ++calls; }, 3, 5, 2);
  CHECK(calls == 3 + 5 * 2);
  CHECK(s.iters == 5);
  CHECK(s.samples_seconds.size() == 5);
  CHECK(s.cache_state == "warm");
  CHECK(s.min_seconds <= s.median_seconds);
  CHECK(s.median_seconds <= s.max_seconds);
  CHECK(time_runs([] {}, 0, 1).cache_state == "not warmed");
  CHECK_THROWS_AS(time_runs([] {}, 1, 0), perfmodel::InputError);
  CHECK_THROWS_AS(time_runs([] {}, -1, 3), perfmodel::InputError);
}

TEST_CASE("quantiles interpolate between sorted samples") {
  const std::vector<double> v{1.0, 2.0, 4.0, 8.0, 16.0};
  CHECK(quantile_sorted(v, 0.0) == 1.0);
  CHECK(quantile_sorted(v, 1.0) == 16.0);
  CHECK(quantile_sorted(v, 0.5) == 4.0);
  CHECK(quantile_sorted(v, 0.2) == doctest::Approx(1.8)); // position 0.8: 1 + 0.8 * (2 - 1)
  CHECK(quantile_sorted({}, 0.2) == 0.0);
  CHECK(quantile_sorted({3.0}, 0.2) == 3.0);
}

TEST_CASE("time_runs_after runs the untimed setup before every run") {
  int setups = 0, calls = 0;
  const TimingStats s = time_runs_after([&] { ++setups; }, [&] { ++calls; }, 2, 4, "in-network");
  CHECK(setups == 6);
  CHECK(calls == 6);
  CHECK(s.iters == 4);
  CHECK(s.cache_state == "in-network");
}

TEST_CASE("evict_from_caches leaves the data intact") {
  std::vector<float> v(1000);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = float(i);
  evict_from_caches(v.data() + 3, 997); // an unaligned start and tail
  for (size_t i = 0; i < v.size(); ++i)
    CHECK(v[i] == float(i));
}
