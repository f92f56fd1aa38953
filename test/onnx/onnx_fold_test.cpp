// Shape subgraphs (Shape -> Gather -> Div -> Unsqueeze -> Concat -> Reshape) are evaluated to
// constants so ONNX 1.12's Reshape inference can read them; they cost nothing.
#include <doctest/doctest.h>

#include "onnx_builder.hpp"
#include "perfmodel/cost.hpp"

using perfmodel::test::OnnxBuilder;
using namespace perfmodel;

TEST_CASE("a torch-style reshape([B, C / heads, heads]) resolves at any batch") {
  OnnxBuilder b;
  b.input("x", {"B", "12"});
  b.node("Shape", {"x"}, {"s"});
  b.init_i64("i0", {0}, true);
  b.init_i64("i1", {1}, true);
  b.node("Gather", {"s", "i0"}, {"n"});
  b.node("Gather", {"s", "i1"}, {"c"});
  b.init_i64("heads", {3}, true);
  b.node("Div", {"c", "heads"}, {"ch"});
  b.init_i64("ax", {0});
  b.node("Unsqueeze", {"n", "ax"}, {"un"});
  b.node("Unsqueeze", {"ch", "ax"}, {"uc"});
  b.init_i64("h1", {3});
  auto &cat = b.node("Concat", {"un", "uc", "h1"}, {"shape"});
  OnnxBuilder::attr(cat, "axis", int64_t{0});
  b.node("Reshape", {"x", "shape"}, {"y"});
  b.output("y");
  io::ModelLoadOptions o;
  o.batch = 5;
  Graph g = b.load(o);
  REQUIRE(g.layers.size() == 1); // only the Reshape: a view
  CHECK(g.layers[0].op == OpKind::reshape);
  CHECK(g.tensor("y").shape == Shape{5, 4, 3});
  CHECK(layer_cost(g, g.layers[0], Pass::fwd).fwd.bytes() == 0);
}

TEST_CASE("ConstantOfShape / Equal / Where (torch's expand(-1)) fold too") {
  OnnxBuilder b;
  b.input("x", {"B", "1", "4"});
  b.init("tok", {1, 1, 4});
  b.node("Shape", {"x"}, {"s"});
  b.init_i64("i0", {0}, true);
  b.node("Gather", {"s", "i0"}, {"n"});
  b.init_i64("ax", {0});
  b.node("Unsqueeze", {"n", "ax"}, {"un"});
  b.init_i64("rest", {-1, -1});
  auto &cat = b.node("Concat", {"un", "rest"}, {"want"});
  OnnxBuilder::attr(cat, "axis", int64_t{0});
  b.init_i64("three", {3});
  auto *v = b.node("ConstantOfShape", {"three"}, {"ones"}).add_attribute();
  v->set_name("value");
  v->set_type(onnx::AttributeProto::TENSOR);
  v->mutable_t()->set_data_type(onnx::TensorProto::INT64);
  v->mutable_t()->add_dims(1);
  v->mutable_t()->add_int64_data(1);
  b.init_i64("minus", {-1}, true);
  b.node("Equal", {"want", "minus"}, {"eq"});
  b.node("Where", {"eq", "ones", "want"}, {"target"});
  b.node("Expand", {"tok", "target"}, {"cls"});
  auto &c = b.node("Concat", {"cls", "x"}, {"y"});
  OnnxBuilder::attr(c, "axis", int64_t{1});
  b.output("y");
  io::ModelLoadOptions o;
  o.batch = 3;
  Graph g = b.load(o);
  CHECK(g.tensor("cls").shape == Shape{3, 1, 4});
  CHECK(g.tensor("y").shape == Shape{3, 2, 4});
  CHECK(g.param_count() == 4); // the class token, read by the Expand layer
}

TEST_CASE("shape values beyond 2^53 are not folded (no float-to-int overflow)") {
  // Found by fuzz/fuzz_onnx.cpp: a Mul in a shape subgraph made 6.7e19, which the folder then
  // converted to int64 (undefined behaviour; UBSan stopped the fuzzer). Such values are left to
  // ONNX's own inference, and the Reshape fails as an input error.
  OnnxBuilder b;
  b.input("x", {"B", "12"});
  b.node("Shape", {"x"}, {"s"});
  b.init_i64("big", {int64_t{1} << 62, int64_t{1} << 62});
  b.node("Mul", {"s", "big"}, {"shape"});
  b.node("Reshape", {"x", "shape"}, {"y"});
  b.output("y");
  CHECK_THROWS_AS(b.load(), InputError);
}
