// Tests of the operator -> one-layer graph rules: FLOPs and bytes of traced ResNet-50 operators
// against values computed by hand from the boda rules (docs/ops.md), and the derivations.
#include "perfmodel/trace/op_shapes.hpp"

#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/cost.hpp"
#include "perfmodel/trace/attainment.hpp"
#include "trace_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

namespace {

// The first operator node called `name` whose recorded shapes print as `shapes`.
int find_node(const LoadedTrace &t, const std::string &name, const std::string &shapes,
              const std::string &parent_shapes = "") {
  for (int n = 0; n < static_cast<int>(t.tree.nodes.size()); ++n) {
    if (!trace::is_operator_node(t.trace, t.tree, n))
      continue;
    const trace::TraceEvent &e = t.trace.events[t.tree.nodes[n].event];
    if (e.name != name || trace::dims_label(e) != shapes)
      continue;
    if (!parent_shapes.empty()) {
      int p = t.tree.nodes[n].parent;
      if (trace::dims_label(t.trace.events[t.tree.nodes[p].event]) != parent_shapes)
        continue;
    }
    return n;
  }
  FAIL("no node " << name << " " << shapes);
  return -1;
}

PassCost counts(const LoadedTrace &t, int n) {
  std::string why;
  auto m = trace::model_op(t.trace, t.tree, n, trace::collect_shape_hints(t.trace), &why);
  REQUIRE_MESSAGE(m.has_value(), why);
  const Layer &l = m->graph.layers[0];
  LayerCost c = layer_cost(m->graph, l, m->part == trace::OpPart::fwd ? Pass::fwd : Pass::train);
  switch (m->part) {
  case trace::OpPart::fwd:
    return c.fwd;
  case trace::OpPart::bwd_data:
    return c.bwd_data;
  case trace::OpPart::bwd_weight:
    return c.bwd_weight;
  case trace::OpPart::bwd: {
    PassCost p = c.bwd_data;
    p += c.bwd_weight;
    return p;
  }
  }
  return {};
}

} // namespace

TEST_CASE("first ResNet-50 convolution: 7x7/2 conv, 3 -> 64 channels, batch 32") {
  const LoadedTrace &t = shared_trace(0);
  PassCost c = counts(t, find_node(t, "aten::cudnn_convolution", "32x3x224x224, 64x3x7x7"));
  // Output 32x64x112x112 (from the backward op's grad-output). GEMM M = 32*112*112 = 401408,
  // N = 64, K = 3*7*7 = 147: FLOPs = 2*M*N*K.
  CHECK(c.flops == 2LL * 401408 * 64 * 147); // 7,552,892,928
  // Bytes: input 4,816,896 + weight 9,408 + output 25,690,112 elements, 4 bytes each.
  CHECK(c.bytes() == (4816896LL + 9408 + 25690112) * 4); // 122,065,664
}

TEST_CASE("batch norm forward on 32x64x112x112") {
  const LoadedTrace &t = shared_trace(0);
  PassCost c = counts(t, find_node(t, "aten::cudnn_batch_norm", "32x64x112x112, 64, 64, 64, 64"));
  // 2 FLOPs per element (scale and shift); bytes: input + output + 4 per-channel vectors.
  CHECK(c.flops == 2LL * 25690112);
  CHECK(c.bytes() == (2LL * 25690112 + 4 * 64) * 4); // 205,521,920
}

TEST_CASE("residual add_ of two 32x256x56x56 tensors") {
  const LoadedTrace &t = shared_trace(0);
  PassCost c = counts(t, find_node(t, "aten::add_", "32x256x56x56, 32x256x56x56"));
  CHECK(c.flops == 25690112);             // one add per element
  CHECK(c.bytes() == 3LL * 25690112 * 4); // two inputs read, one output written
}

TEST_CASE("conv backward_weight takes its shapes from the parent convolution_backward") {
  const LoadedTrace &t = shared_trace(0);
  int n = find_node(t, "aten::cudnn_convolution_backward_weight", "32x2048x7x7, 32x512x7x7",
                    "32x512x7x7, 32x2048x7x7, 2048x512x1x1");
  PassCost c = counts(t, n);
  CHECK(c.flops == 2LL * (32 * 7 * 7) * 2048 * 512);      // dW = X^T dY: 2*M*N*K
  CHECK(c.bytes() == (32LL * 512 * 49 + 2048 * 512) * 4); // saved input read, dW written
}

