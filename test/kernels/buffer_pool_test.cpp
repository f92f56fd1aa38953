// The executor's memory plan: the pool's best fit, and a reused-buffer pass computing exactly
// what a pass with a buffer per tensor computes (no kernel may rely on a zeroed output).
#include <doctest/doctest.h>

#include <cstring>
#include <set>
#include <stdexcept>

#include "perfmodel/kernels/cpu/buffer_pool.hpp"
#include "perfmodel/kernels/cpu/executor.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "test_layer.hpp"

using namespace perfmodel;
using namespace perfmodel::kernels::cpu;

TEST_CASE("buffer pool: one scratch buffer, grown to the largest request") {
  BufferPool pool;
  CHECK(pool.scratch_size() == 0);
  const auto &s = pool.scratch(100);
  CHECK(pool.scratch(40).get() == s.get());
  CHECK(pool.scratch(300).get() == s.get());
  CHECK(pool.scratch_size() == 300);
  CHECK(pool.allocated() == 0); // not an output buffer
}

TEST_CASE("buffer pool gives each output the buffer its plan assigns") {
  BufferAssignment plan;
  plan.buffer_of = {{"a", 0}, {"b", 1}, {"c", 0}};
  plan.capacity = {100, 400};
  BufferPool pool(plan);
  const auto a = pool.output("a", 100);
  CHECK(a->size() == 100);
  CHECK(pool.output("b", 300)->size() == 400);  // the plan's capacity
  CHECK(pool.output("c", 60).get() == a.get()); // shares a's buffer
  CHECK(pool.allocated() == 500);
  CHECK(pool.output("d", 0)->size() == 1); // not in the plan: its own, at least one element
  CHECK(pool.allocated() == 501);
  CHECK_THROWS_AS(pool.output("c", 101), std::logic_error); // would overrun a's buffer
}

namespace {

// Two im2col convolutions (one shared scratch), BN/ReLU with a residual add, a depthwise conv,
// pools, a view and a classifier: every kind of kernel that writes an output with or without
// accumulating into it.
Graph small_net() {
  using V = std::vector<int64_t>;
  Graph g;
  g.name = "reuse";
  g.inputs.push_back(TensorDesc{"x", {2, 8, 12, 12}, DType::fp32});
  g.layers = {
      test::layer("c1", OpKind::conv2d, "conv2d", {"x"},
                  {{"out_channels", int64_t(8)}, {"kernel", V{3, 3}}, {"pad", V{1, 1}}}),
      test::layer("c0", OpKind::conv2d, "conv2d", {"c1"}, // a second im2col: the scratch is shared
                  {{"out_channels", int64_t(8)}, {"kernel", V{5, 5}}, {"pad", V{2, 2}}}),
      test::layer("bn", OpKind::batch_norm, "batchnorm", {"c0"}),
      test::layer("r1", OpKind::activation, "relu", {"bn"}, {{"function", std::string("relu")}}),
      test::layer("dw", OpKind::conv2d, "conv2d", {"r1"},
                  {{"out_channels", int64_t(8)},
                   {"kernel", V{3, 3}},
                   {"pad", V{1, 1}},
                   {"groups", int64_t(8)}}),
      test::layer("add", OpKind::elementwise, "add", {"dw", "x"},
                  {{"function", std::string("add")}}),
      test::layer("ct", OpKind::conv_transpose2d, "conv_transpose2d", {"add"},
                  {{"out_channels", int64_t(4)}, {"kernel", V{2, 2}}, {"stride", V{2, 2}}}),
      test::layer("mp", OpKind::max_pool, "maxpool", {"ct"},
                  {{"kernel", V{2, 2}}, {"stride", V{2, 2}}}),
      test::layer("ap", OpKind::avg_pool, "avgpool", {"mp"},
                  {{"kernel", V{3, 3}}, {"stride", V{1, 1}}, {"pad", V{1, 1}}}),
      test::layer("cat", OpKind::concat, "concat", {"ap", "mp"}, {{"axis", int64_t(1)}}),
      test::layer("gp", OpKind::global_avg_pool, "global_avgpool", {"cat"}),
      test::layer("fl", OpKind::flatten, "flatten", {"gp"}),
      test::layer("fc", OpKind::linear, "linear", {"fl"}, {{"out_features", int64_t(5)}}),
      test::layer("sm", OpKind::softmax, "softmax", {"fc"}, {{"axis", int64_t(1)}})};
  infer_shapes(g);
  return g;
}

} // namespace

TEST_CASE("executor with reused buffers computes what it computes with a buffer per tensor") {
  const Graph g = small_net();
  ThreadCountScope two(2); // the workspaces below are two threads' slabs
  Executor distinct(g, 4, BufferPlan::distinct);
  Executor reuse(g, 4, BufferPlan::reuse);
  distinct.run_all();
  for (int pass = 0; pass < 2; ++pass) // the second pass finds every buffer dirty
    reuse.run_all();
  const Tensor &a = distinct.tensor("sm"), &b = reuse.tensor("sm");
  REQUIRE(a.shape == b.shape);
  CHECK(std::memcmp(a.ptr(), b.ptr(), sizeof(float) * size_t(a.size())) == 0);
  // Fewer bytes, and some buffer holds two tensors whose lives do not overlap.
  CHECK(reuse.activation_bytes() < distinct.activation_bytes());
  // Workspaces: c1's and c0's im2col slabs, one per thread, and ct's col2im matrix each
  // (distinct), the largest (reuse). c1 and c0 split the 144 columns of their products in 9
  // blocks of 16, 5 blocks (80 columns) for the first thread: a slab of k x 80 each.
  CHECK(distinct.workspace_bytes() == 4 * (2 * 8 * 9 * 80 + 2 * 8 * 25 * 80 + 4 * 2 * 2 * 144));
  CHECK(reuse.workspace_bytes() == 4 * (2 * 8 * 25 * 80));
  std::set<const Buffer *> seen;
  bool shared = false;
  for (const auto &l : g.layers)
    if (l.op != OpKind::flatten)
      shared |= !seen.insert(reuse.tensor(l.name).data.get()).second;
  CHECK(shared);
  // The input is never handed to a layer output, and a layer never writes over its own input.
  for (const auto &l : g.layers) {
    CHECK(reuse.tensor(l.name).data != reuse.tensor("x").data);
    for (const auto &in : l.inputs)
      if (l.op != OpKind::flatten)
        CHECK(reuse.tensor(l.name).data != reuse.tensor(in).data);
  }
}
