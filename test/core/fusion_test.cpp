// Tests of inference fusion (perfmodel/fusion.hpp): which layers merge, what the fused layer
// records, and its exact FLOPs and bytes (docs/ops.md, "Fusion").
#include <doctest/doctest.h>

#include "perfmodel/cost.hpp"
#include "perfmodel/epilogue.hpp"
#include "perfmodel/fusion.hpp"
#include "test_graphs.hpp"

using namespace perfmodel;
using perfmodel::test::make_graph;
using perfmodel::test::make_layer;

namespace {

Graph inference(const Graph &g) { return fuse(g, Fusion::inference, Pass::fwd); }

const Layer &only_layer(const Graph &g) {
  REQUIRE(g.layers.size() == 1);
  return g.layers[0];
}

std::vector<std::string> names(const Graph &g) {
  std::vector<std::string> n;
  for (const Layer &l : g.layers)
    n.push_back(l.name);
  return n;
}

// conv -> bn -> relu over x[2, 3, 8, 8] (fp32): a 3x3 convolution to 4 channels, no bias.
Graph conv_bn_relu() {
  return make_graph({{"x", {2, 3, 8, 8}}}, {make_layer("conv1", "conv2d",
                                                       {{"out_channels", int64_t{4}},
                                                        {"kernel", int64_t{3}},
                                                        {"pad", int64_t{1}},
                                                        {"bias", int64_t{0}}}),
                                            make_layer("bn1", "batchnorm", {}, {"conv1"}),
                                            make_layer("relu", "relu", {}, {"bn1"})});
}

} // namespace

TEST_CASE("fusion modes parse and print") {
  CHECK(parse_fusion("none") == Fusion::none);
  CHECK(parse_fusion("inference") == Fusion::inference);
  CHECK_FALSE(parse_fusion("Inference"));
  CHECK_FALSE(parse_fusion(""));
  CHECK(to_string(Fusion::none) == "none");
  CHECK(to_string(Fusion::inference) == "inference");
}

TEST_CASE("--fusion none leaves the graph as it is") {
  const Graph g = conv_bn_relu();
  const Graph same = fuse(g, Fusion::none, Pass::train);
  CHECK(names(same) == names(g));
  CHECK(same.layers[0].fused.empty());
}

TEST_CASE("inference fusion does not apply to the train pass") {
  CHECK_THROWS_AS(fuse(conv_bn_relu(), Fusion::inference, Pass::train), InputError);
}

TEST_CASE("conv + bn + relu: the batch norm folds into a new bias, the relu is the epilogue") {
  const Graph g = inference(conv_bn_relu());
  const Layer &l = only_layer(g);
  CHECK(l.name == "conv1+bn1+relu");
  CHECK(l.op == OpKind::conv2d);
  CHECK(l.inputs == std::vector<std::string>{"x"});
  CHECK(l.outputs == std::vector<std::string>{"relu"});
  CHECK(l.op_input_count() == 1);
  CHECK(l.fused.head_name == "conv1");
  REQUIRE(l.fused.parts.size() == 2);
  CHECK(l.fused.parts[0].name == "bn1");
  CHECK(l.fused.parts[0].op == OpKind::batch_norm);
  CHECK(l.fused.parts[0].folded);
  CHECK(l.fused.parts[1].name == "relu");
  CHECK(l.fused.parts[1].function == "relu");
  CHECK_FALSE(l.fused.parts[1].folded);
  // The convolution gained a bias of one element per output channel.
  REQUIRE(l.params.size() == 2);
  CHECK(l.params[1].name == "conv1.bias");
  CHECK(l.params[1].shape == Shape{4});
  CHECK(layer_has_bias(l));
  // The intermediate tensors are never written.
  CHECK(g.tensors.count("conv1") == 0);
  CHECK(g.tensors.count("bn1") == 0);
  CHECK(g.tensors.count("relu") == 1);

  const LayerCost c = layer_cost(g, l, Pass::fwd);
  // 2 x M N K = 2 x (2*8*8) x 4 x (3*3*3); the bias and the relu add none (boda's rule).
  CHECK(c.fwd.flops == 27648);
  CHECK(c.fwd.bytes_input == 2 * 3 * 8 * 8 * 4);   // x
  CHECK(c.fwd.bytes_weights == 4 * 3 * 3 * 3 * 4); // the weights
  CHECK(c.fwd.bytes_bias == 4 * 4);                // the folded bias
  CHECK(c.fwd.bytes_output == 2 * 4 * 8 * 8 * 4);  // relu's output, once
  CHECK(c.fwd.bytes() == 4032);
  // Unfused, the three layers move conv 4016 + bn 4160 + relu 4096 bytes.
  const Graph eager = conv_bn_relu();
  int64_t eager_bytes = 0;
  for (const LayerCost &lc : graph_cost(eager, Pass::fwd))
    eager_bytes += lc.fwd.bytes();
  CHECK(eager_bytes == 4016 + 4160 + 4096);
  // The epilogue passes over C: the bias and the relu.
  CHECK(epilogue_sweeps(l) == 2);
}

