// The plot of a language model's sweep: the throughput-latency curve (the batch's output tokens
// per second against the mean TPOT, one curve per hardware / dtype / split / prompt / generate,
// each point labelled with its batch) and the memory per device against the batch with each
// device's capacity; points that do not fit in memory are ringed (docs/llm.md, "Sweeps").
#pragma once

#include "perfmodel/llm/sweep.hpp"
#include "perfmodel/report/plot/gnuplot.hpp"

namespace perfmodel::report::plot {

struct LlmSweepPlotOptions {
  int width_px = 1400;
  int height_px = 620;
};

/// Throws InputError when no point was evaluated (nothing to draw). Points without a decode
/// step (generate 1) have no TPOT: the memory panel shows them, the throughput panel does not.
PlotScript llm_sweep_plot(const llm::LlmSweepResult &r, const PlotPaths &paths, ImageKind kind,
                          const LlmSweepPlotOptions &opts = {});

} // namespace perfmodel::report::plot
