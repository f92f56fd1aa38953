// The rollup per op type and per bound: every layer in one group of each list, so each list
// sums to the prediction's totals.
#include <doctest/doctest.h>

#include "perfmodel/rollup.hpp"
#include "test_graphs.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

namespace {

HwSpec gpu() {
  HwSpec hw;
  hw.name = "g";
  hw.kind = "gpu";
  hw.compute = {{"simt", DType::fp32, 1e13, false, 1e-12}};
  hw.memory = {{"dram", 1e12, 1e10, 3e-11}};
  hw.launch_overhead_seconds = 2e-6;
  hw.tdp_watts = 300;
  return hw;
}

// Two convolutions, two relus, a pool, a flatten (a view: no work) and a linear layer: op
// types with several layers, and layers bound by compute, memory, overhead and nothing.
Graph net() {
  return make_graph(
      {{"x", {8, 16, 32, 32}}},
      {make_layer("c1", "conv2d",
                  {{"out_channels", int64_t{64}}, {"kernel", int64_t{3}}, {"pad", int64_t{1}}}),
       make_layer("r1", "relu", {}, {"c1"}),
       make_layer("c2", "conv2d",
                  {{"out_channels", int64_t{64}}, {"kernel", int64_t{3}}, {"pad", int64_t{1}}},
                  {"r1"}),
       make_layer("r2", "relu", {}, {"c2"}),
       make_layer("p1", "maxpool", {{"kernel", int64_t{32}}}, {"r2"}),
       make_layer("f", "flatten", {}, {"p1"}),
       make_layer("fc", "linear", {{"out_features", int64_t{10}}}, {"f"})});
}

// Sums of one list of groups, to compare with the totals.
struct Sums {
  int layers = 0;
  double seconds = 0, fraction = 0, energy = 0;
  int64_t flops = 0, macs = 0, bytes = 0;
  double compute = 0, memory = 0, overhead = 0;
};

Sums sum(const std::vector<LayerGroup> &groups) {
  Sums s;
  for (const LayerGroup &g : groups) {
    s.layers += g.layers;
    s.seconds += g.seconds;
    s.fraction += g.fraction;
    s.energy += g.energy_joules;
    s.flops += g.cost.flops;
    s.macs += g.cost.macs;
    s.bytes += g.cost.bytes();
    s.compute += g.seconds_compute_bound;
    s.memory += g.seconds_memory_bound;
    s.overhead += g.seconds_overhead_bound;
  }
  return s;
}

void check_sums_to_totals(const std::vector<LayerGroup> &groups, const Prediction &p) {
  const Sums s = sum(groups);
  const Totals &t = p.totals;
  CHECK(s.layers == t.layers);
  CHECK(s.flops == t.cost.flops);
  CHECK(s.macs == t.cost.macs);
  CHECK(s.bytes == t.cost.bytes());
  CHECK(s.seconds == doctest::Approx(t.predicted_seconds));
  CHECK(s.energy == doctest::Approx(t.energy_joules));
  CHECK(s.fraction == doctest::Approx(1.0));
  CHECK(s.compute == doctest::Approx(t.seconds_compute_bound));
  CHECK(s.memory == doctest::Approx(t.seconds_memory_bound));
  CHECK(s.overhead == doctest::Approx(t.seconds_overhead_bound));
}

} // namespace

TEST_CASE("op types: one group per op as written, most time first, summing to the totals") {
  const Graph model = net(); // a Prediction points into its graph: the graph must outlive it
  const Prediction p = predict(model, gpu(), {});
  const Rollup r = rollup(p);
  REQUIRE(r.op_types.size() == 5);
  CHECK(r.op_types[0].name == "conv2d");
  CHECK(r.op_types[0].layers == 2);
  for (size_t i = 1; i < r.op_types.size(); ++i)
    CHECK(r.op_types[i - 1].seconds >= r.op_types[i].seconds);
  CHECK(r.op_types.back().name == "flatten"); // no time: last
  CHECK(r.op_types.back().seconds == 0);
  CHECK(r.op_types.back().dominant_bound() == Bound::none);
  const LayerGroup *relu = nullptr;
  for (const LayerGroup &g : r.op_types)
    if (g.name == "relu")
      relu = &g;
  REQUIRE(relu);
  CHECK(relu->layers == 2);
  CHECK(relu->seconds == doctest::Approx(p.layers[1].timing.seconds + p.layers[3].timing.seconds));
  check_sums_to_totals(r.op_types, p);
}

TEST_CASE("bounds: compute, memory, overhead always, none when a layer does no work") {
  const Graph model = net();
  const Prediction p = predict(model, gpu(), {});
  const Rollup r = rollup(p);
  REQUIRE(r.bounds.size() == 4);
  CHECK(r.bounds[0].name == "compute");
  CHECK(r.bounds[1].name == "memory");
  CHECK(r.bounds[2].name == "overhead");
  CHECK(r.bounds[3].name == "none");
  CHECK(r.bounds[3].layers == 1); // the flatten
  CHECK(r.bounds[0].seconds == doctest::Approx(p.totals.seconds_compute_bound));
  CHECK(r.bounds[0].dominant_bound() == Bound::compute);
  check_sums_to_totals(r.bounds, p);

  // Without a view the "none" group is left out, and the lists still sum to the totals.
  const Graph g =
      make_graph({{"x", {2, 8}}}, {make_layer("fc", "linear", {{"out_features", int64_t{4}}})});
  const Prediction q = predict(g, gpu(), {});
  const Rollup rq = rollup(q);
  CHECK(rq.bounds.size() == 3);
  check_sums_to_totals(rq.bounds, q);
  check_sums_to_totals(rq.op_types, q);
}

TEST_CASE("the train pass: groups hold every pass's counts") {
  PredictOptions o;
  o.pass = Pass::train;
  const Graph model = net();
  const Prediction p = predict(model, gpu(), o);
  const Rollup r = rollup(p);
  check_sums_to_totals(r.op_types, p);
  check_sums_to_totals(r.bounds, p);
  CHECK(r.op_types[0].cost.flops > predict(net(), gpu(), {}).layers[0].cost.total.flops * 2);
}

TEST_CASE("no time predicted: shares are 0, not NaN") {
  const Graph g = make_graph({{"x", {2, 8}}}, {make_layer("f", "flatten")});
  const Rollup r = rollup(predict(g, gpu(), {}));
  REQUIRE(r.op_types.size() == 1);
  CHECK(r.op_types[0].fraction == 0);
  for (const LayerGroup &b : r.bounds)
    CHECK(b.fraction == 0);
}
