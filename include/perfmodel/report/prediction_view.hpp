// The `predict` views: per-layer table, totals, boda's FWD TOTALS block and the time profile,
// each rendered as table, CSV, JSON ("perfmodel.prediction/1") or Markdown from one Prediction.
//
// Sample table output (perfmodel predict --hw titanx-maxwell --model nin --batch 5):
//   layer  op      input        filter      output      FLOPs  bytes  AI      MxNxK         time
//   rate     bound conv1  conv2d  5*3*227*227  96*3*11*11  5*96*55*55  1.05GF 9.04MB 117F/B
//   15125x96x363  157us  6.70TF/s compute
//   ...
//   --- FWD TOTALS (12 conv/matrix layers) ---
//   12.6GF 6.70TF/s
//   99.2MB 53.0GB/s AI=127F/B
#pragma once

#include <string>

#include "perfmodel/graph.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/report/format.hpp"

namespace perfmodel::report {

struct PredictionViewOptions {
  bool per_layer = true; // the per-layer table
  bool profile = true;   // the time profile
  int top = 0;           // profile rows (0 = all)
};

/// Renders a prediction of graph `g` (the graph the prediction's layers point into).
std::string render_prediction(const Graph &g, const Prediction &p, Format f,
                              const PredictionViewOptions &o);

/// "MxNxK" (with "xG" groups suffix when groups > 1) or "" for non-GEMM layers.
std::string gemm_str(const std::optional<GemmShape> &gemm);

} // namespace perfmodel::report
