// Tests of the GEMM epilogue rules the CPU executor and the model share.
#include <doctest/doctest.h>

#include <limits>

#include "perfmodel/epilogue.hpp"

using namespace perfmodel;

TEST_CASE("a layer's bias: its parameters say, else its bias attribute (default 1)") {
  Layer l;
  l.op = OpKind::conv2d;
  CHECK(layer_has_bias(l));
  l.attrs.set("bias", int64_t{0});
  CHECK_FALSE(layer_has_bias(l));
  l.params = {TensorDesc{"w", {4, 3, 1, 1}, DType::fp32}};
  CHECK_FALSE(layer_has_bias(l)); // a weight alone (an ONNX Conv without B)
  l.params.push_back(TensorDesc{"b", {4}, DType::fp32});
  CHECK(layer_has_bias(l));
}

TEST_CASE("GEMM epilogues fuse the clamps of relu and relu6 only") {
  const auto relu = fused_clamp("relu"), relu6 = fused_clamp("relu6");
  REQUIRE(relu);
  REQUIRE(relu6);
  CHECK(relu->first == 0.0f);
  CHECK(relu->second == std::numeric_limits<float>::infinity());
  CHECK(relu6->second == 6.0f);
  CHECK_FALSE(fused_clamp("sigmoid"));
  CHECK_FALSE(fused_clamp(""));
}

TEST_CASE("epilogue passes: a bias and a clamp, for conv2d and linear only") {
  Layer l;
  l.op = OpKind::conv2d;
  l.attrs.set("bias", int64_t{0});
  CHECK(epilogue_sweeps(l) == 0);
  l.activation = "relu";
  CHECK(epilogue_sweeps(l) == 1);
  l.attrs.set("bias", int64_t{1});
  CHECK(epilogue_sweeps(l) == 2);
  l.activation = "tanh"; // runs as a pass of its own after the layer, not in the epilogue
  CHECK(epilogue_sweeps(l) == 1);
  l.op = OpKind::linear;
  CHECK(epilogue_sweeps(l) == 1);
  for (OpKind op : {OpKind::conv_transpose2d, OpKind::matmul, OpKind::activation}) {
    l.op = op;
    CHECK(epilogue_sweeps(l) == 0);
  }
}
