// One pass of a language model predicted for its totals, fast and exactly (docs/llm.md, "How
// it is computed"). The decoder blocks of one kind (a dense MLP, a MoE MLP) are the same layers
// on the same tensor shapes, so their costs and times are equal: the pass is built with one
// block of each kind and its totals summed over the whole model's layers, in the whole graph's
// order (the same additions in the same order as predict() on the whole graph: equal bit for
// bit). A decode pass moved from step to step re-costs only the layers whose cost follows the
// KV length (the attention's scores, softmax, values and cache reads), once per group of
// identical ones.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "perfmodel/hw_spec.hpp"
#include "perfmodel/llm/graph.hpp"
#include "perfmodel/llm/serve.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel::llm {

/// How many leading blocks hold one of each kind the model has: the smallest r such that every
/// block i has a block j < r of its kind (c.moe_layer(j) == c.moe_layer(i)). 1 for a dense or
/// an all-MoE model; k + 1 for DeepSeek's k dense first layers.
int64_t reduced_layers(const LlmConfig &c);

/// The whole model's layers, in the order of build_graph(c, ...), as indices into the layers of
/// `reduced` (build_graph of c with reduced_layers(c) blocks): the layers before block 0, each
/// block i as the reduced graph's first block of its kind, the layers after the last block.
/// Throws std::logic_error when the reduced graph's blocks are not contiguous runs of
/// "layers.N." layers of equal length per kind.
std::vector<uint32_t> whole_order(const Graph &reduced, const LlmConfig &c);

class PassEval {
public:
  /// Builds and predicts pass `s` of `c` on `hw` under `o` (its dtypes, weight format,
  /// attention and calibration). `whole`: on the whole model's graph (required with a
  /// calibration: its schedule follows the layers one after another); otherwise on one block of
  /// each kind. Throws InputError as build_graph and predict do.
  PassEval(const LlmConfig &c, const HwSpec &hw, const ServeOptions &o, const PassShape &s,
           bool whole);
  PassEval(const PassEval &) = delete; // (the decode context points into the graph)
  PassEval &operator=(const PassEval &) = delete;

  /// Moves a decode pass to KV length `context` (>= 1) and predicts it again: equal to a new
  /// PassEval at that context. std::logic_error for a prefill pass.
  void set_context(int64_t context);

  /// The whole model's totals and the time of the pass (totals plus a calibration's excess).
  const Totals &totals() const { return totals_; }
  double seconds() const { return seconds_; }
  /// Bytes of the whole model's parameters with the block weights in `f` (weight_bytes of the
  /// whole graph).
  int64_t weight_bytes(DType dtype, const WeightFormat &f) const;
  /// The whole graph and its prediction (whole passes only; the PassEval is spent).
  PassPrediction release();

private:
  void sum();

  LlmConfig config_; // what the graph is built of (reduced: fewer layers)
  const HwSpec *hw_;
  ServeOptions options_;
  PassShape shape_;
  PredictOptions predict_options_;
  std::shared_ptr<Graph> graph_;
  std::vector<uint32_t> order_; // empty: the graph is the whole model
  std::vector<LayerCost> costs_;
  Prediction prediction_;
  Totals totals_;
  double seconds_ = 0;
  std::optional<DecodeContext> context_;
  struct Group { // layers whose cost follows the KV length and are equal to each other
    size_t first;
    std::vector<size_t> layers;
  };
  std::vector<Group> groups_;
};

} // namespace perfmodel::llm
