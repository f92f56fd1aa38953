// Tests of the host-state policy: probe drift and its tolerances, the faster convolution probe,
// when a measurement or a calibration counts as taken in another state, and the nearest
// calibration.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <vector>

#include "../test_approx.hpp"
#include "perfmodel/host_state.hpp"
#include "perfmodel/policy/host_state_policy.hpp"

using namespace perfmodel;
using namespace perfmodel::policy;

namespace {
const HostStatePolicy P{}; // the defaults (docs/measurement-policy.md, "HostStatePolicy")
} // namespace

TEST_CASE("host_drift is the relative change of each probe figure") {
  const HostDrift d = host_drift(HostState{4e11, 5e10}, HostState{2e11, 5.5e10});
  CHECK(d.compute == doctest::Approx(-0.5));
  CHECK(d.memory == doctest::Approx(0.1));
  CHECK(d.beyond_tolerance(P));
  CHECK_FALSE(host_drift(HostState{}, HostState{2e11, 5e10}).beyond_tolerance(P));
  // compute within 10%; the memory drift is reported, not judged
  CHECK_FALSE(host_drift(HostState{4e11, 5e10}, HostState{4.36e11, 8e10}).beyond_tolerance(P));
  CHECK(host_drift(HostState{4e11, 5e10}, HostState{3.5e11, 5e10}).beyond_tolerance(P));
}

TEST_CASE("a cross-core drift beyond 25% is another host state; a missing figure is no drift") {
  const HostState ref{4e11, 5e10, 1.0e11}; // the vCPUs share a core complex
  const HostDrift apart = host_drift(ref, HostState{4e11, 5e10, 3.8e10});
  CHECK(apart.cross_core == doctest::Approx(-0.62));
  CHECK(apart.beyond_tolerance(P)); // compute unchanged, the placement not
  CHECK_FALSE(host_drift(ref, HostState{4e11, 5e10, 0.8e11}).beyond_tolerance(P)); // -20%
  CHECK(host_drift(ref, HostState{4e11, 5e10, 1.3e11}).beyond_tolerance(P));       // +30%
  // one thread (no probe) or a calibration from before the probe: nothing to compare
  CHECK(host_drift(ref, HostState{4e11, 5e10, 0}).cross_core == 0);
  CHECK_FALSE(host_drift(HostState{4e11, 5e10}, HostState{4e11, 5e10, 3.8e10}).beyond_tolerance(P));
}

TEST_CASE("with the core round trip on both sides the placement is judged on it, a factor of 2") {
  // two placements of a 2-vCPU guest: 0.36 us in one, 1.31 us in the other
  const HostState ref{1.85e11, 2.2e10, 4.7e10, 7.5e10, 0.36e-6};
  const HostDrift apart = host_drift(ref, HostState{1.85e11, 2.2e10, 2.2e10, 7.5e10, 1.31e-6});
  CHECK(apart.placement_by_round_trip);
  CHECK(apart.round_trip == doctest::Approx(1.31 / 0.36 - 1));
  CHECK(apart.beyond_tolerance(P));
  // the cross-core read 36% fast (it moves with what ran before it), the round trip unmoved:
  // the same placement, not another state
  const HostDrift same = host_drift(ref, HostState{1.85e11, 2.2e10, 6.4e10, 7.5e10, 0.33e-6});
  CHECK(std::abs(same.cross_core) > P.cross_core_tolerance);
  CHECK_FALSE(same.beyond_tolerance(P));
  // a factor of 2 either way is the limit: 1.9x slower or faster within, 2.2x beyond
  CHECK(host_drift(ref, HostState{1.85e11, 2.2e10, 4.7e10, 7.5e10, 0.684e-6}).placement(P) ==
        doctest::Approx(0.9));
  CHECK(host_drift(ref, HostState{1.85e11, 2.2e10, 4.7e10, 7.5e10, 0.36e-6 / 1.9}).placement(P) ==
        doctest::Approx(0.9));
  CHECK(host_drift(ref, HostState{1.85e11, 2.2e10, 4.7e10, 7.5e10, 0.36e-6 / 2.2})
            .beyond_tolerance(P));
  // a calibration from before the round-trip probe: judged on the cross-core read as before
  const HostDrift old = host_drift(HostState{1.85e11, 2.2e10, 4.7e10, 7.5e10},
                                   HostState{1.85e11, 2.2e10, 6.4e10, 7.5e10, 0.33e-6});
  CHECK_FALSE(old.placement_by_round_trip);
  CHECK(old.round_trip == 0);
  CHECK(old.beyond_tolerance(P));
  // a calibration taken in the other placement, probes in both: another state too
  std::vector<HostState> probes(9, ref);
  CHECK_FALSE(calibration_changed(ref, probes, P));
  probes[4].core_round_trip_seconds = 1.2e-6;
  CHECK(calibration_changed(ref, probes, P));
  probes[4] = ref;
  probes[4].cross_core_bytes_per_second = 9e10; // the read alone moved: no change
  CHECK_FALSE(calibration_changed(ref, probes, P));
  CHECK(median_state({ref, probes[4], HostState{1.85e11, 2.2e10, 4.7e10, 7.5e10, 1.3e-6}})
            .core_round_trip_seconds == rel(0.36e-6));
}

