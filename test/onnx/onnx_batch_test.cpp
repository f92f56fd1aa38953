// Fixed-batch exports (torch.onnx.export without dynamic_axes, test/data/onnx/fixed_*.onnx made
// by scripts/make_test_onnx.py) follow --batch where the rule of docs/onnx.md applies, and say
// why not where it does not.
#include <doctest/doctest.h>

#include <string>

#include "onnx_builder.hpp"
#include "perfmodel/cost.hpp"
#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/onnx/onnx_import.hpp"

using perfmodel::test::OnnxBuilder;
using namespace perfmodel;

namespace {

std::string data(const std::string &name) {
  return std::string(PERFMODEL_TEST_DATA) + "/onnx/" + name + ".onnx";
}

Graph import_at(const std::string &path, std::optional<int64_t> batch) {
  io::ModelLoadOptions o;
  o.batch = batch;
  return io::import_onnx(path, o, {.warnings = nullptr});
}

struct Totals {
  int64_t flops = 0, activation_bytes = 0, params = 0;
};

Totals totals(const Graph &g) {
  Totals t;
  for (const auto &c : graph_cost(g, Pass::fwd)) {
    t.flops += c.fwd.flops;
    t.activation_bytes += c.fwd.bytes_input + c.fwd.bytes_output;
  }
  t.params = g.param_count();
  return t;
}

const Layer &layer(const Graph &g, const std::string &name) {
  for (const auto &l : g.layers)
    if (l.name == name)
      return l;
  FAIL("no layer " << name);
  throw 0;
}

} // namespace

TEST_CASE("a fixed-batch export costs N times its batch-1 FLOPs at --batch N") {
  for (const char *name : {"fixed_patch_embed", "fixed_shuffle"}) {
    CAPTURE(name);
    const Graph one = import_at(data(name), std::nullopt);
    const Graph same = import_at(data(name), 1);
    const Graph eight = import_at(data(name), 8);
    CHECK(one.batch() == 1);
    CHECK(eight.batch() == 8);
    const Totals a = totals(one), b = totals(eight);
    CHECK(a.flops > 0);
    CHECK(b.flops == 8 * a.flops);
    CHECK(b.activation_bytes == 8 * a.activation_bytes);
    CHECK(b.params == a.params);
    CHECK(totals(same).flops == a.flops);
    // Every activation the batch reaches has it first (nothing stays at the exported 1).
    for (const auto &l : eight.layers)
      for (const auto &o : l.outputs) {
        CAPTURE(o);
        CHECK(eight.tensor(o).shape.at(0) == 8);
      }
  }
}

TEST_CASE("the ViT patch embedding and class token follow the batch") {
  const Graph g = import_at(data("fixed_patch_embed"), 8);
  CHECK(g.tensor(layer(g, "/Reshape").outputs.at(0)).shape == Shape{8, 8, 16});
  CHECK(g.tensor(layer(g, "/Concat").outputs.at(0)).shape == Shape{8, 17, 8});
  CHECK(g.tensor("y").shape == Shape{8, 4});
}

TEST_CASE("the ShuffleNet channel shuffle follows the batch") {
  const Graph g = import_at(data("fixed_shuffle"), 8);
  CHECK(g.tensor(layer(g, "/Reshape").outputs.at(0)).shape == Shape{8, 2, 4, 4, 4});
  CHECK(g.tensor("y").shape == Shape{8, 8, 4, 4});
}

TEST_CASE("attention views hold the batch inside a dim: an error that says how to re-export") {
  CHECK_NOTHROW(import_at(data("fixed_attention"), std::nullopt));
  CHECK_NOTHROW(import_at(data("fixed_attention"), 1));
  try {
    import_at(data("fixed_attention"), 8);
    FAIL("expected an InputError");
  } catch (const InputError &e) {
    const std::string m = e.what();
    CHECK(m.find("node '/self_attention/Reshape' (Reshape): its target 5x2x4 cannot hold its "
                 "input 5x8x8") != std::string::npos);
    CHECK(m.find("exported with a fixed batch of 1") != std::string::npos);
    CHECK(m.find("dynamic_axes={'x': {0: 'batch'}}") != std::string::npos);
  }
}

TEST_CASE("convert writes the followed targets with -1, and the YAML reloads at any batch") {
  for (const char *name : {"fixed_patch_embed", "fixed_shuffle"}) {
    CAPTURE(name);
    io::OnnxImportReport rep;
    const Graph g =
        io::import_onnx(data(name), {}, {.batch_portable = true, .warnings = nullptr}, &rep);
    CHECK(rep.not_portable.empty());
    CHECK(rep.batch_fixed.empty());
    CHECK(layer(g, "/Reshape").attrs.get_ints("shape", {}).at(0) == -1);
    const std::string yaml = io::write_model_yaml(g);
    io::ModelLoadOptions eight;
    eight.batch = 8;
    const Graph y8 = io::parse_model_yaml(yaml, "converted.yaml", eight);
    CHECK(totals(y8).flops == totals(import_at(data(name), 8)).flops);
  }
}

TEST_CASE("convert of a file that cannot follow the batch says why") {
  io::OnnxImportReport rep;
  const Graph g = io::import_onnx(data("fixed_attention"), {},
                                  {.batch_portable = true, .warnings = nullptr}, &rep);
  CHECK(g.batch() == 1);
  CHECK(rep.batch_fixed.find("cannot hold its input") != std::string::npos);
}

TEST_CASE("the rule moves only constant targets led by the exported batch") {
  // x [2, 6] (exported batch 2) -> Reshape to a constant [2, 3, 2]; a weight [2, 4] reshaped to
  // [2, 2, 2] (led by 2, but not an activation) and a target led by 3 are left alone.
  OnnxBuilder b;
  b.input("x", {"2", "6"});
  b.init_i64("t", {2, 3, 2});
  b.node("Reshape", {"x", "t"}, {"r"});
  b.init("w", {2, 4});
  b.init_i64("tw", {2, 2, 2});
  b.node("Reshape", {"w", "tw"}, {"wr"});
  b.init_i64("t3", {3, -1});
  b.node("Reshape", {"r", "t3"}, {"y"});
  b.output("y");
  b.output("wr");
  io::ModelLoadOptions o;
  o.batch = 4;
  const Graph g = b.load(o);
  CHECK(g.tensor("r").shape == Shape{4, 3, 2});
  CHECK(g.tensor("y").shape == Shape{3, 8}); // [3, -1]: not led by 2, the count decides
}
