// The assumptions a prediction states: the peaks and overheads its layers were timed with.
#include <doctest/doctest.h>

#include "perfmodel/assumed_execution.hpp"
#include "test_graphs.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

namespace {

HwSpec gpu() {
  HwSpec hw;
  hw.name = "g";
  hw.kind = "gpu";
  hw.compute = {{"simt", DType::fp16, 3e13, false, 0},
                {"tensor", DType::fp16, 2e14, true, 0},
                {"simt", DType::fp32, 1e13, false, 0}};
  hw.memory = {{"dram", 1.5e12, 4e10, 0}};
  hw.launch_overhead_seconds = 4e-6;
  return hw;
}

Graph net(DType dtype) {
  return make_graph(
      {{"x", {4, 8, 16, 16}}},
      {make_layer("c1", "conv2d", {{"out_channels", int64_t{16}}, {"kernel", int64_t{3}}}),
       make_layer("r1", "relu", {}, {"c1"}), make_layer("f", "flatten", {}, {"r1"}),
       make_layer("fc", "linear", {{"out_features", int64_t{10}}}, {"f"})},
      dtype);
}

} // namespace

TEST_CASE("roofline: the units the layers ran on, the spec's bandwidth and overhead") {
  const Graph g = net(DType::fp16);
  const Prediction p = predict(g, gpu(), {});
  const AssumedExecution a = assumed_execution(g, gpu(), p, nullptr, "ignored");
  CHECK(a.calibration.empty()); // no calibration: the name is not stated
  CHECK(a.fusion == "none");
  CHECK(a.batch == 4);
  CHECK(a.dtype == DType::fp16);
  CHECK(a.pass == Pass::fwd);
  CHECK(a.dram_bytes_per_second == 1.5e12);
  CHECK(a.launch_overhead_seconds == 4e-6);
  CHECK(a.overhead_min_seconds == 4e-6);
  CHECK(a.overhead_max_seconds == 4e-6);
  // conv and linear on the tensor unit, relu on simt; the flatten runs no kernel.
  REQUIRE(a.peaks.size() == 2);
  CHECK(a.peaks[0].unit == "tensor");
  CHECK(a.peaks[0].flops_per_second == 2e14);
  CHECK(a.peaks[0].layers == 2);
  CHECK(a.peaks[0].op_class.empty());
  CHECK(a.peaks[1].unit == "simt");
  CHECK(a.peaks[1].flops_per_second == 3e13);
  CHECK(a.peaks[1].layers == 1);
}

TEST_CASE("calibrated: each class's fitted peak and overhead; uncovered classes the roofline's") {
  const Graph g = net(DType::fp32);
  Calibration cal;
  cal.hardware = "g";
  cal.memory_levels = {{"dram", 0}};
  ClassCalibration conv;
  conv.op_class = OpClass::conv;
  conv.params.peak_flops_per_second = 5e12;
  conv.params.overhead_seconds = 7e-6;
  conv.params.bytes_per_second = {1e12};
  cal.classes = {conv};
  PredictOptions o;
  o.calibration = &cal;
  const Prediction p = predict(g, gpu(), o);
  const AssumedExecution a = assumed_execution(g, gpu(), p, &cal, "my-cal");
  CHECK(a.calibration == "my-cal");
  REQUIRE(a.peaks.size() == 2);
  CHECK(a.peaks[0].op_class == "conv");
  CHECK(a.peaks[0].flops_per_second == 5e12);
  CHECK(a.peaks[0].overhead_seconds == 7e-6);
  CHECK(a.peaks[0].layers == 1);
  CHECK(a.peaks[1].op_class.empty()); // relu and linear: no parameters, the roofline's
  CHECK(a.peaks[1].flops_per_second == 1e13);
  CHECK(a.peaks[1].overhead_seconds == 4e-6);
  CHECK(a.peaks[1].layers == 2);
  CHECK(a.overhead_min_seconds == 4e-6);
  CHECK(a.overhead_max_seconds == 7e-6);
}
