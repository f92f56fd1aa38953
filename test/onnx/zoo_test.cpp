// The model zoo (models/*.yaml, converted from ONNX exports) against PyTorch's own figures
// committed in test/data/onnx/zoo_reference.json by scripts/export_zoo.py.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "perfmodel/cost.hpp"
#include "perfmodel/onnx/load_model.hpp"

using namespace perfmodel;

TEST_CASE("every zoo model matches PyTorch's params and conv/matmul MACs") {
  std::ifstream f(std::string(PERFMODEL_TEST_DATA) + "/onnx/zoo_reference.json");
  REQUIRE(f.good());
  const auto ref = nlohmann::json::parse(f);
  CHECK(ref["schema"] == "perfmodel.zoo_reference/1");
  const auto &models = ref["models"];
  CHECK(models.size() == 10);
  for (const auto &item : models.items()) {
    const std::string &name = item.key(); // not a structured binding: clang 14 (CAPTURE)
    const auto &r = item.value();
    CAPTURE(name);
    io::ModelLoadOptions o;
    o.batch = r["batch"].get<int64_t>();
    const Graph g = io::load_model(name, o);
    // ONNX cannot tell a constant buffer (the causal mask) from a weight; BatchNorm running
    // statistics are recognised and are not params.
    CHECK(g.param_count() == r["params"].get<int64_t>() + r["other_buffers"].get<int64_t>());
    int64_t conv = 0, mm = 0;
    for (size_t i = 0; i < g.layers.size(); ++i) {
      const LayerCost c = layer_cost(g, g.layers[i], Pass::fwd);
      if (g.layers[i].op == OpKind::conv2d || g.layers[i].op == OpKind::conv_transpose2d)
        conv += c.fwd.macs;
      else if (g.layers[i].op == OpKind::linear || g.layers[i].op == OpKind::matmul)
        mm += c.fwd.macs;
    }
    CHECK(conv == r["conv_macs"].get<int64_t>());
    CHECK(mm == r["matmul_macs"].get<int64_t>());
  }
}

TEST_CASE("zoo models scale with --batch") {
  for (const char *name : {"resnet50", "bert_base"}) {
    CAPTURE(name);
    io::ModelLoadOptions one, eight;
    eight.batch = 8;
    const Graph a = io::load_model(name, one), b = io::load_model(name, eight);
    int64_t ma = 0, mb = 0;
    for (const auto &c : graph_cost(a, Pass::fwd))
      ma += c.fwd.macs;
    for (const auto &c : graph_cost(b, Pass::fwd))
      mb += c.fwd.macs;
    CHECK(mb == 8 * ma);
  }
}
