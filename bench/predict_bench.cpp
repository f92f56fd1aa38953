// Google Benchmark: predict() on a synthetic 1,000-layer model (conv/bn/relu blocks with
// residual adds), with and without shape inference, calibrated (the efficiency model and every
// layer's reuse distance), and YAML parsing of the same model.
#include <benchmark/benchmark.h>

#include <string>

#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/predict.hpp"

namespace {

// 250 blocks of conv -> batchnorm -> relu -> add = 1,000 layers.
std::string synthetic_yaml(int blocks) {
  std::string y =
      "version: 1\nname: synthetic\ninputs:\n  - {name: x, shape: [8, 64, 56, 56]}\nlayers:\n";
  std::string prev = "x";
  for (int b = 0; b < blocks; ++b) {
    const std::string i = std::to_string(b);
    y += "  - {name: conv" + i + ", op: conv2d, inputs: " + prev +
         ", out_channels: 64, kernel: 3, pad: 1, bias: false}\n";
    y += "  - {name: bn" + i + ", op: batchnorm}\n";
    y += "  - {name: relu" + i + ", op: relu}\n";
    y += "  - {name: add" + i + ", op: add, inputs: [relu" + i + ", " + prev + "]}\n";
    prev = "add" + i;
  }
  return y;
}

void BM_Predict1000Layers(benchmark::State &state) {
  const perfmodel::Graph g = perfmodel::io::parse_model_yaml(synthetic_yaml(250), "synthetic", {});
  const perfmodel::HwSpec hw = perfmodel::io::load_hw("v100");
  for (auto _ : state) {
    auto p = perfmodel::predict(g, hw, {});
    benchmark::DoNotOptimize(p.totals.predicted_seconds);
  }
  state.counters["layers"] = static_cast<double>(g.layers.size());
}
BENCHMARK(BM_Predict1000Layers)->Unit(benchmark::kMicrosecond);

void BM_PredictCalibrated1000Layers(benchmark::State &state) {
  const perfmodel::Graph g = perfmodel::io::parse_model_yaml(synthetic_yaml(250), "synthetic", {});
  const perfmodel::HwSpec hw = perfmodel::io::load_hw("zen5-2c");
  const perfmodel::Calibration cal = perfmodel::io::load_calibration("zen5-2c");
  perfmodel::PredictOptions o;
  o.calibration = &cal;
  for (auto _ : state) {
    auto p = perfmodel::predict(g, hw, o);
    benchmark::DoNotOptimize(p.totals.predicted_seconds);
  }
}
BENCHMARK(BM_PredictCalibrated1000Layers)->Unit(benchmark::kMicrosecond);

void BM_InferShapesAndPredict1000Layers(benchmark::State &state) {
  perfmodel::Graph g = perfmodel::io::parse_model_yaml(synthetic_yaml(250), "synthetic", {});
  const perfmodel::HwSpec hw = perfmodel::io::load_hw("v100");
  for (auto _ : state) {
    perfmodel::infer_shapes(g);
    auto p = perfmodel::predict(g, hw, {});
    benchmark::DoNotOptimize(p.totals.predicted_seconds);
  }
}
BENCHMARK(BM_InferShapesAndPredict1000Layers)->Unit(benchmark::kMicrosecond);

void BM_ParseYaml1000Layers(benchmark::State &state) {
  const std::string y = synthetic_yaml(250);
  for (auto _ : state) {
    auto g = perfmodel::io::parse_model_yaml(y, "synthetic", {});
    benchmark::DoNotOptimize(g.layers.size());
  }
}
BENCHMARK(BM_ParseYaml1000Layers)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
