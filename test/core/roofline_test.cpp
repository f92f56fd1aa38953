// The roofline formula and the energy model, on a made-up machine with round numbers.
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/energy.hpp"
#include "perfmodel/roofline.hpp"

using namespace perfmodel;

namespace {
HwSpec machine() {
  HwSpec hw;
  hw.name = "round";
  hw.kind = "gpu";
  hw.compute = {{"simt", DType::fp32, 1e12, false, 2e-12},
                {"tensor", DType::fp16, 8e12, true, 0.5e-12}};
  hw.memory = {{"dram", 1e11, 8e9, 10e-12}};
  hw.launch_overhead_seconds = 1e-6;
  hw.static_watts = 50;
  hw.tdp_watts = 200;
  return hw;
}
LayerCost cost(int64_t flops, int64_t bytes, bool gemm) {
  LayerCost c;
  c.total.flops = flops;
  c.total.bytes_input = bytes;
  c.gemm_like = gemm;
  return c;
}
} // namespace

TEST_CASE("compute-bound, memory-bound and overhead-bound layers") {
  const HwSpec hw = machine();
  LayerTiming t = roofline_time(hw, cost(1000000000, 1000000, false), DType::fp32);
  CHECK(t.compute_seconds == rel(1e-3));
  CHECK(t.memory_seconds == rel(1e-5));
  CHECK(t.seconds == rel(1e-3 + 1e-6));
  CHECK(t.bound == Bound::compute);
  CHECK(t.attainable_flops_per_second == doctest::Approx(1e12));

  t = roofline_time(hw, cost(1000000, 100000000, false), DType::fp32);
  CHECK(t.bound == Bound::memory);
  CHECK(t.seconds == rel(1e-3 + 1e-6));
  CHECK(t.attainable_flops_per_second == doctest::Approx(0.01 * 1e11));

  t = roofline_time(hw, cost(10, 10, false), DType::fp32);
  CHECK(t.bound == Bound::overhead);

  t = roofline_time(hw, cost(0, 0, false), DType::fp32);
  CHECK(t.bound == Bound::none);
  CHECK(t.seconds == 0);
}

TEST_CASE("matrix units only for GEMM-like layers; missing dtype is an error") {
  const HwSpec hw = machine();
  CHECK(roofline_time(hw, cost(8000000000, 1000, true), DType::fp16).compute_seconds == rel(1e-3));
  // Elementwise fp16 work falls back to the fp32 SIMT units.
  CHECK(roofline_time(hw, cost(1000000000, 1000, false), DType::fp16).compute_seconds == rel(1e-3));
  CHECK_THROWS_AS(roofline_time(hw, cost(1000, 1000, true), DType::bf16), InputError);
}

TEST_CASE("component energy = static x time + pJ/FLOP x FLOPs + pJ/B x bytes") {
  const HwSpec hw = machine();
  const LayerCost c = cost(1000000000, 1000000, false);
  const LayerTiming t = roofline_time(hw, c, DType::fp32);
  const double e = component_energy_joules(hw, c, t);
  CHECK(e == doctest::Approx(50 * t.seconds + 2e-12 * 1e9 + 10e-12 * 1e6));
}

TEST_CASE("rates: boda's totals for NIN at batch 5") {
  // 12,563,440,960 F and 99,191,004 B over 7.93677 ms at 200 W (boda-nin-batch5-profile.txt).
  const Rates r = make_rates(12563440960.0, 99191004.0, 0.00793677, 200 * 0.00793677);
  CHECK(r.flops_per_second == doctest::Approx(1.58294e12).epsilon(1e-4));
  CHECK(r.bytes_per_second == doctest::Approx(12.4976e9).epsilon(1e-4));
  CHECK(r.energy_joules == doctest::Approx(1.587354));
  CHECK(r.flops_per_second_per_watt == doctest::Approx(7.9147e9).epsilon(1e-4));
}
