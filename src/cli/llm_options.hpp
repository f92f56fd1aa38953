// Options of language models shared by the commands that take one (llm, predict, sweep).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "cli/common.hpp"
#include "perfmodel/cost.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/llm/quant.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel::cli {

/// --weight-dtype and --group-size.
void add_weight_format_options(CLI::App *cmd, std::string &weight_dtype,
                               std::optional<int64_t> &group_size);

/// The weight format the two options name: nullopt when --weight-dtype is not given (the
/// weights in --dtype). Throws InputError naming the option for an unknown type, a group size
/// below 1, or a group size with a type that has no group scales.
std::optional<llm::WeightFormat> weight_format(const std::string &weight_dtype,
                                               std::optional<int64_t> group_size);

/// predict's one pass of a language model: --phase prefill --prompt P, or --phase decode --kv L.
struct LlmPhaseOptions {
  std::string phase; // "" = not a language model
  int64_t prompt = 0, kv = 0;
};
void add_llm_phase_options(CLI::App *cmd, LlmPhaseOptions &o);

/// A pass's graph with its costs under the language-model rules (llm::pass_costs).
struct LlmPhasePass {
  Graph graph;
  std::vector<LayerCost> costs;
};

/// The pass --phase names, of the config.json model `m.model` (a path or a name in
/// models/llm/), batch m.batch (1), in m.dtype (fp16), flash attention; nullopt without
/// --phase. Throws InputError naming the option for a missing or misplaced --prompt / --kv, a
/// length below 1 or beyond the model's positions, and a train pass or fusion (`po`).
std::optional<LlmPhasePass> llm_phase_pass(const LlmPhaseOptions &o, const ModelOptions &m,
                                           const PredictOptions &po);

} // namespace perfmodel::cli
