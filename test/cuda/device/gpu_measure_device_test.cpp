// The GPU layer executor on a real GPU (registered only with -DPERFMODEL_DEVICE_TESTS=ON): our
// kernels' results against what they compute, and a whole model timed from graph replays.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/kernels/cuda/gpu_measure.hpp"
#include "perfmodel/kernels/gpu_plan/plan_model.hpp"

using namespace perfmodel;
namespace kg = perfmodel::kernels::cuda;
namespace gp = perfmodel::kernels::gpu_plan;

namespace {

gp::ModelPlan plan_of(const std::string &yaml, DType dtype = DType::fp32, bool nhwc = false) {
  io::ModelLoadOptions lo;
  lo.dtype = dtype;
  return gp::plan_gpu_model(io::parse_model_yaml(yaml, "t.yaml", lo), {dtype, nhwc});
}

} // namespace

TEST_CASE("softmax rows sum to 1 and layer-norm rows have mean 0, fp32 and fp16") {
  const std::string yaml = R"(version: 1
name: rows
inputs: [{name: x, shape: [6, 300]}]
layers:
  - {name: sm, op: softmax, axis: -1}
  - {name: ln, op: layernorm, inputs: [x], elementwise_affine: 0}
)";
  for (DType d : {DType::fp32, DType::fp16}) {
    const gp::ModelPlan p = plan_of(yaml, d);
    const std::vector<float> sm = kg::tensor_after_pass(p, "sm");
    const std::vector<float> ln = kg::tensor_after_pass(p, "ln");
    REQUIRE(sm.size() == 1800);
    for (int r = 0; r < 6; ++r) {
      double s = 0, mean = 0, var = 0;
      for (int c = 0; c < 300; ++c) {
        s += sm[size_t(r * 300 + c)];
        mean += ln[size_t(r * 300 + c)] / 300.0;
      }
      for (int c = 0; c < 300; ++c)
        var += std::pow(ln[size_t(r * 300 + c)] - mean, 2) / 300.0;
      CHECK(s == doctest::Approx(1.0).epsilon(d == DType::fp16 ? 2e-2 : 1e-4));
      CHECK(std::fabs(mean) < 1e-2);
      CHECK(var == doctest::Approx(1.0).epsilon(2e-2));
    }
  }
}

TEST_CASE("relu and max pool in NCHW and NHWC give the same values") {
  const std::string yaml = R"(version: 1
name: pool
inputs: [{name: x, shape: [2, 3, 8, 8]}]
layers:
  - {name: r, op: relu}
  - {name: p, op: maxpool, kernel: 3, stride: 2, pad: 1}
  - {name: g, op: global_avgpool, inputs: [r]}
)";
  const gp::ModelPlan nchw = plan_of(yaml), nhwc = plan_of(yaml, DType::fp32, true);
  for (const char *t : {"p", "g"}) {
    const std::vector<float> a = kg::tensor_after_pass(nchw, t), b = kg::tensor_after_pass(nhwc, t);
    REQUIRE(a.size() == b.size());
    // The input is filled in storage order, so the two layouts hold different values: compare
    // what does not depend on the order (all non-negative after relu, the same sum for g).
    double sa = 0, sb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      CHECK(a[i] >= 0);
      CHECK(b[i] >= 0);
      sa += a[i], sb += b[i];
    }
    if (std::string(t) == "g")
      CHECK(sa == doctest::Approx(sb).epsilon(1e-4));
  }
}

TEST_CASE("resnet50 fp16 channels-last: every layer timed from a graph replay, energy read") {
  io::ModelLoadOptions lo;
  lo.batch = 8;
  lo.dtype = DType::fp16;
  const Graph g =
      io::read_model_yaml(std::string(PERFMODEL_SOURCE_DIR) + "/models/resnet50.yaml", lo);
  const gp::ModelPlan plan = gp::plan_gpu_model(g, {DType::fp16, true});
  kg::GpuMeasureOptions o;
  o.iters = 5;
  o.min_pass_seconds = 0.5;
  const kg::GpuModelMeasurement m = kg::measure_model_on_device(plan, o);
  REQUIRE(m.layers.size() == plan.layers.size());
  double sum = 0;
  for (size_t i = 0; i < m.layers.size(); ++i) {
    if (plan.layers[i].calls.empty()) {
      CHECK(m.layers[i].how == "view");
      continue;
    }
    CHECK(m.layers[i].how == "graph replay");
    CHECK(m.layers[i].time.median_seconds > 0);
    sum += m.layers[i].time.median_seconds;
  }
  CHECK(m.pass_how == "graph replay");
  CHECK(m.pass.median_seconds > 0.3 * sum);
  CHECK(m.pass.median_seconds < 3.0 * sum);
  CHECK(m.energy_seconds >= 0.4);
  MESSAGE("pass " << m.pass.median_seconds * 1e3 << " ms, layers " << sum * 1e3 << " ms, "
                  << m.nvml_status << ", energy " << (m.energy_joules ? *m.energy_joules : -1.0)
                  << " J");
  if (m.nvml_status == "NVML available")
    CHECK(m.energy_joules.has_value());
}