TEST_CASE("a conv that has a bias keeps it when a batch norm folds in") {
  Graph g0 =
      make_graph({{"x", {1, 2, 4, 4}}},
                 {make_layer("c", "conv2d", {{"out_channels", int64_t{3}}, {"kernel", int64_t{1}}}),
                  make_layer("b", "batchnorm", {}, {"c"})});
  const Graph g = inference(g0);
  const Layer &l = only_layer(g);
  CHECK(l.name == "c+b");
  CHECK(l.params.size() == 2);
  CHECK(layer_cost(g, l, Pass::fwd).fwd.bytes() ==
        layer_cost(g0, g0.layers[0], Pass::fwd).fwd.bytes());
}

TEST_CASE("residual block: conv + bn + add + relu reads the residual once in its epilogue") {
  // x -> conv_b -> bn_b --+--> add -> relu
  // x -> conv_d -> bn_d --+
  const auto conv = [](const char *name) {
    return make_layer(name, "conv2d",
                      {{"out_channels", int64_t{8}}, {"kernel", int64_t{1}}, {"bias", int64_t{0}}});
  };
  const Graph eager = make_graph({{"x", {1, 8, 4, 4}}},
                                 {conv("conv_b"), make_layer("bn_b", "batchnorm", {}, {"conv_b"}),
                                  conv("conv_d"), make_layer("bn_d", "batchnorm", {}, {"conv_d"}),
                                  make_layer("add", "add", {}, {"bn_b", "bn_d"}),
                                  make_layer("relu", "relu", {}, {"add"})});
  const Graph g = inference(eager);
  // The downsample branch runs first: the block's fused layer reads its output.
  CHECK(names(g) == std::vector<std::string>{"conv_d+bn_d", "conv_b+bn_b+add+relu"});
  const Layer &block = g.layers[1];
  CHECK(block.inputs == std::vector<std::string>{"x", "bn_d"});
  CHECK(block.op_input_count() == 1);
  REQUIRE(block.fused.parts.size() == 3);
  CHECK(block.fused.parts[1].operands == std::vector<std::string>{"bn_d"});
  const LayerCost c = layer_cost(g, block, Pass::fwd);
  CHECK(c.fwd.flops == 2 * 16 * 8 * 8);
  CHECK(c.fwd.bytes_input == 512 + 512);   // x and the residual
  CHECK(c.fwd.bytes_weights == 8 * 8 * 4); // 1x1 weights
  CHECK(c.fwd.bytes_bias == 8 * 4);
  CHECK(c.fwd.bytes_output == 512);
  CHECK(c.fwd.bytes() == 1824);
  CHECK(epilogue_sweeps(block) == 3); // bias, add, relu
  CHECK(layer_cost(g, g.layers[0], Pass::fwd).fwd.bytes() == 512 + 256 + 32 + 512);
}