TEST_CASE("relu backward (threshold_backward) reads grad and input, writes grad") {
  const LoadedTrace &t = shared_trace(0);
  PassCost c = counts(t, find_node(t, "aten::threshold_backward", "32x2048x7x7, 32x2048x7x7"));
  CHECK(c.flops == 32LL * 2048 * 49);
  CHECK(c.bytes() == 3LL * 32 * 2048 * 49 * 4);
}

TEST_CASE("max pool: output from the backward op, smallest window kernel = stride") {
  const LoadedTrace &t = shared_trace(0);
  std::string why;
  int n = find_node(t, "aten::max_pool2d_with_indices", "32x64x112x112");
  auto m = trace::model_op(t.trace, t.tree, n, trace::collect_shape_hints(t.trace), &why);
  REQUIRE(m.has_value());
  CHECK(m->graph.tensor("y").shape == Shape{32, 64, 56, 56});
}

TEST_CASE("operators without a rule or without shapes say why") {
  const LoadedTrace &t = shared_trace(0);
  std::string why;
  int n = find_node(t, "aten::copy_", "3x224x224, 3x224x224");
  CHECK_FALSE(trace::model_op(t.trace, t.tree, n, {}, &why).has_value());
  CHECK(why == "no shape rule for this operator");
  // A forward convolution without hints has no output shape to go by.
  n = find_node(t, "aten::cudnn_convolution", "32x3x224x224, 64x3x7x7");
  CHECK_FALSE(trace::model_op(t.trace, t.tree, n, {}, &why).has_value());
  CHECK(why.find("output shape not recorded") == 0);
  CHECK(trace::has_shape_rule("aten::addmm"));
  CHECK_FALSE(trace::has_shape_rule("aten::copy_"));
}

TEST_CASE("Concrete Inputs (PyTorch >= 2.1) give stride, padding and windows directly") {
  LoadedTrace t = load_test_trace("concrete.json");
  trace::AttainmentView v = trace::attainment_view(t.trace, t.links, t.tree, v100());
  REQUIRE(v.rows.size() == 3);
  CHECK(v.unattributed.empty());
  std::map<std::string, const trace::AttainmentRow *> by;
  for (const auto &r : v.rows)
    by[r.name] = &r;
  // conv 3x3/2 pad 1, 3 -> 8 channels with bias, on 1x3x32x32: output 1x8x16x16.
  const auto *conv = by.at("aten::convolution");
  CHECK(conv->op == "conv2d fwd");
  CHECK(conv->flops == 2.0 * (16 * 16) * 8 * (3 * 3 * 3));    // 110,592
  CHECK(conv->bytes == (3072.0 + 216 + 8 + 8 * 16 * 16) * 4); // 21,376
  CHECK(conv->device_seconds == rel(10e-6));
  CHECK(conv->model.graph.tensor("y").shape == Shape{1, 8, 16, 16});
  // max pool 3x3/2 pad 1 on 1x8x16x16: output 1x8x8x8, 9 comparisons per output.
  const auto *mp = by.at("aten::max_pool2d");
  CHECK(mp->flops == 512.0 * 9);
  CHECK(mp->bytes == (2048.0 + 512) * 4);
  // avg pool 2x2, empty stride = kernel: output 1x8x4x4.
  const auto *ap = by.at("aten::avg_pool2d");
  CHECK(ap->model.graph.tensor("y").shape == Shape{1, 8, 4, 4});
  CHECK(ap->flops == 128.0 * 4);
  CHECK(ap->bytes == (512.0 + 128) * 4);
}

TEST_CASE("an operator's layout is its first rank-4 argument's recorded strides") {
  trace::TraceEvent e;
  e.input_dims = {{32, 64, 56, 56}, {64, 64, 1, 1}};
  CHECK(trace::recorded_layout(e) == Layout::nchw); // no strides recorded
  e.input_strides = {{200704, 3136, 56, 1}, {64, 1, 1, 1}};
  CHECK(trace::recorded_layout(e) == Layout::nchw); // contiguous NCHW
  e.input_strides = {{200704, 1, 3584, 64}, {64, 1, 64, 64}};
  CHECK(trace::recorded_layout(e) == Layout::nhwc); // channels_last
  e.input_dims = {{32, 1, 28, 28}};
  e.input_strides = {{784, 1, 28, 1}};
  CHECK(trace::recorded_layout(e) == Layout::nchw); // one channel: the layouts coincide
  e.input_dims = {{}, {32, 3, 224, 224}};
  e.input_strides = {{}, {150528, 1, 672, 3}};
  CHECK(trace::recorded_layout(e) == Layout::nhwc); // the first rank-4 argument
}
