// libFuzzer target: the model YAML reader with shape inference (io::parse_model_yaml), then a
// roofline prediction on a fixed spec: every tensor of a returned graph has positive dims, and
// the prediction's totals are finite (or predict throws InputError, e.g. no unit for a dtype).
#include "fuzz_contract.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/predict.hpp"

namespace {
const char *kHw = R"(name: fuzz-gpu
kind: gpu
tdp: 300 W
units: 80
clock: 1.5 GHz
compute:
  - {unit: simt, dtype: fp32, peak: 15 TFLOP/s}
  - {unit: simt, dtype: fp16, peak: 30 TFLOP/s}
  - {unit: tensor, dtype: fp16, peak: 120 TFLOP/s, matrix_only: true}
memory:
  - {name: l2, bandwidth: 3 TB/s, capacity: 6 MiB}
  - {name: dram, bandwidth: 900 GB/s, capacity: 16 GiB}
)";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  static const HwSpec hw = io::parse_hw_yaml(kHw, "fuzz-gpu.yaml");
  const std::string text(reinterpret_cast<const char *>(data), size);
  fuzz::contract([&] {
    const Graph g = io::parse_model_yaml(text, fuzz::kFile, {});
    for (const auto &[name, t] : g.tensors)
      for (int64_t d : t.shape)
        fuzz::require(d > 0, "tensor dims positive");
    const Prediction p = predict(g, hw, PredictOptions{});
    fuzz::require(fuzz::finite_nonneg(p.totals.predicted_seconds) &&
                      fuzz::finite_nonneg(p.totals.energy_joules),
                  "predicted time and energy finite");
  });
  return 0;
}
