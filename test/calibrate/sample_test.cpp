// Tests of samples built from layers of a graph (the path profiler traces use).
#include <doctest/doctest.h>

#include "perfmodel/calibrate/sample.hpp"
#include "../core/test_graphs.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;

TEST_CASE("sample_from_layer counts with the core and keeps the pass and source") {
  const Graph g =
      test::one_layer({4, 100}, test::make_layer("fc", "linear", {{"out_features", int64_t{10}}}));

  const Sample f = sample_from_layer(g, g.layers[0], KernelPart::fwd, 2e-5, "trace:op 3");
  CHECK(f.op_class == OpClass::gemm);
  CHECK(f.flops == 2.0 * 4 * 10 * 100);
  CHECK(f.seconds == 2e-5);
  CHECK(f.source == "trace:op 3");
  REQUIRE(f.gemm);
  CHECK(f.gemm->m == 4);
  const LayerCost train = layer_cost(g, g.layers[0], Pass::train);
  const Sample w = sample_from_layer(g, g.layers[0], KernelPart::bwd_weight, 3e-5, "");
  CHECK(w.pass == KernelPart::bwd_weight);
  CHECK(w.bytes == double(train.bwd_weight.bytes()));
  CHECK(w.gemm->m == 100); // dW = X^T dY: (k x m)(m x n)
  CHECK(w.features().flops == w.flops);
}
