// Import driver: shared weights counted once, generic ops reported, batch-portable YAML output.
#include <doctest/doctest.h>

#include "onnx_builder.hpp"
#include "perfmodel/cost.hpp"

using perfmodel::test::OnnxBuilder;
using namespace perfmodel;

namespace {

int64_t total_macs(const Graph &g) {
  int64_t m = 0;
  for (const auto &c : graph_cost(g, Pass::fwd))
    m += c.fwd.macs;
  return m;
}

int64_t total_bytes(const Graph &g) {
  int64_t m = 0;
  for (const auto &c : graph_cost(g, Pass::fwd))
    m += c.fwd.bytes();
  return m;
}

// A small attention-like block: linear, head split via a torch-style reshape, matmul, expand.
OnnxBuilder block() {
  OnnxBuilder b;
  b.input("x", {"B", "6", "8"});
  b.init("w", {8, 8});
  b.node("MatMul", {"x", "w"}, {"h"});
  b.node("Shape", {"h"}, {"s"});
  b.init_i64("i0", {0}, true);
  b.node("Gather", {"s", "i0"}, {"n"});
  b.init_i64("heads", {2}, true);
  b.node("Mul", {"n", "heads"}, {"nh"});
  b.init_i64("ax", {0});
  b.node("Unsqueeze", {"nh", "ax"}, {"u"});
  b.init_i64("rest", {6, 4});
  auto &cat = b.node("Concat", {"u", "rest"}, {"shape"});
  OnnxBuilder::attr(cat, "axis", int64_t{0});
  b.node("Reshape", {"h", "shape"}, {"r"}); // [B*2, 6, 4]
  auto &t = b.node("Transpose", {"r"}, {"rt"});
  OnnxBuilder::attr(t, "perm", std::vector<int64_t>{0, 2, 1});
  b.node("MatMul", {"r", "rt"}, {"att"}); // [B*2, 6, 6]
  b.node("Tile", {"att", "reps"}, {"y"}); // no rule: generic, batch in dim 0
  b.init_i64("reps", {1, 1, 2});
  b.output("y");
  return b;
}

} // namespace

TEST_CASE("an initializer read by several layers is a parameter once") {
  OnnxBuilder b;
  b.input("x", {"N", "4"});
  b.init("w", {4, 4});
  b.node("MatMul", {"x", "w"}, {"h"});
  b.node("MatMul", {"h", "w"}, {"y"});
  b.output("y");
  Graph g = b.load();
  CHECK(g.param_count() == 16);
  CHECK(g.layers[1].params[0].buffer);
  CHECK(layer_cost(g, g.layers[1], Pass::fwd).fwd.bytes_weights == 64); // still read
}

TEST_CASE("converted graphs follow --batch: reshape gets -1, generic shapes get N factors") {
  io::OnnxImportReport rep;
  Graph g = block().load({}, ".", &rep, /*portable=*/true);
  CHECK(rep.unmapped == std::vector<std::string>{"Tile"});
  CHECK(rep.not_portable.empty());
  const Layer *reshape = nullptr;
  for (const auto &l : g.layers)
    if (l.op == OpKind::reshape)
      reshape = &l;
  REQUIRE(reshape);
  CHECK(reshape->attrs.get_ints("shape", {}) == std::vector<int64_t>{-1, 6, 4});
  CHECK(g.layers.back().output_shapes[0][0].batch_factor == 2);

  const std::string yaml = io::write_model_yaml(g);
  io::ModelLoadOptions at8;
  at8.batch = 8;
  Graph from_yaml = io::parse_model_yaml(yaml, "block.yaml", at8);
  Graph from_onnx = block().load(at8);
  CHECK(from_yaml.tensor("y").shape == Shape{16, 6, 12});
  CHECK(total_macs(from_yaml) == total_macs(from_onnx));
  CHECK(total_bytes(from_yaml) == total_bytes(from_onnx));
  CHECK(from_yaml.param_count() == from_onnx.param_count());
}

TEST_CASE("--dtype applies after import") {
  io::ModelLoadOptions o;
  o.dtype = DType::fp16;
  Graph g = block().load(o);
  CHECK(g.layers[0].dtype == DType::fp16);
}

TEST_CASE("a node with more or fewer operands than its operator takes is an InputError") {
  // Found by fuzz_onnx (test/bad_inputs/onnx/fuzz_matmul_one_input.onnx): a MatMul with one
  // input made the operator mapping read input(1), and protobuf aborted the process.
  auto model = [](const std::vector<std::string> &ins, const std::vector<std::string> &outs,
                  const std::string &domain = "") {
    OnnxBuilder b;
    b.input("x", {"2", "8"});
    b.init("w", {8, 4});
    auto &n = b.node("MatMul", ins, outs, "proj");
    n.set_domain(domain);
    b.output("y");
    return b;
  };
  CHECK(model({"x", "w"}, {"y"}).load().tensor("y").shape == Shape{2, 4});
  CHECK_THROWS_WITH_AS(model({"x"}, {"y"}).load(),
                       "test.onnx: error: node 'proj' (MatMul): 1 input, opset 13 MatMul takes 2",
                       InputError);
  CHECK_THROWS_WITH_AS(model({"x", "w", "w"}, {"y"}).load(),
                       doctest::Contains("3 inputs, opset 13 MatMul takes 2"), InputError);
  CHECK_THROWS_WITH_AS(model({"x", "w"}, {}).load(),
                       doctest::Contains("0 outputs, opset 13 MatMul takes 1"), InputError);
  // The passes recognise nodes by op_type: another domain's MatMul is held to ONNX's.
  CHECK_THROWS_WITH_AS(model({"x"}, {"y"}, "com.example").load(),
                       doctest::Contains("1 input, opset 13 MatMul takes 2"), InputError);
}
