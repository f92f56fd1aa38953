// `roofline` of a language model as a library function: the prefill layers and one decode
// step's layers of a config.json model on one roofline (docs/plots.md, "Roofline of a language
// model").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/extrapolation.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/llm/graph.hpp"
#include "perfmodel/llm/quant.hpp"
#include "perfmodel/report/roofline_view.hpp"

namespace perfmodel::app {

struct LlmRooflineRequest {
  int64_t batch = 1;
  int64_t prompt = 0; // prefill of this many tokens per sequence (0: no prefill)
  int64_t kv = 0;     // one decode step at this KV length (0: no decode step)
  DType dtype = DType::fp16;
  std::optional<DType> kv_dtype;            // default: dtype
  std::optional<llm::WeightFormat> weights; // the block weights (default: dtype)
  llm::Attention attention = llm::Attention::flash;
  std::string calibration; // a path or name; "" = the roofline
  bool calibration_other_hardware = false;
};

struct LlmRooflineRun {
  report::RooflineData data; // prefill points first, then the decode step's
  std::vector<ExtrapolatedCall> extrapolated;
};

/// The roofline of `model` (a config.json path or a name in models/llm/) on `hw`: each pass
/// the request names is built and costed as `llm` and `predict --phase` do (llm::build_graph,
/// llm::pass_costs, the weight format), predicted with the calibration if one is named, and
/// drawn as points of its phase (report::make_phase_roofline). Throws InputError naming the
/// option for neither --prompt nor --kv, a batch below 1, a prompt or KV length below 1 or
/// running a position beyond the model's max_position_embeddings.
LlmRooflineRun llm_roofline(const std::string &model, const HwSpec &hw,
                            const LlmRooflineRequest &r);

/// Whether `spec` names a language model's config.json: a path ending in .json, or a bare
/// name found in models/llm/ (and not a graph model of models/).
bool is_llm_model(const std::string &spec);

} // namespace perfmodel::app
