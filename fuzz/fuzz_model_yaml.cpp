// libFuzzer target: the model YAML reader with shape inference (io::parse_model_yaml), then a
// roofline prediction on the shipped V100 spec: every tensor of a returned graph has positive dims,
// and the prediction's totals are finite (or predict throws InputError, e.g. no unit for a dtype).
#include "fuzz_contract.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/predict.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  static const HwSpec hw = io::read_hw_yaml(PERFMODEL_SOURCE_DIR "/hw_specs/v100.yaml");
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