TEST_CASE("a convolution drift beyond its tolerance is another host state, the FMA rate unmoved") {
  const HostState ref{4e11, 5e10, 6e10, 2.2e11};
  const auto conv_at = [](double rate) { return HostState{4e11, 5e10, 6e10, rate}; };
  const double slow = 2.2e11 * (1 - 1.5 * P.conv_tolerance);
  const HostDrift d = host_drift(ref, conv_at(slow));
  CHECK(d.conv == doctest::Approx(-1.5 * P.conv_tolerance));
  CHECK(d.compute == 0);
  CHECK(d.beyond_tolerance(P)); // a neighbour on the caches: the FMA chains do not see it
  CHECK(d.severity(P) == doctest::Approx(1.5));
  CHECK_FALSE(host_drift(ref, conv_at(2.2e11 * (1 - 0.5 * P.conv_tolerance))).beyond_tolerance(P));
  CHECK(host_drift(ref, conv_at(2.2e11 * (1 + 1.5 * P.conv_tolerance))).beyond_tolerance(P));
  // a calibration from before the probe, or a probe not taken: nothing to compare
  CHECK(host_drift(HostState{4e11, 5e10, 6e10}, conv_at(slow)).conv == 0);
  CHECK(host_drift(ref, conv_at(0)).conv == 0);
  CHECK(median_state({conv_at(2e11), conv_at(1.5e11), conv_at(2.2e11)}).conv_flops_per_second ==
        doctest::Approx(2e11));
}

TEST_CASE("with_faster_conv gives both probes the faster convolution figure") {
  const auto [b, a] = with_faster_conv(HostState{4e11, 5e10, 6e10, 1.1e11},
                                       HostState{3.9e11, 4e10, 6.2e10, 2.1e11});
  REQUIRE(b);
  REQUIRE(a);
  CHECK(b->conv_flops_per_second == 2.1e11);
  CHECK(a->conv_flops_per_second == 2.1e11);
  CHECK(b->fp32_flops_per_second == 4e11); // the rest is each probe's own
  CHECK(a->cross_core_bytes_per_second == 6.2e10);
  const auto [none, only] = with_faster_conv(std::nullopt, HostState{4e11, 5e10, 6e10, 1.9e11});
  CHECK_FALSE(none);
  CHECK(only->conv_flops_per_second == 1.9e11);
}

