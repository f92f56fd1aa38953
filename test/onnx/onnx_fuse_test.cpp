// Decomposed LayerNorm (opset < 17 exports) is fused into one layer_norm layer.
#include <doctest/doctest.h>

#include "onnx_builder.hpp"
#include "perfmodel/cost.hpp"

using perfmodel::test::OnnxBuilder;
using namespace perfmodel;

namespace {

// x -> ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div [, Mul w, Add b] -> y
OnnxBuilder decomposed(bool affine, float exponent = 2.0f) {
  OnnxBuilder b;
  b.input("x", {"N", "5", "16"});
  auto &r1 = b.node("ReduceMean", {"x"}, {"mu"}, "/ln/ReduceMean");
  OnnxBuilder::attr(r1, "axes", std::vector<int64_t>{-1});
  b.node("Sub", {"x", "mu"}, {"d"}, "/ln/Sub");
  b.constant("two", exponent);
  b.node("Pow", {"d", "two"}, {"sq"}, "/ln/Pow");
  auto &r2 = b.node("ReduceMean", {"sq"}, {"var"}, "/ln/ReduceMean_1");
  OnnxBuilder::attr(r2, "axes", std::vector<int64_t>{-1});
  b.constant("eps", 1e-5f);
  b.node("Add", {"var", "eps"}, {"ve"}, "/ln/Add");
  b.node("Sqrt", {"ve"}, {"sd"}, "/ln/Sqrt");
  b.node("Div", {"d", "sd"}, affine ? std::vector<std::string>{"n"} : std::vector<std::string>{"y"},
         "/ln/Div");
  if (affine) {
    b.init("w", {16});
    b.init("bias", {16});
    b.node("Mul", {"n", "w"}, {"nw"}, "/ln/Mul");
    b.node("Add", {"nw", "bias"}, {"y"}, "/ln/Add_1");
  }
  b.output("y");
  return b;
}

} // namespace

TEST_CASE("the affine chain becomes one layer_norm named after the module") {
  Graph g = decomposed(true).load();
  REQUIRE(g.layers.size() == 1);
  const Layer &l = g.layers[0];
  CHECK(l.op == OpKind::layer_norm);
  CHECK(l.name == "/ln");
  CHECK(l.inputs == std::vector<std::string>{"x"});
  CHECK(l.outputs == std::vector<std::string>{"y"});
  CHECK(g.param_count() == 32);
  CHECK(layer_cost(g, l, Pass::fwd).fwd.flops == 8 * 5 * 16);
}

TEST_CASE("without Mul/Add by weights the layer_norm has no params") {
  Graph g = decomposed(false).load();
  REQUIRE(g.layers.size() == 1);
  CHECK(g.layers[0].attrs.get_int("elementwise_affine", 1) == 0);
  CHECK(g.param_count() == 0);
}

TEST_CASE("a different chain (Pow 3) is left op by op") {
  Graph g = decomposed(true, 3.0f).load();
  CHECK(g.layers.size() == 9);
  CHECK(g.param_count() == 32); // the Mul/Add weights are still counted, once
}

TEST_CASE("the erf GELU chain becomes one gelu activation") {
  OnnxBuilder b;
  b.input("x", {"N", "10"});
  b.constant("sqrt2", 1.41421356f);
  b.node("Div", {"x", "sqrt2"}, {"d"}, "/mlp/Div");
  b.node("Erf", {"d"}, {"e"}, "/mlp/Erf");
  b.constant("one", 1.0f);
  b.node("Add", {"e", "one"}, {"a"}, "/mlp/Add");
  b.node("Mul", {"x", "a"}, {"m"}, "/mlp/Mul");
  b.constant("half", 0.5f);
  b.node("Mul", {"m", "half"}, {"y"}, "/mlp/Mul_1");
  b.output("y");
  Graph g = b.load();
  REQUIRE(g.layers.size() == 1);
  CHECK(g.layers[0].name == "/mlp/Gelu");
  CHECK(g.layers[0].attrs.get_string("function", "") == "gelu");
  CHECK(layer_cost(g, g.layers[0], Pass::fwd).fwd.flops == 5 * 10);
  CHECK(layer_cost(g, g.layers[0], Pass::fwd).fwd.bytes() == 2 * 10 * 4);
}
