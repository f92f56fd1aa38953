// Tests of samples built from layers of a graph (the path profiler traces use).
#include <doctest/doctest.h>

#include "calibrate/sample.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;

TEST_CASE("sample_from_layer counts with the core and keeps the pass and source") {
  Graph g;
  g.name = "t";
  g.inputs = {TensorDesc{"x", {4, 100}, DType::fp32}};
  Layer l;
  l.name = "fc";
  l.op = OpKind::linear;
  l.op_name = "linear";
  l.inputs = {"x"};
  l.outputs = {"y"};
  l.attrs.set("out_features", int64_t{10});
  g.layers.push_back(l);
  infer_shapes(g);

  const Sample f = sample_from_layer(g, g.layers[0], KernelPass::fwd, 2e-5, "trace:op 3");
  CHECK(f.op_class == OpClass::gemm);
  CHECK(f.flops == 2.0 * 4 * 10 * 100);
  CHECK(f.seconds == 2e-5);
  CHECK(f.source == "trace:op 3");
  REQUIRE(f.gemm);
  CHECK(f.gemm->m == 4);
  const LayerCost train = layer_cost(g, g.layers[0], Pass::train);
  const Sample w = sample_from_layer(g, g.layers[0], KernelPass::bwd_weight, 3e-5, "");
  CHECK(w.pass == KernelPass::bwd_weight);
  CHECK(w.bytes == double(train.bwd_weight.bytes()));
  CHECK(w.gemm->m == 100); // dW = X^T dY: (k x m)(m x n)
  CHECK(w.features().flops == w.flops);
}
