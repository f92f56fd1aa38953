// Tests of run_sweep: the cartesian product, per-point numbers, and skip reasons.
#include <doctest/doctest.h>

#include "perfmodel/memory_footprint.hpp"
#include "perfmodel/sweep.hpp"
#include "sweep_fixtures.hpp"

using namespace perfmodel;

TEST_CASE("rebatch re-infers every shape at the new batch") {
  Graph g = test::tiny_net(2);
  Graph g5 = rebatch(g, 5);
  CHECK(g5.batch() == 5);
  CHECK(g5.tensor("c").shape == Shape{5, 4, 8, 8});
  CHECK(g5.tensor("y").shape == Shape{5, 10});
  CHECK(g.tensor("y").shape == Shape{2, 10}); // the original is untouched
  CHECK_THROWS_AS(rebatch(test::tiny_net(2, true), 3), InputError);
}

TEST_CASE("points form the cartesian product in hw, dtype, batch, pass order") {
  SweepSpec spec;
  spec.hardware = {test::tiny_gpu("g1"), test::tiny_gpu("g2")};
  spec.dtypes = {DType::fp32, DType::fp16};
  spec.batches = {1, 4, 16};
  spec.passes = {Pass::fwd, Pass::train};
  SweepResult r = run_sweep(test::tiny_net(2), spec);
  REQUIRE(r.points.size() == 2 * 2 * 3 * 2);
  CHECK(r.model == "tiny");
  CHECK(r.evaluated() == 24);
  CHECK(r.skipped() == 0);
  const SweepPoint &p = r.points[1]; // g1 fp32 batch 1 train
  CHECK(p.hw == "g1");
  CHECK(p.dtype == DType::fp32);
  CHECK(p.batch == 1);
  CHECK(p.pass == Pass::train);
  const SweepPoint &q = r.points[23];
  CHECK(q.hw == "g2");
  CHECK(q.dtype == DType::fp16);
  CHECK(q.batch == 16);
  CHECK(q.pass == Pass::train);
}

TEST_CASE("a point's numbers are the prediction of the model at that batch and dtype") {
  SweepSpec spec;
  HwSpec hw = test::tiny_gpu();
  spec.hardware = {hw};
  spec.dtypes = {DType::fp16};
  spec.batches = {8};
  SweepResult r = run_sweep(test::tiny_net(2), spec);
  REQUIRE(r.points.size() == 1);
  const SweepPoint &p = r.points[0];
  REQUIRE_FALSE(p.skipped);

  Graph g = test::tiny_net(8);
  set_dtype(g, DType::fp16);
  Prediction pred = predict(g, hw, PredictOptions{});
  CHECK(p.latency_seconds == doctest::Approx(pred.totals.predicted_seconds));
  CHECK(p.flops == pred.totals.cost.flops);
  CHECK(p.bytes == pred.totals.cost.bytes());
  CHECK(p.energy_joules == doctest::Approx(pred.totals.energy_joules));
  CHECK(p.throughput_samples_per_second == doctest::Approx(8 / p.latency_seconds));
  CHECK(p.energy_per_sample_joules == doctest::Approx(p.energy_joules / 8));
  CHECK(p.flops_per_second == doctest::Approx(double(p.flops) / p.latency_seconds));
  CHECK(p.arithmetic_intensity == doctest::Approx(double(p.flops) / double(p.bytes)));
  CHECK(p.flops_per_second_per_watt == doctest::Approx(double(p.flops) / p.energy_joules));
  CHECK(p.samples_per_joule == doctest::Approx(8 / p.energy_joules));
  CHECK(p.average_power_watts == doctest::Approx(p.energy_joules / p.latency_seconds));
  CHECK(p.share_compute_bound + p.share_memory_bound + p.share_overhead_bound ==
        doctest::Approx(1.0));
  MemoryFootprint mem = memory_footprint(g, Pass::fwd);
  CHECK(p.memory_bytes == mem.total_bytes());
  CHECK(p.weights_bytes == mem.weights_bytes);
  CHECK(p.memory_capacity_bytes == 1e9);
  CHECK(p.fits_in_memory);
}

TEST_CASE("latency grows with the batch and train costs more than forward") {
  SweepSpec spec;
  spec.hardware = {test::tiny_gpu()};
  spec.batches = {1, 64, 1024};
  spec.passes = {Pass::fwd, Pass::train};
  SweepResult r = run_sweep(test::tiny_net(2), spec);
  REQUIRE(r.evaluated() == 6);
  CHECK(r.points[2].latency_seconds > r.points[0].latency_seconds); // fwd 64 > fwd 1
  CHECK(r.points[4].latency_seconds > r.points[2].latency_seconds); // fwd 1024 > fwd 64
  CHECK(r.points[1].latency_seconds > r.points[0].latency_seconds); // train > fwd
  CHECK(r.points[1].memory_bytes > r.points[0].memory_bytes);
  CHECK(r.points[0].dtype == DType::fp32); // no dtype axis: the model's own
}

TEST_CASE("not fitting in memory is reported, not skipped") {
  SweepSpec spec;
  spec.hardware = {test::tiny_gpu("small", 20000)}; // 20 kB of DRAM
  spec.batches = {1, 64};
  SweepResult r = run_sweep(test::tiny_net(2), spec);
  REQUIRE(r.evaluated() == 2);
  CHECK(r.points[0].fits_in_memory); // ~12 kB
  CHECK_FALSE(r.points[1].fits_in_memory);
  CHECK(r.points[1].latency_seconds > 0);
}

TEST_CASE("invalid points are skipped with a reason") {
  SweepSpec spec;
  spec.hardware = {test::tiny_gpu()};
  spec.dtypes = {DType::fp32, DType::int8};
  spec.batches = {0, 2, 3};
  SweepResult r = run_sweep(test::tiny_net(2, true), spec); // reshape holds at batch 2 only
  REQUIRE(r.points.size() == 6);
  // fp32: batch 0, 2, 3
  REQUIRE(r.points[0].skipped);
  CHECK(*r.points[0].skipped == "batch 0 is less than 1");
  CHECK_FALSE(r.points[1].skipped);
  REQUIRE(r.points[2].skipped);
  CHECK(r.points[2].skipped->find("shapes do not hold at batch 3") == 0);
  CHECK(r.points[2].skipped->find("flat") != std::string::npos); // names the layer
  // int8: no unit on this hardware
  REQUIRE(r.points[4].skipped);
  CHECK(r.points[4].skipped->find("no compute unit for int8") != std::string::npos);
  CHECK(r.evaluated() == 1);
}

TEST_CASE("an unusable spec is an error") {
  Graph g = test::tiny_net(2);
  SweepSpec spec;
  spec.batches = {1};
  CHECK_THROWS_AS(run_sweep(g, spec), InputError); // no hardware
  spec.hardware = {test::tiny_gpu()};
  spec.batches = {};
  CHECK_THROWS_AS(run_sweep(g, spec), InputError); // no batch
  spec.batches.assign(kMaxSweepPoints / 2 + 1, 1);
  spec.passes = {Pass::fwd, Pass::train};
  CHECK_THROWS_AS(run_sweep(g, spec), InputError); // too many points
}