TEST_CASE("a chain of element-wise layers is one kernel: each external input read once") {
  // mul(x, y) -> add(., z broadcast) -> sigmoid, over [2, 16] fp32.
  const Graph eager = make_graph({{"x", {2, 16}}, {"y", {2, 16}}, {"z", {16}}},
                                 {make_layer("mul", "mul", {}, {"x", "y"}),
                                  make_layer("add", "add", {}, {"mul", "z"}),
                                  make_layer("sig", "sigmoid", {}, {"add"})});
  const Graph g = inference(eager);
  const Layer &l = only_layer(g);
  CHECK(l.name == "mul+add+sig");
  CHECK(l.op == OpKind::elementwise);
  CHECK(l.inputs == std::vector<std::string>{"x", "y", "z"});
  CHECK(l.outputs == std::vector<std::string>{"sig"});
  const LayerCost c = layer_cost(g, l, Pass::fwd);
  CHECK(c.fwd.flops == 32 * (1 + 1 + 4)); // every part's FLOPs are kept
  CHECK(c.fwd.bytes_input == 128 + 128 + 64);
  CHECK(c.fwd.bytes_output == 128);
  CHECK(c.fwd.bytes() == 448);
  int64_t eager_flops = 0;
  for (const LayerCost &lc : graph_cost(eager, Pass::fwd))
    eager_flops += lc.fwd.flops;
  CHECK(eager_flops == c.fwd.flops);
  CHECK_FALSE(c.gemm_like);
  CHECK(epilogue_sweeps(l) == 0);
}

TEST_CASE("a batch norm inside a chain keeps its FLOPs and reads its parameters") {
  const Graph eager =
      make_graph({{"x", {2, 4, 3, 3}}},
                 {make_layer("relu", "relu"), make_layer("bn", "batchnorm", {}, {"relu"})});
  const Graph g = inference(eager);
  const Layer &l = only_layer(g);
  CHECK(l.name == "relu+bn");
  CHECK(l.op == OpKind::activation);
  CHECK(l.params.size() == 4);
  CHECK_FALSE(l.fused.parts[0].folded);
  const LayerCost c = layer_cost(g, l, Pass::fwd);
  CHECK(c.fwd.flops == 72 * (1 + 2));
  CHECK(c.fwd.bytes() == 288 + 4 * 4 * 4 + 288);
}

TEST_CASE("no fusion where the intermediate has a second reader") {
  // conv's output feeds two relus: it must be written, so nothing fuses into the conv.
  const Graph eager = make_graph(
      {{"x", {1, 4, 4, 4}}},
      {make_layer("conv", "conv2d", {{"out_channels", int64_t{4}}, {"kernel", int64_t{1}}}),
       make_layer("r1", "relu", {}, {"conv"}), make_layer("r2", "relu", {}, {"conv"}),
       make_layer("add", "add", {}, {"r1", "r2"})});
  const Graph g = inference(eager);
  // r1 and r2 each end in the add, which only one of them may take: the first in order.
  CHECK(names(g) == std::vector<std::string>{"conv", "r2", "r1+add"});
  CHECK(g.layers[0].fused.empty());
  CHECK(g.tensors.count("conv") == 1);
  CHECK(layer_cost(g, g.layers[0], Pass::fwd).fwd.bytes() ==
        layer_cost(eager, eager.layers[0], Pass::fwd).fwd.bytes());
}

TEST_CASE("a value read twice by the same layer is not fused") {
  const Graph eager =
      make_graph({{"x", {8}}}, {make_layer("r", "relu"), make_layer("sq", "mul", {}, {"r", "r"})});
  CHECK(names(inference(eager)) == names(eager));
}

TEST_CASE("a batch norm after a conv's activation is not folded") {
  const Graph eager = make_graph(
      {{"x", {1, 2, 4, 4}}},
      {make_layer("conv", "conv2d", {{"out_channels", int64_t{2}}, {"kernel", int64_t{1}}}),
       make_layer("relu", "relu", {}, {"conv"}), make_layer("bn", "batchnorm", {}, {"relu"}),
       make_layer("tanh", "tanh", {}, {"bn"})});
  // The bn cannot change the conv's weights once the relu ran: it heads a chain of its own.
  CHECK(names(inference(eager)) == std::vector<std::string>{"conv+relu", "bn+tanh"});
}

