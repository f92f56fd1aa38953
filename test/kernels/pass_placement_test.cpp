#include <doctest/doctest.h>

#include "kernels/cpu/host_probe.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/pass_placement.hpp"

using namespace perfmodel::kernels::cpu;

namespace {
std::vector<size_t> idx(std::initializer_list<size_t> v) { return v; }
} // namespace

TEST_CASE("select_faster_placement: one placement throughout keeps every pass") {
  const PassSelection s = select_faster_placement({0.35e-6, 0.4e-6, 0.3e-6, 0.45e-6});
  CHECK(s.kept == idx({0, 1, 2}));
  CHECK(s.reference_seconds == doctest::Approx(0.315e-6)); // the 10% quantile of the four
  CHECK_FALSE(s.all_kept_for_too_few);
}

TEST_CASE("select_faster_placement: a pass with a slow probe on either side is left out") {
  // probes 0..6 around passes 0..5: passes 1, 2 and 3 touch the slower placement
  const PassSelection s =
      select_faster_placement({0.3e-6, 0.3e-6, 1.5e-6, 1.5e-6, 0.3e-6, 0.3e-6, 0.3e-6});
  CHECK(s.reference_seconds == doctest::Approx(0.3e-6));
  CHECK(s.kept == idx({0, 4, 5}));
  CHECK_FALSE(s.all_kept_for_too_few);
}

TEST_CASE("select_faster_placement: a run mostly in the slower placement keeps every pass") {
  // one fast probe of eleven: under a tenth, so the reference is the slower placement's figure
  std::vector<double> p(11, 1.5e-6);
  p[0] = 0.3e-6;
  const PassSelection s = select_faster_placement(p);
  CHECK(s.reference_seconds == doctest::Approx(1.5e-6));
  CHECK(s.kept.size() == 10);
  CHECK_FALSE(s.all_kept_for_too_few);
}

TEST_CASE("select_faster_placement: too few passes in the faster placement keeps them all") {
  // alternating placements: no pass has the faster one on both sides
  const PassSelection s =
      select_faster_placement({0.3e-6, 1.5e-6, 0.3e-6, 1.5e-6, 0.3e-6, 1.5e-6, 0.3e-6});
  CHECK(s.kept == idx({0, 1, 2, 3, 4, 5}));
  CHECK(s.all_kept_for_too_few);
  // and with a single pass, which cannot reach kPlacementMinPasses, it is kept when it qualifies
  CHECK(select_faster_placement({0.3e-6, 0.31e-6}).kept == idx({0}));
  CHECK_FALSE(select_faster_placement({0.3e-6, 0.31e-6}).all_kept_for_too_few);
}

TEST_CASE("select_faster_placement: fewer than two probes select nothing") {
  CHECK(select_faster_placement({}).kept.empty());
  CHECK(select_faster_placement({1e-6}).kept.empty());
}

TEST_CASE("core_round_trip_seconds: an empty call over the pool, 0 with one thread") {
  {
    ThreadCountScope one(1);
    CHECK(core_round_trip_seconds(5) == 0);
  }
  ThreadCountScope two(2);
  if (num_threads() < 2)
    return;
  const double r = core_round_trip_seconds(21);
  CHECK(r > 0);
  CHECK(r < 1e-3); // spinning workers answer in microseconds, not a scheduler tick
  CHECK(core_round_trip_seconds(0) == 0);
}
