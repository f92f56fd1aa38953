// Tests of the host check of a measurement (check_host) and the severity its attempts are
// compared by.
#include <doctest/doctest.h>

#include "perfmodel/policy/measurement.hpp"

using namespace perfmodel;
using namespace perfmodel::policy;

namespace {

MeasurementRun probed(HostState reference, HostState before, HostState after) {
  MeasurementRun r;
  r.host_reference = reference;
  r.host_before = before;
  r.host_after = after;
  return r;
}

QuietPasses quiet(int quiet_passes, int spell_passes, double calibration_flops) {
  QuietPasses q;
  q.quiet_passes = quiet_passes;
  q.spell_passes = spell_passes;
  q.candidates = quiet_passes + spell_passes;
  q.calibration_flops_per_second = calibration_flops;
  return q;
}

} // namespace

TEST_CASE("check_host: drift per probe, drifted beyond tolerance, by the run's policy") {
  const HostState ref{4e11, 5e10, 6e10, 2e11};
  MeasurementRun r = probed(ref, HostState{3.4e11, 5e10, 6e10, 2e11}, ref);
  HostCheck h = check_host(r);
  REQUIRE(h.drift_before);
  REQUIRE(h.drift_after);
  CHECK(h.drift_before->compute == doctest::Approx(-0.15));
  CHECK(h.drifted);
  CHECK(h.changed);
  CHECK_FALSE(h.passes_in_spell);
  CHECK(h.policy.compute_tolerance == 0.10);
  r.host_policy.compute_tolerance = 0.20; // the same probes, judged by a wider tolerance
  h = check_host(r);
  CHECK_FALSE(h.drifted);
  CHECK_FALSE(h.changed);
  CHECK(h.policy.compute_tolerance == 0.20);
}

TEST_CASE("check_host: no reference, nothing judged; passes in a spell change the state") {
  MeasurementRun r;
  r.host_before = HostState{4e11, 5e10};
  HostCheck h = check_host(r);
  CHECK_FALSE(h.drift_before);
  CHECK_FALSE(h.changed);
  r.quiet = quiet(5, 35, 1.9e11); // 12.5% quiet
  h = check_host(r);
  CHECK(h.passes_in_spell);
  CHECK(h.changed);
  r.quiet_policy.min_quiet_fraction = 0.10;
  CHECK_FALSE(check_host(r).passes_in_spell);
}

TEST_CASE("attempt_severity: the probes' drift, or 2 minus the quiet share of a spell") {
  const HostState ref{4e11, 5e10, 6e10, 2e11};
  MeasurementRun r = probed(ref, HostState{3.8e11, 5e10, 6e10, 2e11}, ref);
  CHECK(attempt_severity(check_host(r), r.quiet) == doctest::Approx(0.5));
  r.quiet = quiet(5, 35, 1.9e11);
  CHECK(attempt_severity(check_host(r), r.quiet) == doctest::Approx(2 - 5.0 / 40));
  // a probe further off than the spell: its drift
  r.host_before = HostState{2.4e11, 5e10, 6e10, 2e11}; // compute -40%: 4 tolerances
  CHECK(attempt_severity(check_host(r), r.quiet) == doctest::Approx(4.0));
  CHECK(attempt_severity(check_host(MeasurementRun{}), std::nullopt) == 0);
}
