// Counting rules of every op (docs/ops.md), checked against hand-computed figures.
#include <doctest/doctest.h>

#include "perfmodel/cost.hpp"
#include "test_graphs.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

namespace {
LayerCost cost_of(const Graph &g, size_t i = 0, Pass p = Pass::fwd) {
  return layer_cost(g, g.layers.at(i), p);
}
} // namespace

TEST_CASE("conv2d: boda's conv1 of NIN at batch 5") {
  Graph g = one_layer(
      {5, 3, 227, 227},
      make_layer("conv1", "conv2d",
                 {{"out_channels", int64_t{96}}, {"kernel", int64_t{11}}, {"stride", int64_t{4}}}));
  const LayerCost c = cost_of(g);
  CHECK(c.fwd.flops == 1054152000);
  CHECK(c.fwd.macs == 527076000);
  CHECK(c.fwd.bytes() == 9039516);
  CHECK(c.fwd.bytes_input == 772935 * 4);
  CHECK(c.fwd.bytes_weights == 34848 * 4);
  CHECK(c.fwd.bytes_bias == 96 * 4);
  CHECK(c.fwd.bytes_output == 1452000 * 4);
  CHECK(c.params == 34944);
  REQUIRE(c.gemm);
  CHECK(c.gemm->m == 15125);
  CHECK(c.gemm->n == 96);
  CHECK(c.gemm->k == 363);
  CHECK(c.gemm->groups == 1);
}

TEST_CASE("conv2d: groups, padding, dilation and no bias") {
  // Depthwise 3x3, pad 1, 32 channels on 1x32x16x16: MACs = 16*16*32*1*9.
  Graph g = one_layer({1, 32, 16, 16}, make_layer("dw", "conv2d",
                                                  {{"out_channels", int64_t{32}},
                                                   {"kernel", int64_t{3}},
                                                   {"pad", int64_t{1}},
                                                   {"groups", int64_t{32}},
                                                   {"bias", int64_t{0}}}));
  LayerCost c = cost_of(g);
  CHECK(c.fwd.macs == 16 * 16 * 32 * 9);
  CHECK(c.gemm->m == 256);
  CHECK(c.gemm->n == 1);
  CHECK(c.gemm->k == 9);
  CHECK(c.gemm->groups == 32);
  CHECK(c.fwd.bytes_bias == 0);
  CHECK(c.params == 32 * 9);
  // Dilation 2 on 1x1x10x10 with a 3x3 kernel: effective 5x5 -> 6x6 output.
  Graph d = one_layer(
      {1, 1, 10, 10},
      make_layer("dil", "conv2d",
                 {{"out_channels", int64_t{2}}, {"kernel", int64_t{3}}, {"dilation", int64_t{2}}}));
  CHECK(d.tensor("dil").shape == Shape{1, 2, 6, 6});
  CHECK(cost_of(d).fwd.macs == 36 * 2 * 9);
}

TEST_CASE("conv_transpose2d: MACs over the input positions") {
  // 1x8x4x4 -> 1x4x8x8 with kernel 2 stride 2: MACs = 16 * 8 * 4 * 4.
  Graph g = one_layer(
      {1, 8, 4, 4},
      make_layer("up", "conv_transpose2d",
                 {{"out_channels", int64_t{4}}, {"kernel", int64_t{2}}, {"stride", int64_t{2}}}));
  CHECK(g.tensor("up").shape == Shape{1, 4, 8, 8});
  const LayerCost c = cost_of(g);
  CHECK(c.fwd.macs == 16 * 8 * 4 * 4);
  CHECK(c.gemm->m == 16);
  CHECK(c.gemm->n == 16);
  CHECK(c.gemm->k == 8);
  CHECK(c.params == 8 * 4 * 4 + 4);
}

TEST_CASE("linear and matmul") {
  Graph g = one_layer({2, 10, 64}, make_layer("fc", "linear", {{"out_features", int64_t{32}}}));
  LayerCost c = cost_of(g);
  CHECK(c.fwd.macs == 20 * 32 * 64);
  CHECK(c.fwd.flops == 2 * 20 * 32 * 64);
  CHECK(c.fwd.bytes() == (2 * 10 * 64 + 32 * 64 + 32 + 2 * 10 * 32) * 4);
  CHECK(c.params == 32 * 64 + 32);

  // Batched, broadcasting: [4,1,8,16] x [3,16,5] -> [4,3,8,5], 12 GEMMs of 8x5x16.
  Graph m = make_graph({{"a", {4, 1, 8, 16}}, {"b", {3, 16, 5}}},
                       {make_layer("mm", "matmul", {}, {"a", "b"})});
  CHECK(m.tensor("mm").shape == Shape{4, 3, 8, 5});
  c = cost_of(m);
  CHECK(c.gemm->groups == 12);
  CHECK(c.gemm->m == 8);
  CHECK(c.gemm->n == 5);
  CHECK(c.gemm->k == 16);
  CHECK(c.fwd.macs == 12 * 8 * 5 * 16);
  CHECK(c.fwd.bytes() == (4 * 8 * 16 + 3 * 16 * 5 + 4 * 3 * 8 * 5) * 4);
  CHECK(c.params == 0);
}

