// The `plan --pass infer` view: the ranked serving splits (the first `top` in a table; all in
// CSV and JSON, "perfmodel.plan/1" with "pass": "infer"), the dropped ones counted by reason;
// and the frontier plot (tokens/s per device against TPOT).
//
//   plan: llama-3-70b on 8 x h100, serving 32 sequences (2048 prompt + 256 generated tokens):
//   ...
//   rank  tp  pp  ep  dp  batch  micro  TTFT  TPOT  e2e  tokens/s/dev  memory  comm  frontier
#pragma once

#include <string>

#include "perfmodel/hw_spec.hpp"
#include "perfmodel/llm/plan_infer.hpp"
#include "perfmodel/report/format.hpp"
#include "perfmodel/report/plot/gnuplot.hpp"

namespace perfmodel::report {

std::string render_plan_infer(const llm::LlmConfig &c, const HwSpec &hw,
                              const llm::InferPlanOptions &o, const llm::InferPlanResult &r,
                              Format f, size_t top);

/// Every fitting split as a point (TPOT, tokens/s per device), the frontier as a line. Throws
/// InputError when no split fits (nothing to draw).
plot::PlotScript plan_infer_plot(const llm::LlmConfig &c, const llm::InferPlanResult &r,
                                 const plot::PlotPaths &paths, plot::ImageKind kind);

} // namespace perfmodel::report
