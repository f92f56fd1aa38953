// The op registry: every name resolves, aliases work, every entry documents a rule.
#include <doctest/doctest.h>

#include <set>

#include "perfmodel/ops.hpp"

using namespace perfmodel;

TEST_CASE("every registry entry has a unique name and a rule") {
  std::set<std::string_view> names;
  for (const auto& info : op_registry()) {
    CHECK_MESSAGE(names.insert(info.name).second, info.name);
    CHECK_MESSAGE(!info.rule.empty(), info.name);
    REQUIRE(find_op(info.name));
    if (info.kind == OpKind::activation) CHECK(activation_flops_per_element(info.function));
    if (info.kind == OpKind::elementwise) CHECK(elementwise_flops_per_element(info.function));
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
