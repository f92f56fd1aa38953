// Tests of the placement policy: which passes ran in the faster placement of the threads.
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/policy/placement.hpp"

using namespace perfmodel::policy;

namespace {
std::vector<size_t> idx(std::initializer_list<size_t> v) { return v; }
std::vector<double> same(size_t n, double v) { return std::vector<double>(n, v); }
} // namespace

TEST_CASE("select_faster_placement: one placement throughout keeps every pass") {
  const PassSelection s = select_faster_placement({0.35e-6, 0.4e-6, 0.3e-6, 0.45e-6},
                                                  {0.04, 0.05, 0.045}, PlacementPolicy{});
  CHECK(s.kept == idx({0, 1, 2}));
  CHECK(s.reference_seconds == rel(0.315e-6)); // the 10% quantile of the four
  CHECK_FALSE(s.kept_long_round_trip);
  CHECK(s.short_passes == 3);
  CHECK(s.long_passes == 0);
  CHECK(s.short_median_seconds == doctest::Approx(0.045));
  CHECK(s.long_median_seconds == 0);
  CHECK_FALSE(s.all_kept_for_too_few);
}

TEST_CASE("select_faster_placement: the short round trip's passes kept when they run faster") {
  // Zen 3: both vCPUs in one core complex (0.3 us) run faster than across two (1.5 us).
  // probes 0..8 around passes 0..7: passes 1 and 4 straddle a move and are in neither placement
  const PassSelection s = select_faster_placement(
      {0.3e-6, 0.3e-6, 1.5e-6, 1.5e-6, 1.5e-6, 0.3e-6, 0.3e-6, 0.3e-6, 0.3e-6},
      {0.040, 0.041, 0.046, 0.047, 0.043, 0.040, 0.042, 0.041}, PlacementPolicy{});
  CHECK(s.reference_seconds == rel(0.3e-6));
  CHECK(s.kept == idx({0, 5, 6, 7}));
  CHECK_FALSE(s.kept_long_round_trip);
  CHECK(s.short_passes == 4);
  CHECK(s.long_passes == 2); // passes 2 and 3: too few to be kept alone anyway
  CHECK(s.short_median_seconds == doctest::Approx(0.0405));
  CHECK(s.long_median_seconds == doctest::Approx(0.0465));
  CHECK_FALSE(s.all_kept_for_too_few);
}

TEST_CASE("select_faster_placement: the long round trip's passes kept when they run faster") {
  // Intel guest: the SMT siblings of one core (0.13 us) share its FMA units, two cores (0.7 us)
  // run faster; 4 of 12 probes short, so the reference is the short figure
  std::vector<double> probes = same(13, 0.7e-6);
  for (size_t i : {0, 1, 2, 3})
    probes[i] = 0.13e-6;
  std::vector<double> passes = same(12, 0.0075);
  for (size_t i : {0, 1, 2})
    passes[i] = 0.0133;
  const PassSelection s = select_faster_placement(probes, passes, PlacementPolicy{});
  CHECK(s.reference_seconds == rel(0.13e-6));
  CHECK(s.kept_long_round_trip);
  CHECK(s.short_passes == 3);
  CHECK(s.long_passes == 8); // pass 3 straddles the move
  CHECK(s.kept == idx({4, 5, 6, 7, 8, 9, 10, 11}));
  CHECK(s.short_median_seconds == doctest::Approx(0.0133));
  CHECK(s.long_median_seconds == rel(0.0075));
}

TEST_CASE("select_faster_placement: a placement with too few passes is not kept on its own") {
  // two passes in the short round trip, however fast, one straddling: the long one's five kept
  std::vector<double> probes = same(9, 1.5e-6);
  probes[0] = probes[1] = probes[2] = 0.3e-6;
  const PassSelection s = select_faster_placement(
      probes, {0.02, 0.02, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05}, PlacementPolicy{});
  CHECK(s.kept_long_round_trip);
  CHECK(s.kept == idx({3, 4, 5, 6, 7}));
  CHECK_FALSE(s.all_kept_for_too_few);
}

