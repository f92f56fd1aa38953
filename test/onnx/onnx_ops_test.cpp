// Counting of every mapped ONNX operator, each on a tiny graph built in memory.
#include <doctest/doctest.h>

#include "onnx_builder.hpp"
#include "perfmodel/cost.hpp"

using perfmodel::test::OnnxBuilder;
using namespace perfmodel;

namespace {

const Layer &only(const Graph &g, OpKind op) {
  const Layer *found = nullptr;
  for (const auto &l : g.layers)
    if (l.op == op) {
      REQUIRE_MESSAGE(found == nullptr, "more than one layer of kind " << to_string(op));
      found = &l;
    }
  REQUIRE_MESSAGE(found != nullptr, "no layer of kind " << to_string(op));
  return *found;
}

PassCost fwd(const Graph &g, const Layer &l) { return layer_cost(g, l, Pass::fwd).fwd; }

// One unary/binary op on x[N,4,6,6] producing y.
Graph unary(const std::string &op, int opset = 13) {
  OnnxBuilder b(opset);
  b.input("x", {"N", "4", "6", "6"});
  b.node(op, {"x"}, {"y"});
  b.output("y");
  return b.load();
}

} // namespace

TEST_CASE("Conv: conv2d with boda's counting, params from the initializers") {
  OnnxBuilder b;
  b.input("x", {"N", "3", "8", "8"});
  b.init("w", {4, 3, 3, 3});
  b.init("b", {4});
  auto &n = b.node("Conv", {"x", "w", "b"}, {"y"});
  OnnxBuilder::attr(n, "pads", std::vector<int64_t>{1, 1, 1, 1});
  b.output("y");
  io::ModelLoadOptions o;
  o.batch = 2;
  Graph g = b.load(o);
  const Layer &l = only(g, OpKind::conv2d);
  CHECK(g.tensor("y").shape == Shape{2, 4, 8, 8});
  CHECK(fwd(g, l).macs == 2 * 8 * 8 * 4 * 3 * 9);
  CHECK(fwd(g, l).flops == 2 * fwd(g, l).macs);
  CHECK(g.param_count() == 4 * 3 * 9 + 4);
  CHECK(l.attrs.get_ints("pad", {}) == std::vector<int64_t>{1, 1});
}

TEST_CASE("Conv: asymmetric pads, auto_pad and groups") {
  OnnxBuilder b;
  b.input("x", {"1", "4", "8", "8"});
  b.init("w", {4, 2, 3, 3});
  auto &n = b.node("Conv", {"x", "w"}, {"y"});
  OnnxBuilder::attr(n, "pads", std::vector<int64_t>{0, 0, 1, 1});
  OnnxBuilder::attr(n, "strides", std::vector<int64_t>{2, 2});
  OnnxBuilder::attr(n, "group", int64_t{2});
  auto &m = b.node("Conv", {"y", "w"}, {"z"});
  OnnxBuilder::attr(m, "auto_pad", std::string("SAME_UPPER"));
  OnnxBuilder::attr(m, "group", int64_t{2});
  b.output("z");
  Graph g = b.load();
  CHECK(g.tensor("y").shape == Shape{1, 4, 4, 4});
  CHECK(g.layers[0].attrs.get_ints("pad", {}) == std::vector<int64_t>{0, 0, 1, 1});
  CHECK(g.tensor("z").shape == Shape{1, 4, 4, 4});
  CHECK(g.layers[1].attrs.get_ints("pad", {}) == std::vector<int64_t>{1, 1});
  CHECK(fwd(g, g.layers[0]).macs == 4 * 4 * 4 * 2 * 9); // out elements x in/groups x k*k
}

TEST_CASE("ConvTranspose: conv_transpose2d") {
  OnnxBuilder b;
  b.input("x", {"1", "4", "4", "4"});
  b.init("w", {4, 2, 2, 2});
  auto &n = b.node("ConvTranspose", {"x", "w"}, {"y"});
  OnnxBuilder::attr(n, "strides", std::vector<int64_t>{2, 2});
  b.output("y");
  Graph g = b.load();
  const Layer &l = only(g, OpKind::conv_transpose2d);
  CHECK(g.tensor("y").shape == Shape{1, 2, 8, 8});
  CHECK(fwd(g, l).macs == 4 * 4 * 4 * 2 * 2 * 2); // every input element x C_out x k*k
}

