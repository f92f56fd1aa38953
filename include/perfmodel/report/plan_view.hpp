// The `plan` view: the ranked splits (the first `top` in a table; all in CSV and JSON,
// "perfmodel.plan/1"), the dropped ones counted by reason; and the frontier plot (step time
// against memory per device).
#pragma once

#include <string>

#include "perfmodel/hw_spec.hpp"
#include "perfmodel/llm/plan.hpp"
#include "perfmodel/report/format.hpp"
#include "perfmodel/report/plot/gnuplot.hpp"

namespace perfmodel::report {

std::string render_plan(const llm::LlmConfig &c, const HwSpec &hw, const llm::PlanOptions &o,
                        const llm::PlanResult &r, Format f, size_t top);

/// Every fitting split as a point (memory per device, tokens/s per device), the frontier as a
/// line. Throws InputError when no split fits (nothing to draw).
plot::PlotScript plan_plot(const llm::LlmConfig &c, const llm::PlanResult &r,
                           const plot::PlotPaths &paths, plot::ImageKind kind);

} // namespace perfmodel::report