TEST_CASE("measurement_changed: either probe's placement or compute, the faster conv probe") {
  const HostState ref{4e11, 5e10, 6e10, 2.2e11};
  const auto state = [](double fma, double cross, double conv) {
    return HostState{fma, 5e10, cross, conv};
  };
  const double slow = 2.2e11 * (1 - 1.5 * P.conv_tolerance);
  CHECK_FALSE(measurement_changed(ref, state(4e11, 6e10, 2.2e11), state(4e11, 6e10, 2.1e11), P));
  // one probe's dip (a vCPU away for milliseconds) is not a slow spell; both slow are
  CHECK_FALSE(measurement_changed(ref, state(4e11, 6e10, 1.1e11), state(4e11, 6e10, 2.1e11), P));
  CHECK(measurement_changed(ref, state(4e11, 6e10, slow), state(4e11, 6e10, slow), P));
  CHECK(measurement_changed(ref, std::nullopt, state(4e11, 6e10, slow), P));
  CHECK(measurement_changed(ref, state(4e11, 6e10, 3e11), state(4e11, 6e10, 2e11), P)); // faster
  // compute or placement in either probe
  CHECK(measurement_changed(ref, state(2e11, 6e10, 2.2e11), state(4e11, 6e10, 2.2e11), P));
  CHECK(measurement_changed(ref, state(4e11, 6e10, 2.2e11), state(4e11, 1.3e11, 2.2e11), P));
  // no convolution probe on either side (a calibration from before it): nothing to judge
  CHECK_FALSE(measurement_changed(HostState{4e11, 5e10, 6e10}, state(4e11, 6e10, slow),
                                  state(4e11, 6e10, slow), P));
  CHECK_FALSE(measurement_changed(ref, std::nullopt, std::nullopt, P));
}

TEST_CASE("measurement_severity: the larger drift of the two probes, in tolerances") {
  const HostState ref{4e11, 5e10, 6e10, 2e11};
  // conv 15% under (the faster of the two probes stands for both): 1.5 tolerances
  CHECK(measurement_severity(ref, HostState{4e11, 5e10, 6e10, 1.7e11},
                             HostState{4e11, 5e10, 6e10, 1.2e11}, P) == doctest::Approx(1.5));
  // compute 5% under in the probe after: half a tolerance
  CHECK(measurement_severity(ref, HostState{4e11, 5e10, 6e10, 2e11},
                             HostState{3.8e11, 5e10, 6e10, 2e11}, P) == doctest::Approx(0.5));
  CHECK(measurement_severity(ref, std::nullopt, std::nullopt, P) == 0);
}

TEST_CASE("worst_drift names the figure that sets measurement_severity") {
  const HostState ref{4e11, 5e10, 6e10, 2e11, 7e-7};
  // conv 15% under in both (the faster stands for both; the before probe is met first)
  CHECK(worst_drift(ref, HostState{4e11, 5e10, 6e10, 1.7e11, 7e-7},
                    HostState{4e11, 5e10, 6e10, 1.2e11, 7e-7}, P) == "conv -15% before the passes");
  // compute 20% under after the passes: 2 tolerances, beyond the conv's 0.5
  CHECK(worst_drift(ref, HostState{4e11, 5e10, 6e10, 1.9e11, 7e-7},
                    HostState{3.2e11, 5e10, 6e10, 2e11, 7e-7},
                    P) == "compute -20% after the passes");
  // the threads placed otherwise: a round trip 3x the reference's (2 tolerances)
  CHECK(worst_drift(ref, std::nullopt, HostState{4e11, 5e10, 6e10, 2e11, 2.1e-6}, P) ==
        "core round trip +200% after the passes");
  CHECK(worst_drift(ref, std::nullopt, std::nullopt, P).empty());
  CHECK(worst_drift(HostState{}, ref, ref, P).empty()); // nothing to compare with
}

TEST_CASE("nearest_state tells a calibration of a slow spell from one of the quiet host") {
  const HostState quiet{4.1e11, 5e10, 6e10, 2.1e11}, spell{4.05e11, 5e10, 6e10, 1.75e11};
  CHECK(nearest_state({quiet, spell}, HostState{4.1e11, 5e10, 6e10, 1.72e11}, P) == size_t(1));
  CHECK(nearest_state({quiet, spell}, HostState{4.0e11, 5e10, 6e10, 2.05e11}, P) == size_t(0));
}