TEST_CASE("pooling: window FLOPs, ceil mode, global") {
  Graph g = one_layer(
      {5, 96, 55, 55},
      make_layer("p", "maxpool",
                 {{"kernel", int64_t{3}}, {"stride", int64_t{2}}, {"ceil_mode", int64_t{1}}}));
  CHECK(g.tensor("p").shape == Shape{5, 96, 27, 27});
  LayerCost c = cost_of(g);
  CHECK(c.fwd.flops == 5 * 96 * 27 * 27 * 9);
  CHECK(c.fwd.bytes() == (5 * 96 * 55 * 55 + 5 * 96 * 27 * 27) * 4);
  // Floor vs ceil: 6 -> kernel 3 stride 2 gives 2 (floor) or 3 (ceil).
  CHECK(one_layer({1, 1, 6, 6},
                  make_layer("f", "avgpool", {{"kernel", int64_t{3}}, {"stride", int64_t{2}}}))
            .tensor("f")
            .shape == Shape{1, 1, 2, 2});
  CHECK(one_layer(
            {1, 1, 6, 6},
            make_layer("c", "avgpool",
                       {{"kernel", int64_t{3}}, {"stride", int64_t{2}}, {"ceil_mode", int64_t{1}}}))
            .tensor("c")
            .shape == Shape{1, 1, 3, 3});
  Graph gp = one_layer({2, 8, 7, 7}, make_layer("gap", "global_avgpool"));
  CHECK(gp.tensor("gap").shape == Shape{2, 8, 1, 1});
  CHECK(cost_of(gp).fwd.flops == 2 * 8 * 49);
}

TEST_CASE("activations: FLOPs per element from the registry") {
  const std::pair<const char *, int> fns[] = {{"relu", 1},      {"relu6", 2},      {"sigmoid", 4},
                                              {"tanh", 5},      {"gelu", 5},       {"silu", 5},
                                              {"hardswish", 5}, {"hardsigmoid", 4}};
  for (auto [fn, per] : fns) {
    Graph g = one_layer({2, 3, 4}, make_layer("a", fn));
    const LayerCost c = cost_of(g);
    CHECK(c.fwd.flops == 24 * per);
    CHECK(c.fwd.bytes() == 2 * 24 * 4);
  }
}

TEST_CASE("normalizations, softmax, reduce") {
  Graph bn = one_layer({2, 16, 4, 4}, make_layer("bn", "batchnorm"));
  LayerCost c = cost_of(bn);
  CHECK(c.fwd.flops == 2 * 512);
  CHECK(c.params == 32);                            // weight + bias (torchvision counts these)
  CHECK(c.fwd.bytes() == (512 + 4 * 16 + 512) * 4); // running stats are read too
  Graph ln = one_layer({2, 10, 64}, make_layer("ln", "layernorm"));
  c = cost_of(ln);
  CHECK(c.fwd.flops == 8 * 1280);
  CHECK(c.params == 128);
  Graph sm = one_layer({4, 100}, make_layer("sm", "softmax"));
  CHECK(cost_of(sm).fwd.flops == 5 * 400);
  Graph rm =
      one_layer({2, 10, 64}, make_layer("rm", "reduce_mean", {{"axes", std::vector<int64_t>{-1}}}));
  CHECK(rm.tensor("rm").shape == Shape{2, 10, 1});
  CHECK(cost_of(rm).fwd.flops == 1280);
}

TEST_CASE("elementwise with broadcasting") {
  Graph g = make_graph({{"a", {2, 3, 4}}, {"b", {4}}}, {make_layer("add", "add", {}, {"a", "b"})});
  CHECK(g.tensor("add").shape == Shape{2, 3, 4});
  const LayerCost c = cost_of(g);
  CHECK(c.fwd.flops == 24);
  CHECK(c.fwd.bytes() == (24 + 4 + 24) * 4);
  CHECK_THROWS_AS(
      make_graph({{"a", {2, 3}}, {"b", {4}}}, {make_layer("add", "add", {}, {"a", "b"})}),
      InputError);
}