TEST_CASE("Gemm with transB and MatMul + Add(bias) become linear layers") {
  OnnxBuilder b;
  b.input("x", {"N", "16"});
  b.init("w", {8, 16});
  b.init("c", {8});
  auto &n = b.node("Gemm", {"x", "w", "c"}, {"h"});
  OnnxBuilder::attr(n, "transB", int64_t{1});
  b.init("w2", {8, 5});
  b.init("b2", {5});
  b.node("MatMul", {"h", "w2"}, {"m"});
  b.node("Add", {"m", "b2"}, {"y"});
  b.output("y");
  io::ModelLoadOptions o;
  o.batch = 3;
  Graph g = b.load(o);
  REQUIRE(g.layers.size() == 2);
  CHECK(g.layers[0].op == OpKind::linear);
  CHECK(g.layers[1].op == OpKind::linear);
  CHECK(g.layers[1].outputs[0] == "y"); // the Add is folded into the linear layer's bias
  CHECK(fwd(g, g.layers[0]).macs == 3 * 16 * 8);
  CHECK(fwd(g, g.layers[1]).macs == 3 * 8 * 5);
  CHECK(fwd(g, g.layers[1]).bytes_bias == 5 * 4);
  CHECK(g.param_count() == 16 * 8 + 8 + 8 * 5 + 5);
}

TEST_CASE("MatMul of two activations: batched, broadcasting") {
  OnnxBuilder b;
  b.input("a", {"2", "3", "4", "5"});
  b.input("b", {"3", "5", "6"});
  b.node("MatMul", {"a", "b"}, {"y"});
  b.output("y");
  Graph g = b.load();
  const Layer &l = only(g, OpKind::matmul);
  CHECK(g.tensor("y").shape == Shape{2, 3, 4, 6});
  CHECK(fwd(g, l).macs == 2 * 3 * 4 * 6 * 5);
}

TEST_CASE("BatchNormalization: running statistics are buffers, not params") {
  OnnxBuilder b;
  b.input("x", {"N", "4", "6", "6"});
  for (const char *p : {"s", "bb", "mean", "var"})
    b.init(p, {4});
  b.node("BatchNormalization", {"x", "s", "bb", "mean", "var"}, {"y"});
  b.output("y");
  Graph g = b.load();
  const Layer &l = only(g, OpKind::batch_norm);
  CHECK(g.param_count() == 8);
  CHECK(l.params.size() == 4);
  CHECK(l.params[2].buffer);
  CHECK(fwd(g, l).flops == 2 * 4 * 36);
}

TEST_CASE("LayerNormalization (opset 17) maps to layer_norm") {
  OnnxBuilder b(17);
  b.input("x", {"N", "7", "16"});
  b.init("g", {16});
  b.init("bt", {16});
  b.node("LayerNormalization", {"x", "g", "bt"}, {"y"});
  b.output("y");
  Graph g = b.load();
  const Layer &l = only(g, OpKind::layer_norm);
  CHECK(g.param_count() == 32);
  CHECK(fwd(g, l).flops == 8 * 7 * 16);
}

TEST_CASE("activations: Relu, Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu") {
  const std::vector<std::pair<std::string, int>> ops = {{"Relu", 1},      {"Sigmoid", 4},
                                                        {"Tanh", 5},      {"HardSigmoid", 4},
                                                        {"HardSwish", 5}, {"LeakyRelu", 2}};
  for (const auto &entry : ops) {
    const std::string &op = entry.first; // not a structured binding: clang 14 (CAPTURE)
    const int per_elem = entry.second;
    CAPTURE(op);
    const int opset = op == "HardSwish" ? 14 : 13;
    Graph g = unary(op, opset);
    const Layer &l = only(g, OpKind::activation);
    CHECK(fwd(g, l).flops == per_elem * 4 * 36);
    CHECK(fwd(g, l).bytes() == 2 * 4 * 36 * 4);
  }
}

TEST_CASE("Clip(0, 6) is relu6; other bounds are clip") {
  for (float hi : {6.0f, 3.0f}) {
    OnnxBuilder b;
    b.input("x", {"1", "8"});
    b.constant("lo", 0.0f);
    b.constant("hi", hi);
    b.node("Clip", {"x", "lo", "hi"}, {"y"});
    b.output("y");
    Graph g = b.load();
    const Layer &l = only(g, OpKind::activation);
    CHECK(l.attrs.get_string("function", "") == (hi == 6.0f ? "relu6" : "clip"));
  }
}