TEST_CASE("choose_calibration: this machine's calibrations first, then the nearest state") {
  const HostState now{4.2e11, 4e10, 1.3e11};
  const HostState apart{4.1e11, 6.5e10, 5.7e10}, together{4.25e11, 3.7e10, 1.37e11};
  // one calibration: taken whatever the probe
  CHECK(choose_calibration({false}, {apart}, now, std::nullopt, P).index == 0);
  CHECK(choose_calibration({true}, {apart}, std::nullopt, std::nullopt, P).index == 0);
  // the nearest state among this machine's; the foreign one, nearer still, is left out
  auto c =
      choose_calibration({true, false, false}, {together, apart, together}, now, std::nullopt, P);
  CHECK(c.index == 2);
  CHECK(c.left_out == 1);
  c = choose_calibration({true, false, true}, {together, apart, together}, now, std::nullopt, P);
  CHECK(c.index == 1);
  CHECK(c.left_out == 2);
  // all foreign: chosen among all, none left out
  c = choose_calibration({true, true}, {apart, together}, now, std::nullopt, P);
  CHECK(c.index == 1);
  CHECK(c.left_out == 0);
  // no probe, or no states: the first of this machine's
  CHECK(choose_calibration({true, false, false}, {together, apart, together}, std::nullopt,
                           std::nullopt, P)
            .index == 1);
  // no probe before the passes: the one after them
  CHECK(choose_calibration({false, false}, {apart, together}, std::nullopt, now, P).index == 1);
  CHECK(choose_calibration({true, false, false}, {together, std::nullopt, std::nullopt}, now,
                           std::nullopt, P)
            .index == 1);
}

TEST_CASE("calibration_changed: any probe's placement, a third of them compute or conv") {
  const HostState median{4e11, 5e10, 6e10, 2.1e11};
  const HostState steady{4e11, 5e10, 6e10, 2.1e11}, slow{4e11, 5e10, 6e10, 1.75e11};
  std::vector<HostState> probes(10, steady);
  CHECK_FALSE(calibration_changed(median, probes, P));
  probes[7] = probes[8] = probes[9] = slow; // a spell over the last rounds, 3 of 10
  CHECK_FALSE(calibration_changed(median, probes, P));
  probes[6] = slow; // 4 of 10
  CHECK(calibration_changed(median, probes, P));
  probes.assign(10, steady);
  probes[2].fp32_flops_per_second = 3.5e11; // one FMA probe's dip, 12.5% under
  CHECK_FALSE(calibration_changed(median, probes, P));
  probes[4].fp32_flops_per_second = probes[5].fp32_flops_per_second = 3.5e11;
  probes[6].conv_flops_per_second = 1.75e11; // with a slow convolution: 4 of 10
  CHECK(calibration_changed(median, probes, P));
  probes.assign(10, steady);
  probes[3].cross_core_bytes_per_second = 1.3e11; // one probe in another placement
  CHECK(calibration_changed(median, probes, P));
  CHECK_FALSE(calibration_changed(median, {}, P));
  // half the rounds in a slow spell: two clusters, their median between them
  std::vector<HostState> split;
  for (double conv :
       {2.07e11, 2.23e11, 2.12e11, 2.15e11, 2.17e11, 1.78e11, 1.92e11, 1.87e11, 1.81e11, 1.88e11})
    split.push_back(HostState{4.2e11, 5e10, 6e10, conv});
  const HostState split_median = median_state(split);
  CHECK(split_median.conv_flops_per_second == doctest::Approx(1.995e11));
  CHECK(calibration_changed(split_median, split, P));
  // one state's +-5% spread: steady
  std::vector<HostState> one_state;
  for (double conv :
       {2.04e11, 2.14e11, 2.19e11, 2.08e11, 1.98e11, 2.13e11, 2.11e11, 1.79e11, 1.76e11, 2.03e11})
    one_state.push_back(HostState{4.1e11, 5e10, 6e10, conv});
  CHECK_FALSE(calibration_changed(median_state(one_state), one_state, P));
  // no convolution probe (a calibration from before it): only the other figures count
  const HostState no_conv{4e11, 5e10, 6e10};
  CHECK_FALSE(calibration_changed(no_conv, std::vector<HostState>(4, no_conv), P));
}

