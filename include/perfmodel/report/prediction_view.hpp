// The `predict` views: the assumed execution and memory (the header), the time per op type and
// per bound (the rollup), the per-layer table, the totals, boda's FWD TOTALS block and the time
// profile, each rendered as table, CSV, JSON ("perfmodel.prediction/1") or Markdown from one
// Prediction.
//
// Sample table output (perfmodel predict --hw v100 --model nin --batch 5):
//   perfmodel predict: nin on v100 (batch 5, fp32, fwd, roofline)
//   assumed: batch 5, fp32, fwd pass, roofline (no calibration), fusion none
//   peaks: simt fp32 15.7TF/s (16 layers); DRAM 900GB/s; launch overhead 5.00us per kernel
//   memory: 42.0MB (weights 30.4MB + activations 11.6MB, peak in cccp1) of 16.0GB DRAM: fits
//
//   TIME BY OP TYPE:
//   op       layers  time    time%  FLOPs   bytes   AI       energy  bound
//   conv2d   12      860us   95.7%  12.6GF  99.2MB  127F/B   176mJ   compute
//   maxpool  3       32.3us  3.6%   9.63MF  15.6MB  619mF/B  3.47mJ  memory
//   ...
//   LAYERS:
//   layer       op       output       FLOPs   bytes   AI       time    bound
//   conv1       conv2d   5*96*55*55   1.05GF  9.04MB  117F/B   72.1us  compute
//   ...
//   --- FWD TOTALS, conv/matrix (12 layers; rates over predicted time, component energy) ---
//   12.6GF 14.6TF/s
//   99.2MB 115GB/s AI=127F/B
#pragma once

#include <optional>
#include <string>

#include "perfmodel/assumed_execution.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/memory_footprint.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/report/format.hpp"

namespace perfmodel::report {

struct PredictionViewOptions {
  bool rollup = true;    // the time per op type and per bound
  bool per_layer = true; // the per-layer table
  bool profile = true;   // the time profile
  int top = 0;           // profile rows (0 = all)
  /// The table and Markdown show every layer column and the table whole layer names; else the
  /// layer table keeps layer, op, output, FLOPs, bytes, AI, time and bound, and the table cuts
  /// long layer names in the middle so that its lines fit kTextWidth.
  bool wide = false;
};

/// The terminal width the default table fits.
inline constexpr size_t kTextWidth = 120;

/// What the header states besides the prediction itself.
struct PredictionContext {
  AssumedExecution execution;
  std::optional<MemoryFit> memory; // the footprint of the predicted pass on the hardware
};

/// Renders a prediction of graph `g` (the graph the prediction's layers point into).
std::string render_prediction(const Graph &g, const Prediction &p, const PredictionContext &ctx,
                              Format f, const PredictionViewOptions &o);

/// "MxNxK" (with "xG" groups suffix when groups > 1) or "" for non-GEMM layers.
std::string gemm_str(const std::optional<GemmShape> &gemm);

} // namespace perfmodel::report