TEST_CASE("data movement: views are free, copies count bytes") {
  Graph g = one_layer({2, 3, 4, 5}, make_layer("f", "flatten"));
  CHECK(g.tensor("f").shape == Shape{2, 60});
  CHECK(cost_of(g).fwd.bytes() == 0);
  Graph r = one_layer({2, 3, 4, 5},
                      make_layer("r", "reshape", {{"shape", std::vector<int64_t>{0, -1, 5}}}));
  CHECK(r.tensor("r").shape == Shape{2, 12, 5});
  CHECK(cost_of(r).fwd.bytes() == 0);
  Graph t =
      one_layer({2, 3, 4}, make_layer("t", "transpose", {{"perm", std::vector<int64_t>{0, 2, 1}}}));
  CHECK(t.tensor("t").shape == Shape{2, 4, 3});
  CHECK(cost_of(t).fwd.bytes() == 2 * 24 * 4);
  CHECK(cost_of(t).fwd.flops == 0);
  Graph c = make_graph({{"a", {1, 2, 4}}, {"b", {1, 3, 4}}},
                       {make_layer("cat", "concat", {{"axis", int64_t{1}}}, {"a", "b"})});
  CHECK(c.tensor("cat").shape == Shape{1, 5, 4});
  CHECK(cost_of(c).fwd.bytes() == 2 * 20 * 4);
  Graph s = one_layer({4, 10}, make_layer("s", "slice",
                                          {{"starts", std::vector<int64_t>{2}},
                                           {"ends", std::vector<int64_t>{8}},
                                           {"axes", std::vector<int64_t>{1}}}));
  CHECK(s.tensor("s").shape == Shape{4, 6});
  CHECK(cost_of(s).fwd.bytes() == 2 * 24 * 4);
  Layer sp = make_layer("sp", "split", {{"axis", int64_t{1}}});
  sp.outputs = {"s0", "s1"};
  Graph spg = one_layer({2, 8}, sp);
  CHECK(spg.tensor("s1").shape == Shape{2, 4});
  CHECK(cost_of(spg).fwd.bytes() == 2 * 16 * 4);
}

TEST_CASE("dropout: a no-op at inference, a mask multiply in training") {
  Graph g = one_layer({2, 50}, make_layer("d", "dropout"));
  CHECK(cost_of(g).fwd.flops == 0);
  CHECK(cost_of(g).fwd.bytes() == 0);
  const LayerCost t = cost_of(g, 0, Pass::train);
  CHECK(t.fwd.flops == 100);
  CHECK(t.total.flops == 200);
}

TEST_CASE("embedding and gather: only the gathered rows are read") {
  Graph g;
  g.name = "e";
  g.inputs.push_back(TensorDesc{"ids", {2, 16}, DType::int64});
  Layer e =
      make_layer("emb", "embedding",
                 {{"num_embeddings", int64_t{1000}}, {"embedding_dim", int64_t{64}}}, {"ids"});
  g.layers.push_back(e);
  infer_shapes(g);
  CHECK(g.tensor("emb").shape == Shape{2, 16, 64});
  const LayerCost c = cost_of(g);
  CHECK(c.params == 64000);
  CHECK(c.fwd.bytes_input == 32 * 8);
  CHECK(c.fwd.bytes_weights == 32 * 64 * 4);
  CHECK(c.fwd.bytes_output == 32 * 64 * 4);
}

TEST_CASE("generic op: counted by the bytes it reads and writes, needs a declared shape") {
  Layer l = make_layer("u", "generic");
  CHECK_THROWS_AS(one_layer({2, 3}, l), InputError);
  l.output_shapes = {DeclaredShape{{0, 1}, {6, 0}}}; // [N, 6]
  Graph g = one_layer({2, 3}, l);
  CHECK(g.tensor("u").shape == Shape{2, 6});
  CHECK(cost_of(g).fwd.flops == 0);
  CHECK(cost_of(g).fwd.bytes() == (6 + 12) * 4);
}

TEST_CASE("train pass: boda's backward rules for conv") {
  Graph g = one_layer(
      {5, 3, 227, 227},
      make_layer("conv1", "conv2d",
                 {{"out_channels", int64_t{96}}, {"kernel", int64_t{11}}, {"stride", int64_t{4}}}));
  const LayerCost c = cost_of(g, 0, Pass::train);
  CHECK(c.bwd_data.flops == 1054152000);
  CHECK(c.bwd_weight.flops == 1054152000);
  CHECK(c.total.flops == 3 * 1054152000LL);
  // boda: backward bytes = (2*in + out + 2*filts + 2*biases) * 4
  const int64_t bwd = (2 * 772935 + 1452000 + 2 * 34848 + 2 * 96) * 4;
  CHECK(c.bwd_data.bytes() + c.bwd_weight.bytes() == bwd);
  CHECK(c.total.bytes() == 9039516 + bwd);
}

TEST_CASE("train pass: other ops read grad-out and the saved input") {
  Graph g = one_layer({2, 16, 4, 4}, make_layer("bn", "batchnorm"));
  const LayerCost c = cost_of(g, 0, Pass::train);
  CHECK(c.bwd_data.flops == 2 * c.fwd.flops);
  CHECK(c.bwd_data.bytes() ==
        2 * c.fwd.bytes_input + c.fwd.bytes_output + 2 * (c.fwd.bytes_weights + c.fwd.bytes_bias));
  CHECK(c.bwd_weight.flops == 0);
}

TEST_CASE("fp16 halves the bytes, not the FLOPs") {
  Graph g = make_graph({{"x", {1, 64}}},
                       {make_layer("fc", "linear", {{"out_features", int64_t{10}}})}, DType::fp16);
  const LayerCost c = cost_of(g);
  CHECK(c.fwd.bytes() == (64 + 640 + 10 + 10) * 2);
  CHECK(c.fwd.flops == 2 * 640);
}
