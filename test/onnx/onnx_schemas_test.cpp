// The convolutions' weight rank, checked inside ONNX's shape inference before libonnx's own
// inference of the node (io/onnx/onnx_schemas.hpp): a weight of another rank than the data,
// without kernel_shape, is an InputError naming the node, whatever the weight comes from.
#include <doctest/doctest.h>

#include "onnx_builder.hpp"

using perfmodel::test::OnnxBuilder;
using namespace perfmodel;

namespace {

const char *const kRank43 = "the weight (input 1) has rank 4 and the data (input 0) rank 3";

// A Conv of x (dims `x`) by a weight that is a graph input of dims `w`.
OnnxBuilder conv_of_input(const std::vector<std::string> &x, const std::vector<std::string> &w) {
  OnnxBuilder b;
  b.input("x", x);
  b.input("w", w);
  b.node("Conv", {"x", "w"}, {"y"}, "c");
  b.output("y");
  return b;
}

} // namespace

TEST_CASE("a convolution's weight given as a graph input has the data's rank") {
  // libonnx's Conv inference crashed (SIGSEGV) on each of these before the check.
  CHECK(conv_of_input({"1", "3", "8", "8"}, {"4", "3", "3", "3"}).load().tensor("y").shape ==
        Shape{1, 4, 6, 6});
  CHECK_THROWS_WITH_AS(conv_of_input({"1", "3", "8"}, {"4", "3", "3", "3"}).load(),
                       doctest::Contains(kRank43), InputError);
  CHECK_THROWS_WITH_AS(conv_of_input({"1", "3", "8"}, {"4", "3", "3", "3"}).load(),
                       doctest::Contains("node name: c"), InputError);
  CHECK_THROWS_WITH_AS(conv_of_input({"1", "3", "8", "8"}, {"4", "3", "3"}).load(),
                       doctest::Contains("has rank 3 and the data (input 0) rank 4"), InputError);
}

TEST_CASE("a convolution's weight computed by another node has the data's rank") {
  OnnxBuilder b;
  b.input("x", {"1", "3", "8"});
  b.init("w0", {4, 3, 3, 3});
  b.node("Identity", {"w0"}, {"w"});
  b.node("Conv", {"x", "w"}, {"y"}, "c");
  b.output("y");
  CHECK_THROWS_WITH_AS(b.load(), doctest::Contains(kRank43), InputError);
}

TEST_CASE("QLinearConv's and ConvInteger's weights are checked too") {
  OnnxBuilder q;
  q.input("x", {"1", "3", "8"}, onnx::TensorProto::UINT8);
  q.input("w", {"4", "3", "3", "3"}, onnx::TensorProto::UINT8);
  q.init("s", {});
  auto &z = q.init("z", {});
  z.set_data_type(onnx::TensorProto::UINT8);
  z.set_raw_data(std::string(1, '\0'));
  q.node("QLinearConv", {"x", "s", "z", "w", "s", "z", "s", "z"}, {"y"}, "q");
  q.output("y");
  CHECK_THROWS_WITH_AS(q.load(), doctest::Contains("the weight (input 3) has rank 4"), InputError);
  OnnxBuilder i;
  i.input("x", {"1", "3", "8"}, onnx::TensorProto::UINT8);
  i.input("w", {"4", "3", "3", "3"}, onnx::TensorProto::UINT8);
  i.node("ConvInteger", {"x", "w"}, {"y"}, "i");
  i.output("y");
  CHECK_THROWS_WITH_AS(i.load(), doctest::Contains(kRank43), InputError);
}

TEST_CASE("a convolution inside a subgraph is checked with the outer graph's weight") {
  OnnxBuilder b;
  b.input("x", {"1", "3", "8"});
  b.input("w", {"4", "3", "3", "3"});
  auto *cond = b.model().mutable_graph()->add_initializer();
  cond->set_name("cond");
  cond->set_data_type(onnx::TensorProto::BOOL);
  cond->add_int32_data(1);
  auto &n = b.node("If", {"cond"}, {"y"}, "if");
  auto branch = [&n](const char *name, const std::string &op, std::vector<std::string> ins) {
    auto *a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::GRAPH);
    auto *g = a->mutable_g();
    g->set_name(name);
    auto *c = g->add_node();
    c->set_op_type(op);
    c->set_name(std::string(name) + "_" + op);
    for (const auto &i : ins)
      c->add_input(i);
    c->add_output(std::string(name) + "_y");
    auto *out = g->add_output();
    out->set_name(std::string(name) + "_y");
    out->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  };
  branch("then_branch", "Conv", {"x", "w"});
  branch("else_branch", "Identity", {"x"});
  b.output("y");
  CHECK_THROWS_WITH_AS(b.load(), doctest::Contains(kRank43), InputError);
}
