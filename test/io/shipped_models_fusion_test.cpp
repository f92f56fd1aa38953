// Inference fusion (perfmodel/fusion.hpp) on the shipped models: the GEMM layers and their
// products stay as they are, batch norms after a GEMM disappear, and no count grows.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "perfmodel/cost.hpp"
#include "perfmodel/fusion.hpp"
#include "perfmodel/io/model_yaml.hpp"

using namespace perfmodel;

namespace {

const std::string kSource = PERFMODEL_SOURCE_DIR;

int count(const Graph &g, OpKind op) {
  int n = 0;
  for (const Layer &l : g.layers)
    n += l.op == op ? 1 : 0;
  return n;
}

PassCost total(const Graph &g) {
  PassCost t;
  for (const LayerCost &c : graph_cost(g, Pass::fwd))
    t += c.fwd;
  return t;
}

} // namespace

TEST_CASE("ResNet-50 fused for inference: the same convolutions and GEMM, no batch norm") {
  const Graph eager = io::read_model_yaml(kSource + "/models/resnet50.yaml", {});
  const Graph g = fuse(eager, Fusion::inference, Pass::fwd);
  CHECK(count(eager, OpKind::conv2d) == 53);
  CHECK(count(g, OpKind::conv2d) == 53);
  CHECK(count(g, OpKind::linear) == count(eager, OpKind::linear));
  CHECK(count(eager, OpKind::batch_norm) == 53);
  CHECK(count(g, OpKind::batch_norm) == 0);
  // Every ReLU and residual add went into a convolution's epilogue.
  CHECK(count(g, OpKind::activation) == 0);
  CHECK(count(g, OpKind::elementwise) == 0);
  // 53 convolutions, the max pool, the global pool, the flatten and the classifier.
  CHECK(g.layers.size() == 57);
  CHECK(total(g).macs == total(eager).macs);
  int residual = 0;
  for (const Layer &l : g.layers)
    for (const FusedPart &p : l.fused.parts)
      residual += p.op == OpKind::elementwise ? 1 : 0;
  CHECK(residual == 16); // one per bottleneck block
}

TEST_CASE("every shipped model fused for inference keeps its products and moves no more") {
  for (const auto &e : std::filesystem::directory_iterator(kSource + "/models")) {
    if (e.path().extension() != ".yaml")
      continue;
    CAPTURE(e.path().string());
    const Graph eager = io::read_model_yaml(e.path().string(), {});
    const Graph g = fuse(eager, Fusion::inference, Pass::fwd);
    for (OpKind op : {OpKind::conv2d, OpKind::conv_transpose2d, OpKind::linear, OpKind::matmul})
      CHECK(count(g, op) == count(eager, op));
    CHECK(g.layers.size() <= eager.layers.size());
    const PassCost before = total(eager), after = total(g);
    CHECK(after.macs == before.macs);
    CHECK(after.flops <= before.flops);
    CHECK(after.bytes() <= before.bytes());
  }
}