TEST_CASE("nearest_state picks the calibration whose state the host drifted least from") {
  const HostState now{4.2e11, 4e10, 1.3e11}; // the vCPUs share a core complex
  const HostState apart{4.1e11, 6.5e10, 5.7e10}, together{4.25e11, 3.7e10, 1.37e11};
  CHECK(nearest_state({apart, together}, now, P) == size_t(1));
  CHECK(nearest_state({together, apart}, now, P) == size_t(0));
  // compute counts in its own tolerance: 8% off compute (0.8) beats 30% off cross-core (1.2)
  CHECK(nearest_state({HostState{4.2e11, 4e10, 1.0e11}, HostState{3.9e11, 4e10, 1.3e11}}, now, P) ==
        size_t(1));
  CHECK(host_drift(HostState{4e11, 5e10, 1e11}, HostState{3.8e11, 5e10, 1.3e11}).severity(P) ==
        doctest::Approx(1.2));
  // a calibration without probes is never preferred; none with them: no choice
  CHECK(nearest_state({std::nullopt, apart}, now, P) == size_t(1));
  CHECK_FALSE(nearest_state({std::nullopt, std::nullopt}, now, P));
  CHECK_FALSE(nearest_state({}, now, P));
  // equals: the first
  CHECK(nearest_state({together, together}, now, P) == size_t(0));
}

TEST_CASE("median_state takes each probe figure's median") {
  const HostState m =
      median_state({{4e11, 6.6e10}, {2e11, 4.2e10}, {4.1e11, 4.4e10}, {4.2e11, 4.0e10}});
  CHECK(m.fp32_flops_per_second == doctest::Approx(4.05e11));
  CHECK(m.dram_bytes_per_second == doctest::Approx(4.3e10));
  CHECK(m.cross_core_bytes_per_second == 0);
  CHECK(median_state({{4e11, 5e10, 3.8e10}, {4e11, 5e10, 1.0e11}, {4e11, 5e10, 3.6e10}})
            .cross_core_bytes_per_second == doctest::Approx(3.8e10));
  CHECK(median_state({}).fp32_flops_per_second == 0);
}

TEST_CASE(
    "steady_compute: a probe under 85% of the undisturbed FMA rate finds the host disturbed") {
  CHECK(steady_compute({4.3e11, 5e10}, 4.4e11, P));
  CHECK(steady_compute({3.74e11, 5e10}, 4.4e11, P)); // exactly 85%
  CHECK_FALSE(steady_compute({3.7e11, 5e10}, 4.4e11, P));
  CHECK_FALSE(steady_compute({2.1e11, 3e10, 1.2e11}, 4.4e11, P)); // both vCPUs on one core
  CHECK(steady_compute({1e9, 5e10}, 0, P));                       // no reference: nothing to judge
  CHECK(steady_compute({0, 0, 0, 1.8e11}, 4.4e11, P)); // a convolution-only probe: no FMA figure
}

TEST_CASE("steady_probes: the FMA rule, and a convolution within 10% of the fastest probe's") {
  // the convolution probe flipping between the quiet state (182-191 GFLOP/s) and a slow spell
  // (132-172), the FMA rate steady
  std::vector<HostState> probes;
  for (double conv : {146, 166, 172, 143, 182, 132, 191, 182, 134, 184})
    probes.push_back(HostState{3.4e11, 3e10, 4.3e10, conv * 1e9});
  const std::vector<bool> quiet{false, false, true, false, true, false, true, true, false, true};
  CHECK(steady_probes(probes, 3.5e11, P) == quiet); // 171.9 GFLOP/s the bar: 172 is in
  // the FMA rule as steady_compute: one probe's FMA rate at half
  probes[4].fp32_flops_per_second = 1.7e11;
  std::vector<bool> expected = quiet;
  expected[4] = false;
  CHECK(steady_probes(probes, 3.5e11, P) == expected);
  CHECK(steady_probes(probes, 0, P) == quiet); // no FMA reference: the convolutions only
  // no convolution probed (calibrations before it): the FMA rule alone
  const std::vector<HostState> no_conv(3, HostState{4e11, 5e10, 6e10});
  CHECK(steady_probes(no_conv, 4.4e11, P) == std::vector<bool>(3, true));
  CHECK(steady_probes({}, 4.4e11, P).empty());
  // calibrate's convolution-only probes inside the rounds (probe_conv): judged on the
  // convolution alone, and the fastest of them is the reference for every probe
  std::vector<HostState> mixed{HostState{3.4e11, 3e10, 4.3e10, 1.8e11}, HostState{0, 0, 0, 2.1e11},
                               HostState{0, 0, 0, 1.85e11},
                               HostState{3.4e11, 3e10, 4.3e10, 1.95e11}};
  CHECK(steady_probes(mixed, 3.5e11, P) == std::vector<bool>{false, true, false, true});
}

