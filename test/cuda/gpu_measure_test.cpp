// The GPU layer executor without a device: its kernels' function table matches the plan's, and
// every entry point throws RuntimeFailure before running anything.
#include <doctest/doctest.h>

#include <cstdlib>
#include <iterator>
#include <string>

#include "kernels/cuda/layer_kernels.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/kernels/cuda/gpu_measure.hpp"
#include "perfmodel/kernels/gpu_plan/plan_model.hpp"

using namespace perfmodel;
namespace kg = perfmodel::kernels::cuda;
namespace gp = perfmodel::kernels::gpu_plan;

TEST_CASE("the pointwise kernel implements exactly the plan's functions, in its order") {
  const auto &plan = gp::pointwise_functions();
  REQUIRE(plan.size() == std::size(kg::detail::kPointwiseNames));
  for (size_t i = 0; i < plan.size(); ++i)
    CHECK(plan[i].first == kg::detail::kPointwiseNames[i]);
  CHECK(int(kg::detail::PointwiseOp::scale_shift) == int(plan.size()) - 1);
}

TEST_CASE("measuring a model without a device throws RuntimeFailure before any layer") {
  setenv("CUDA_VISIBLE_DEVICES", "", 1); // see device_query_test.cpp
  const Graph g = io::read_model_yaml(std::string(PERFMODEL_SOURCE_DIR) + "/models/nin.yaml", {});
  const gp::ModelPlan plan = gp::plan_gpu_model(g, {});
  kg::GpuMeasureOptions o;
  size_t started = 0;
  o.progress = [&](size_t, size_t, const std::string &) { ++started; };
  try {
    kg::measure_model_on_device(plan, o);
    FAIL("measured without a device");
  } catch (const RuntimeFailure &e) {
    CHECK(std::string(e.what()).rfind("CUDA: no usable device: ", 0) == 0);
  }
  CHECK(started == 0);
  CHECK_THROWS_AS(kg::tensor_after_pass(plan, g.layers.back().outputs[0]), RuntimeFailure);
}
