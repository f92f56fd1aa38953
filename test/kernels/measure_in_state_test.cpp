// measure_graph_in_state: measured again while the host's probes are far from the reference.
#include <doctest/doctest.h>

#include "perfmodel/kernels/cpu/measure_in_state.hpp"
#include "test_layer.hpp"

using namespace perfmodel;
using namespace perfmodel::kernels::cpu;

namespace {

Graph one_relu() {
  Graph g;
  g.name = "t";
  g.inputs.push_back(TensorDesc{"x", {1, 4, 8, 8}, DType::fp32});
  g.layers = {perfmodel::test::layer("r", OpKind::activation, "relu", {"x"},
                                     {{"function", std::string("relu")}})};
  infer_shapes(g);
  return g;
}

const perfmodel::policy::HostStatePolicy kRules{};

MeasureOptions one_pass() {
  MeasureOptions o;
  o.warmup = 0;
  o.iters = 1;
  return o;
}

} // namespace

TEST_CASE("measure_graph_in_state: no reference, one measurement, probed") {
  const StateMeasurement s =
      measure_graph_in_state(one_relu(), one_pass(), std::nullopt, 3, kRules);
  CHECK(s.attempts == 1);
  CHECK(s.severity == 0);
  CHECK(s.measurement.host_before);
  CHECK(s.measurement.host_after);
  CHECK(s.measurement.layers.size() == 1);
}

TEST_CASE("measure_graph_in_state: a state no host reaches takes every attempt") {
  // a reference a thousand times faster than any CPU: every attempt 1000x off in compute
  const HostState unreachable{1e17, 1e14, 1e14, 1e17, 0};
  std::vector<int> retries;
  const StateMeasurement s =
      measure_graph_in_state(one_relu(), one_pass(), unreachable, 3, kRules,
                             [&](int attempt, const StateMeasurement &best) {
                               retries.push_back(attempt);
                               CHECK(best.severity > 1);
                               // every figure 1000x off: compute (10% tolerance) or conv first
                               CHECK(best.worst.find("-100% ") != std::string::npos);
                             });
  CHECK(s.attempts == 3);
  CHECK(retries == std::vector<int>{2, 3});
  CHECK(s.severity > 1);
  // a reference without figures judges nothing: one attempt
  CHECK(measure_graph_in_state(one_relu(), one_pass(), HostState{}, 3, kRules).attempts == 1);
}

TEST_CASE("measure_graph_in_state: the probes among the passes are judged too") {
  MeasureOptions o = one_pass();
  o.iters = 3;
  o.quiet_probe_interval_seconds = 1e-6;
  // only the convolution unreachable: before, after and among the passes all 1000x off
  HostState ref;
  ref.conv_flops_per_second = 1e17;
  const StateMeasurement s = measure_graph_in_state(one_relu(), o, ref, 2, kRules);
  CHECK(s.attempts == 2);
  REQUIRE(s.measurement.quiet);
  CHECK(s.measurement.quiet->probes.size() == 4);
  CHECK(s.severity > 1);
}