TEST_CASE("elementwise: Add/Sub/Mul/Div/Pow with scalar constants, Sqrt, Erf") {
  for (const std::string op : {"Add", "Sub", "Mul", "Div", "Pow"}) {
    CAPTURE(op);
    OnnxBuilder b;
    b.input("x", {"1", "10"});
    b.constant("k", 2.0f);
    b.node(op, {"x", "k"}, {"y"});
    b.output("y");
    Graph g = b.load();
    const Layer &l = only(g, OpKind::elementwise);
    CHECK(l.inputs.size() == 1); // the scalar is an attribute, not a tensor read
    CHECK(l.params.empty());
    CHECK(fwd(g, l).flops == 10);
  }
  for (const std::string op : {"Sqrt", "Erf"}) {
    Graph g = unary(op);
    CHECK(fwd(g, only(g, OpKind::elementwise)).flops == 4 * 36);
  }
}

TEST_CASE("elementwise with a weight operand counts it as params; Where reads three inputs") {
  OnnxBuilder b;
  b.input("x", {"N", "3", "4"});
  b.init("pos", {1, 3, 4});
  b.node("Add", {"x", "pos"}, {"y"});
  b.input("c", {"N", "3", "4"}, onnx::TensorProto::BOOL);
  b.node("Where", {"c", "y", "x"}, {"z"});
  b.output("z");
  Graph g = b.load();
  CHECK(g.param_count() == 12);
  CHECK(g.layers[1].inputs.size() == 3);
  CHECK(fwd(g, g.layers[1]).flops == 12);
}

TEST_CASE("pools: MaxPool (ceil_mode), AveragePool, GlobalAveragePool") {
  OnnxBuilder b;
  b.input("x", {"1", "2", "7", "7"});
  auto &mp = b.node("MaxPool", {"x"}, {"m"});
  OnnxBuilder::attr(mp, "kernel_shape", std::vector<int64_t>{3, 3});
  OnnxBuilder::attr(mp, "strides", std::vector<int64_t>{2, 2});
  OnnxBuilder::attr(mp, "ceil_mode", int64_t{1});
  auto &ap = b.node("AveragePool", {"m"}, {"a"});
  OnnxBuilder::attr(ap, "kernel_shape", std::vector<int64_t>{2, 2});
  b.node("GlobalAveragePool", {"a"}, {"y"});
  b.output("y");
  Graph g = b.load();
  CHECK(g.tensor("m").shape == Shape{1, 2, 3, 3});
  CHECK(fwd(g, only(g, OpKind::max_pool)).flops == 2 * 9 * 9);
  CHECK(g.tensor("a").shape == Shape{1, 2, 2, 2}); // ONNX strides default to 1
  CHECK(fwd(g, only(g, OpKind::avg_pool)).flops == 2 * 4 * 4);
  CHECK(fwd(g, only(g, OpKind::global_avg_pool)).flops == 2 * 4);
}

TEST_CASE("views and data movement: Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat") {
  OnnxBuilder b;
  b.input("x", {"N", "2", "3", "4"});
  b.init_i64("shape", {0, 6, 4});
  b.node("Reshape", {"x", "shape"}, {"r"});
  b.node("Flatten", {"r"}, {"f"});
  b.init_i64("ax", {1});
  b.node("Unsqueeze", {"f", "ax"}, {"u"});
  b.node("Squeeze", {"u", "ax"}, {"s"});
  auto &t = b.node("Transpose", {"s"}, {"t"});
  OnnxBuilder::attr(t, "perm", std::vector<int64_t>{1, 0});
  auto &c = b.node("Concat", {"t", "t"}, {"y"});
  OnnxBuilder::attr(c, "axis", int64_t{0});
  b.output("y");
  io::ModelLoadOptions o;
  o.batch = 2;
  Graph g = b.load(o);
  CHECK(g.tensor("r").shape == Shape{2, 6, 4});
  CHECK(g.tensor("f").shape == Shape{2, 24});
  CHECK(g.tensor("y").shape == Shape{48, 2});
  for (const auto &l : g.layers) {
    CAPTURE(l.name);
    const PassCost c = fwd(g, l);
    if (l.op == OpKind::reshape || l.op == OpKind::flatten)
      CHECK(c.bytes() == 0);
    if (l.op == OpKind::transpose)
      CHECK(c.bytes() == 2 * 48 * 4);
    if (l.op == OpKind::concat)
      CHECK(c.bytes() == 4 * 48 * 4);
  }
}

