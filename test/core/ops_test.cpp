// The op registry: every name resolves, aliases work, every entry documents a rule.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "perfmodel/ops.hpp"

using namespace perfmodel;

TEST_CASE("every registry entry has a unique name and a rule") {
  std::set<std::string_view> names;
  for (const auto &info : op_registry()) {
    CHECK_MESSAGE(names.insert(info.name).second, info.name);
    CHECK_MESSAGE(!info.rule.empty(), info.name);
    REQUIRE(find_op(info.name));
    if (info.kind == OpKind::activation)
      CHECK(activation_flops_per_element(info.function));
    if (info.kind == OpKind::elementwise)
      CHECK(elementwise_flops_per_element(info.function));
  }
}

TEST_CASE("aliases and unknown names") {
  CHECK(find_op("fc")->kind == OpKind::linear);
  CHECK(find_op("gemm")->kind == OpKind::linear);
  CHECK(find_op("bmm")->kind == OpKind::matmul);
  CHECK(find_op("swish")->function == "silu");
  CHECK_FALSE(find_op("conv3d"));
  CHECK(is_gemm_like(OpKind::conv2d));
  CHECK_FALSE(is_gemm_like(OpKind::softmax));
}

TEST_CASE("each op kind names the attributes a model file may give it") {
  const auto has = [](OpKind k, std::string_view a) {
    const auto &v = op_attributes(k);
    return std::find(v.begin(), v.end(), a) != v.end();
  };
  CHECK(has(OpKind::conv2d, "pad"));
  CHECK_FALSE(has(OpKind::conv2d, "padding"));
  CHECK_FALSE(has(OpKind::conv2d, "output_padding"));
  CHECK(has(OpKind::conv_transpose2d, "output_padding"));
  CHECK(has(OpKind::avg_pool, "count_include_pad"));
  CHECK_FALSE(has(OpKind::max_pool, "count_include_pad"));
  CHECK(has(OpKind::layer_norm, "epsilon"));
  CHECK(op_attributes(OpKind::matmul).empty());
  CHECK(op_attributes(OpKind::generic).empty());
  for (const auto &info : op_registry()) // "function" comes from the op's name, never the file
    CHECK_FALSE_MESSAGE(has(info.kind, "function"), info.name);
}