TEST_CASE("select_faster_placement: a run mostly in the long round trip keeps every pass") {
  // one short probe of eleven: under a tenth, so the reference is the long round trip's figure
  std::vector<double> p = same(11, 1.5e-6);
  p[0] = 0.3e-6;
  const PassSelection s = select_faster_placement(p, same(10, 0.04), PlacementPolicy{});
  CHECK(s.reference_seconds == rel(1.5e-6));
  CHECK(s.kept.size() == 10);
  CHECK_FALSE(s.all_kept_for_too_few);
}

TEST_CASE("select_faster_placement: too few passes in either placement keeps them all") {
  // alternating placements: no pass has one placement on both sides
  const PassSelection s = select_faster_placement(
      {0.3e-6, 1.5e-6, 0.3e-6, 1.5e-6, 0.3e-6, 1.5e-6, 0.3e-6}, same(6, 0.04), PlacementPolicy{});
  CHECK(s.kept == idx({0, 1, 2, 3, 4, 5}));
  CHECK(s.all_kept_for_too_few);
  // and with a single pass, which cannot reach PlacementPolicy::min_passes, it is kept when it
  // qualifies
  CHECK(select_faster_placement({0.3e-6, 0.31e-6}, {0.04}, PlacementPolicy{}).kept == idx({0}));
  CHECK_FALSE(
      select_faster_placement({0.3e-6, 0.31e-6}, {0.04}, PlacementPolicy{}).all_kept_for_too_few);
}

TEST_CASE("select_faster_placement: fewer than two probes, or a pass count off by more, select "
          "nothing") {
  CHECK(select_faster_placement({}, {}, PlacementPolicy{}).kept.empty());
  CHECK(select_faster_placement({1e-6}, {}, PlacementPolicy{}).kept.empty());
  CHECK(select_faster_placement({1e-6, 1e-6, 1e-6}, {0.04}, PlacementPolicy{}).kept.empty());
}

TEST_CASE("PlacementPolicy: the defaults") {
  const PlacementPolicy p;
  CHECK(p.round_trip_factor == 2.0);
  CHECK(p.reference_quantile == 0.10);
  CHECK(p.min_passes == 3);
  CHECK(p.round_trip_calls == 21);
}

TEST_CASE("PlacementPolicy: a wider round-trip factor puts both placements in one") {
  // round trips 0.3 us and 0.75 us (2.5x): two placements by default, one within a factor of 3
  const std::vector<double> probes = {0.3e-6,  0.3e-6,  0.3e-6,  0.3e-6,
                                      0.75e-6, 0.75e-6, 0.75e-6, 0.75e-6};
  const std::vector<double> passes = {0.04, 0.04, 0.04, 0.05, 0.05, 0.05, 0.05};
  const PassSelection split = select_faster_placement(probes, passes, PlacementPolicy{});
  CHECK(split.kept == idx({0, 1, 2}));
  CHECK(split.long_passes == 3);
  PlacementPolicy wide;
  wide.round_trip_factor = 3.0;
  const PassSelection one = select_faster_placement(probes, passes, wide);
  CHECK(one.kept == idx({0, 1, 2, 3, 4, 5, 6}));
  CHECK(one.long_passes == 0);
}

TEST_CASE("PlacementPolicy: more passes needed per placement keeps them all") {
  const std::vector<double> probes = {0.3e-6,  0.3e-6,  0.3e-6,  0.3e-6,
                                      0.75e-6, 0.75e-6, 0.75e-6, 0.75e-6};
  const std::vector<double> passes = {0.04, 0.04, 0.04, 0.05, 0.05, 0.05, 0.05};
  PlacementPolicy strict;
  strict.min_passes = 4; // 3 passes in each placement: neither enough
  const PassSelection s = select_faster_placement(probes, passes, strict);
  CHECK(s.all_kept_for_too_few);
  CHECK(s.kept.size() == 7);
}
