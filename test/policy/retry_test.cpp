// Tests of the retry policies: when a calibration or a measurement is taken again, which
// attempt is kept, and how far a measurement's probes drifted.
#include <doctest/doctest.h>

#include "perfmodel/policy/measurement_policy.hpp"
#include "perfmodel/policy/retry.hpp"

using namespace perfmodel;
using namespace perfmodel::policy;

TEST_CASE("CalibrationRetryPolicy and MeasureRetryPolicy: the defaults") {
  const CalibrationRetryPolicy c;
  CHECK(c.attempts == 1);
  CHECK(c.network_attempts == 3);
  CHECK(c.extra_rounds == 9);
  CHECK(c.quick_extra_rounds == 2);
  CHECK(c.max_uncounted_case_share == 0.10);
  CHECK(c.min_counted_run_share == 0.20);
  const MeasureRetryPolicy m;
  CHECK(m.attempts == 1);
  CHECK(m.wait_seconds == 20);
}

TEST_CASE("MeasurementPolicy: the shared defaults agree") {
  const MeasurementPolicy p;
  CHECK(p.quiet.conv_tolerance == p.host.conv_tolerance);
  CHECK(p.placement.round_trip_factor == p.host.round_trip_factor);
  CHECK(p.quiet.probe_interval_seconds == p.probe.round_probe_interval_seconds);
  CHECK(p.probe.runs == 7);
}

TEST_CASE("too_few_counted: the uncounted cases' share or the counted runs' share") {
  const CalibrationRetryPolicy p;
  CHECK_FALSE(too_few_counted(700, 3456, 5, 192, p));
  CHECK(too_few_counted(600, 3456, 5, 192, p));   // 17% of the runs counted
  CHECK(too_few_counted(2000, 3456, 20, 192, p)); // 20 of 192 cases without a counted run
  CHECK_FALSE(too_few_counted(2000, 3456, 19, 192, p));
  CalibrationRetryPolicy lenient;
  lenient.min_counted_run_share = 0.15;
  CHECK_FALSE(too_few_counted(600, 3456, 5, 192, lenient));
}

TEST_CASE("calibrate_again: while the last attempt changed and attempts are left") {
  CalibrationRetryPolicy p;
  CHECK_FALSE(calibrate_again({{true, 10, 100}}, p)); // one attempt by default
  p.attempts = 3;
  CHECK(calibrate_again({{true, 10, 100}}, p));
  CHECK_FALSE(calibrate_again({{true, 10, 100}, {false, 50, 100}}, p));
  CHECK_FALSE(calibrate_again({{true, 10, 100}, {true, 20, 100}, {true, 30, 100}}, p));
  CHECK_FALSE(calibrate_again({}, p));
}

TEST_CASE(
    "kept_calibration: the first that held, else the largest counted share, later of equals") {
  CHECK(kept_calibration({{true, 10, 100}, {false, 5, 100}, {false, 90, 100}}) == 1);
  CHECK(kept_calibration({{true, 10, 100}, {true, 40, 100}, {true, 30, 100}}) == 1);
  CHECK(kept_calibration({{true, 40, 100}, {true, 40, 100}}) == 1);
  CHECK(kept_calibration({{true, 0, 0}}) == 0);
  CHECK(kept_calibration({}) == 0);
}

TEST_CASE("least_severe: the smallest severity, the later of equals") {
  CHECK(least_severe({2.5, 1.2, 3}) == 1);
  CHECK(least_severe({1.2, 1.2, 3}) == 1);
  CHECK(least_severe({0.4}) == 0);
  CHECK(least_severe({}) == 0);
}

TEST_CASE("state_drift: the probes around the passes, or among them where further off") {
  const HostStatePolicy p;
  const HostState ref{4e11, 5e10, 6e10, 2e11};
  const HostState quiet{4e11, 5e10, 6e10, 2e11};
  StateDrift d = state_drift(ref, quiet, quiet, {}, p);
  CHECK(d.severity == 0);
  CHECK(d.worst.empty());
  // the probes around the passes quiet, the median among them 20% slow: 2 tolerances
  const std::vector<PassProbe> among = {{0, 1.6e11}, {2, 1.6e11}, {4, 1.7e11}};
  d = state_drift(ref, quiet, quiet, among, p);
  CHECK(d.severity == doctest::Approx(2.0));
  CHECK(d.worst == "conv -20% among the passes (median of 3 probes)");
  // a wider conv tolerance halves it
  HostStatePolicy wide;
  wide.conv_tolerance = 0.20;
  CHECK(state_drift(ref, quiet, quiet, among, wide).severity == doctest::Approx(1.0));
  // compute 30% under before the passes: 3 tolerances, beyond the passes' 2
  d = state_drift(ref, HostState{2.8e11, 5e10, 6e10, 2e11}, quiet, among, p);
  CHECK(d.severity == doctest::Approx(3.0));
  CHECK(d.worst == "compute -30% before the passes");
}