TEST_CASE("a broadcast that grows the value ends the group") {
  const Graph eager = make_graph({{"x", {1, 4}}, {"y", {3, 4}}},
                                 {make_layer("r", "relu"), make_layer("a", "add", {}, {"r", "y"})});
  CHECK(names(inference(eager)) == names(eager));
}

TEST_CASE("linear + bn (2-D) folds; matmul takes an epilogue but no batch norm") {
  const Graph lin = make_graph(
      {{"x", {4, 8}}},
      {make_layer("fc", "linear", {{"out_features", int64_t{6}}, {"bias", int64_t{0}}}),
       make_layer("bn", "batchnorm", {}, {"fc"}), make_layer("gelu", "gelu", {}, {"bn"})});
  const Graph lg = inference(lin);
  const Layer &l = only_layer(lg);
  CHECK(l.name == "fc+bn+gelu");
  CHECK(l.params.back().shape == Shape{6});
  CHECK(epilogue_sweeps(l) == 2);

  const Graph mm =
      make_graph({{"a", {2, 3, 4}}, {"b", {2, 4, 5}}}, {make_layer("mm", "matmul", {}, {"a", "b"}),
                                                        make_layer("s", "sigmoid", {}, {"mm"})});
  const Graph g = inference(mm);
  const Layer &m = only_layer(g);
  CHECK(m.name == "mm+s");
  CHECK(m.op_input_count() == 2);
  const LayerCost c = layer_cost(g, m, Pass::fwd);
  REQUIRE(c.gemm);
  CHECK(c.gemm->m == 3);
  CHECK(c.gemm->n == 5);
  CHECK(c.gemm->k == 4);
  CHECK(c.fwd.flops == 2 * 2 * 3 * 4 * 5);
  CHECK(epilogue_sweeps(m) == 1);
}

TEST_CASE("a matmul with a constant operand reads its residual after its own input") {
  Layer mm = make_layer("mm", "matmul", {}, {"a"});
  mm.params = {TensorDesc{"mm.B", {4, 5}, DType::fp32}};
  const Graph eager =
      make_graph({{"a", {3, 4}}, {"r", {3, 5}}}, {mm, make_layer("add", "add", {}, {"mm", "r"})});
  const Graph g = inference(eager);
  const Layer &l = only_layer(g);
  CHECK(l.inputs == std::vector<std::string>{"a", "r"});
  CHECK(l.op_input_count() == 1); // so the product's B is still the parameter
  const LayerCost c = layer_cost(g, l, Pass::fwd);
  REQUIRE(c.gemm);
  CHECK(c.gemm->n == 5);
  CHECK(c.fwd.bytes() == (12 + 15 + 20 + 15) * 4);
}

TEST_CASE("a fused layer has no train-pass cost") {
  const Graph g = inference(conv_bn_relu());
  CHECK_THROWS_AS(layer_cost(g, g.layers[0], Pass::train), InputError);
}

TEST_CASE("fused names drop the head's leading path; a taken name falls back to full names") {
  const Graph eager = make_graph(
      {{"x", {1, 2, 4, 4}}}, {make_layer("/l1/conv/Conv", "conv2d",
                                         {{"out_channels", int64_t{2}}, {"kernel", int64_t{1}}}),
                              make_layer("/l1/bn/BN", "batchnorm", {}, {"/l1/conv/Conv"}),
                              make_layer("/l2/Relu", "relu", {}, {"/l1/bn/BN"})});
  CHECK(only_layer(inference(eager)).name == "/l1/conv/Conv+bn/BN+l2/Relu");

  // "/p/a+b" is the name of a layer left as it is: the group takes its parts' full names.
  const Graph taken = make_graph({{"x", {4}}}, {make_layer("/p/a", "relu"),
                                                make_layer("/p/b", "sigmoid", {}, {"/p/a"}),
                                                make_layer("/p/a+b", "mul", {}, {"x", "x"})});
  CHECK(names(inference(taken)) == std::vector<std::string>{"/p/a+/p/b", "/p/a+b"});
}