TEST_CASE("Gather: embedding rows from a weight, constant index as a slice, Slice, Split") {
  OnnxBuilder b;
  b.input("ids", {"N", "5"}, onnx::TensorProto::INT64);
  b.init("table", {100, 8});
  b.node("Gather", {"table", "ids"}, {"e"});
  b.init_i64("zero", {0}, true);
  auto &gi = b.node("Gather", {"e", "zero"}, {"first"});
  OnnxBuilder::attr(gi, "axis", int64_t{1});
  b.init_i64("st", {1});
  b.init_i64("en", {3});
  b.init_i64("axs", {1});
  b.node("Slice", {"e", "st", "en", "axs"}, {"sl"});
  auto &sp = b.node("Split", {"sl"}, {"s0", "s1"});
  OnnxBuilder::attr(sp, "axis", int64_t{2});
  b.output("first");
  b.output("s0");
  b.output("s1");
  io::ModelLoadOptions o;
  o.batch = 2;
  Graph g = b.load(o);
  CHECK(g.tensor("e").shape == Shape{2, 5, 8});
  CHECK(g.tensor("first").shape == Shape{2, 8});
  CHECK(g.param_count() == 800);
  const PassCost emb = fwd(g, only(g, OpKind::gather));
  CHECK(emb.bytes_weights == 2 * 5 * 8 * 4); // only the gathered rows
  CHECK(g.tensor("sl").shape == Shape{2, 2, 8});
  CHECK(g.tensor("s1").shape == Shape{2, 2, 4});
  int slices = 0;
  for (const auto &l : g.layers)
    if (l.op == OpKind::slice)
      ++slices;
  CHECK(slices == 2); // Gather(constant index) and Slice
}

TEST_CASE("Softmax, ReduceMean, Dropout, Identity, Cast, Expand") {
  OnnxBuilder b;
  b.input("x", {"N", "3", "4"});
  b.node("Softmax", {"x"}, {"s"});
  auto &r = b.node("ReduceMean", {"s"}, {"m"});
  OnnxBuilder::attr(r, "axes", std::vector<int64_t>{-1});
  b.node("Dropout", {"m"}, {"d"});
  b.node("Identity", {"d"}, {"i"});
  auto &c = b.node("Cast", {"i"}, {"c"});
  OnnxBuilder::attr(c, "to", int64_t{onnx::TensorProto::FLOAT16});
  b.init_i64("to", {2, 3, 4});
  b.node("Expand", {"c", "to"}, {"y"});
  b.output("y");
  io::OnnxImportReport rep;
  io::ModelLoadOptions o;
  o.batch = 2;
  Graph g = b.load(o, ".", &rep);
  CHECK(rep.unmapped.empty()); // Cast and Expand have the bytes rule, no warning
  CHECK(fwd(g, only(g, OpKind::softmax)).flops == 5 * 24);
  CHECK(g.tensor("m").shape == Shape{2, 3, 1});
  CHECK(fwd(g, only(g, OpKind::reduce)).flops == 24);
  CHECK(fwd(g, only(g, OpKind::dropout)).bytes() == 0);
  CHECK(fwd(g, only(g, OpKind::identity)).bytes() == 0);
  CHECK(g.tensor("y").shape == Shape{2, 3, 4});
}

TEST_CASE("shape-only subgraphs cost nothing; ops without a rule are generic and reported") {
  OnnxBuilder b;
  b.input("x", {"N", "4"});
  b.node("Shape", {"x"}, {"s"});
  b.constant("two", 2.0f);
  b.node("Pad", {"x", "pads"}, {"p"});
  b.init_i64("pads", {0, 1, 0, 1});
  b.output("p");
  io::OnnxImportReport rep;
  Graph g = b.load({}, ".", &rep);
  REQUIRE(g.layers.size() == 1);
  CHECK(g.layers[0].op == OpKind::generic);
  CHECK(rep.unmapped == std::vector<std::string>{"Pad"});
  CHECK(g.tensor("p").shape == Shape{1, 6});
  CHECK(fwd(g, g.layers[0]).bytes() == (4 + 6) * 4 + 4 * 8); // input, output, pads read
}
