// Timing statistics: median/mean/sd/min/max of known samples, the noisy flag, time_runs counts.
#include <doctest/doctest.h>

#include "kernels/cpu/timing.hpp"
#include "perfmodel/error.hpp"

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
  CHECK(s.noisy); // (4 - 1) / 2.5 = 1.2 > 0.5
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
