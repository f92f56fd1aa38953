// Tests of the liveness walk: weights plus activations at the peak, forward and train.
#include <doctest/doctest.h>

#include "perfmodel/memory_footprint.hpp"
#include "perfmodel/predict.hpp"
#include "sweep_fixtures.hpp"

using namespace perfmodel;

// Bytes of tiny_net at batch 2, fp32: x 1536, c 2048, r 2048, f = view of r, y 80;
// weights: conv 4*3*3*3 + 4 = 112 floats, fc 10*256 + 10 = 2570 floats -> 10728 bytes.

TEST_CASE("forward footprint: inputs and outputs of the peak layer are live together") {
  Graph g = test::tiny_net(2);
  MemoryFootprint f = memory_footprint(g, Pass::fwd);
  CHECK(f.weights_bytes == 10728);
  // During relu: c (its input, still live) and r (its output); x was freed after conv.
  CHECK(f.activation_bytes == 4096);
  CHECK(f.peak_layer == "relu");
  CHECK(f.total_bytes() == 10728 + 4096);
}

TEST_CASE("forward footprint scales with the batch, weights do not") {
  MemoryFootprint a = memory_footprint(test::tiny_net(2), Pass::fwd);
  MemoryFootprint b = memory_footprint(test::tiny_net(8), Pass::fwd);
  CHECK(b.weights_bytes == a.weights_bytes);
  CHECK(b.activation_bytes == 4 * a.activation_bytes);
}

TEST_CASE("a view shares its input's storage and keeps it alive until the view's reader") {
  Graph g;
  g.name = "views";
  g.inputs = {TensorDesc{"x", {1, 1000}, DType::fp32}}; // 4000 bytes
  Layer a = test::make_layer("a", OpKind::activation, "relu", {"x"}, {"a"});
  a.attrs.set("function", std::string("relu"));
  Layer v = test::make_layer("v", OpKind::flatten, "flatten", {"a"}, {"v"});
  Layer b = test::make_layer("b", OpKind::activation, "relu", {"v"}, {"b"});
  b.attrs.set("function", std::string("relu"));
  g.layers = {a, v, b};
  infer_shapes(g);
  MemoryFootprint f = memory_footprint(g, Pass::fwd);
  CHECK(f.weights_bytes == 0);
  // x + a during "a" (8000), then a (= v) + b during "b" (8000): never three buffers at once.
  CHECK(f.activation_bytes == 8000);
}

TEST_CASE("unread tensors (graph outputs) stay live to the end") {
  Graph g;
  g.name = "two_heads";
  g.inputs = {TensorDesc{"x", {1, 100}, DType::fp32}}; // 400 bytes each
  Layer h1 = test::make_layer("h1", OpKind::activation, "relu", {"x"}, {"h1"});
  h1.attrs.set("function", std::string("relu"));
  Layer h2 = test::make_layer("h2", OpKind::activation, "relu", {"x"}, {"h2"});
  h2.attrs.set("function", std::string("relu"));
  Layer h3 = test::make_layer("h3", OpKind::activation, "relu", {"h2"}, {"h3"});
  h3.attrs.set("function", std::string("relu"));
  g.layers = {h1, h2, h3};
  infer_shapes(g);
  MemoryFootprint f = memory_footprint(g, Pass::fwd);
  // During h2: x, h1 (an output, kept to the end) and h2; during h3: h1, h2 and h3.
  CHECK(f.activation_bytes == 1200);
  CHECK(f.peak_layer == "h2"); // the first layer that reaches the peak
}

TEST_CASE("train footprint: all activations saved, weight gradients, worst layer's gradients") {
  Graph g = test::tiny_net(2);
  MemoryFootprint f = memory_footprint(g, Pass::train);
  CHECK(f.weights_bytes == 2 * 10728);
  // Saved: x 1536 + c 2048 + r 2048 + y 80 = 5712; gradients during relu: dc + dr = 4096.
  CHECK(f.activation_bytes == 5712 + 4096);
  CHECK(f.peak_layer == "relu");
}

TEST_CASE("footprint follows the data type") {
  Graph g = test::tiny_net(2);
  set_dtype(g, DType::fp16);
  MemoryFootprint f = memory_footprint(g, Pass::fwd);
  CHECK(f.weights_bytes == 10728 / 2);
  CHECK(f.activation_bytes == 4096 / 2);
}

TEST_CASE("an empty graph needs only its inputs") {
  Graph g;
  g.inputs = {TensorDesc{"x", {4, 4}, DType::fp32}};
  MemoryFootprint f = memory_footprint(g, Pass::fwd);
  CHECK(f.weights_bytes == 0);
  CHECK(f.activation_bytes == 64);
  CHECK(f.peak_layer.empty());
}

TEST_CASE("memory_fit holds the footprint against the spec's DRAM capacity") {
  const MemoryFootprint m = memory_footprint(test::tiny_net(2), Pass::fwd);
  const MemoryFit small = memory_fit(m, test::tiny_gpu("small", double(m.total_bytes()) - 1));
  CHECK(small.footprint.total_bytes() == m.total_bytes());
  CHECK(small.capacity_bytes == double(m.total_bytes()) - 1);
  CHECK_FALSE(small.fits);
  CHECK(memory_fit(m, test::tiny_gpu("exact", double(m.total_bytes()))).fits);
  CHECK(memory_fit(m, test::tiny_gpu("unknown", 0)).fits); // no capacity given: it fits
}