TEST_CASE("placement_changed: any probe's threads placed otherwise than the median's") {
  const HostState median{4e11, 5e10, 6e10, 2e11, 6e-7};
  std::vector<HostState> probes(5, median);
  CHECK_FALSE(placement_changed(median, probes, P));
  probes[2].conv_flops_per_second = 1.4e11; // a slow spell is not a placement
  CHECK_FALSE(placement_changed(median, probes, P));
  probes[3].core_round_trip_seconds = 1.5e-6; // 2.5x the median's round trip
  CHECK(placement_changed(median, probes, P));
  CHECK(calibration_changed(median, probes, P));
}

TEST_CASE("HostStatePolicy: the defaults") {
  const HostStatePolicy p;
  CHECK(p.compute_tolerance == 0.10);
  CHECK(p.cross_core_tolerance == 0.25);
  CHECK(p.round_trip_factor == 2.0);
  CHECK(p.conv_tolerance == 0.10);
  CHECK(p.steady_compute_fraction == 0.85);
  CHECK(p.max_off_probe_share == doctest::Approx(1.0 / 3));
  CHECK(p.min_conv_near_share == doctest::Approx(2.0 / 3));
  CHECK(p.conv_near_fraction == 0.5);
}

TEST_CASE("HostStatePolicy: a wider compute tolerance accepts a 15% dip") {
  const HostState ref{4e11, 5e10}, now{3.4e11, 5e10};
  CHECK(host_drift(ref, now).beyond_tolerance(P));
  HostStatePolicy wide;
  wide.compute_tolerance = 0.20;
  CHECK_FALSE(host_drift(ref, now).beyond_tolerance(wide));
  CHECK(host_drift(ref, now).severity(wide) == doctest::Approx(0.75));
  CHECK_FALSE(measurement_changed(ref, now, now, wide));
}

TEST_CASE("HostStatePolicy: a tighter round-trip factor finds another placement") {
  const HostState ref{4e11, 5e10, 6e10, 2e11, 6e-7}, now{4e11, 5e10, 6e10, 2e11, 1.05e-6};
  CHECK_FALSE(placement_changed(ref, {now}, P)); // 1.75x: within a factor of 2
  HostStatePolicy tight;
  tight.round_trip_factor = 1.5;
  CHECK(placement_changed(ref, {now}, tight));
  CHECK(host_drift(ref, now).worst(tight).name == std::string("core round trip"));
}

TEST_CASE("HostStatePolicy: steady_compute_fraction and the conv tolerance decide steadiness") {
  CHECK_FALSE(steady_compute({3.7e11, 5e10}, 4.4e11, P)); // 84% of the undisturbed rate
  HostStatePolicy lenient;
  lenient.steady_compute_fraction = 0.80;
  CHECK(steady_compute({3.7e11, 5e10}, 4.4e11, lenient));
  // a convolution 15% under the fastest: disturbed by default, steady within 20%
  const std::vector<HostState> probes{HostState{0, 0, 0, 2e11}, HostState{0, 0, 0, 1.7e11}};
  CHECK(steady_probes(probes, 0, P) == std::vector<bool>{true, false});
  lenient.conv_tolerance = 0.20;
  CHECK(steady_probes(probes, 0, lenient) == std::vector<bool>{true, true});
}

TEST_CASE("HostStatePolicy: the share of off probes that makes a calibration changed") {
  const HostState median{4e11, 5e10, 6e10, 2.1e11};
  std::vector<HostState> probes(10, median);
  probes[0].conv_flops_per_second = probes[1].conv_flops_per_second = 1.75e11; // 2 of 10 slow
  CHECK_FALSE(calibration_changed(median, probes, P));
  HostStatePolicy strict;
  strict.max_off_probe_share = 0.15;
  strict.min_conv_near_share = 0;
  CHECK(calibration_changed(median, probes, strict));
  // the near-median rule alone: 8 of 10 within half the tolerance; 0.9 asked for
  HostStatePolicy near;
  near.min_conv_near_share = 0.9;
  CHECK(calibration_changed(median, probes, near));
}
