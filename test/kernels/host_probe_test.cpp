// The host probes' mechanism (kernels/cpu/host_probe.hpp); how their figures are judged is
// tested in test/policy.
#include <doctest/doctest.h>

#include "perfmodel/kernels/cpu/host_probe.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"

using namespace perfmodel::kernels::cpu;

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
