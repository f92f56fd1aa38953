// The sweep plot: latency, throughput and energy per sample versus batch (log2 x axis), one
// line per hardware / dtype / pass; points that do not fit in device memory are ringed.
#pragma once

#include "perfmodel/report/plot/gnuplot.hpp"
#include "perfmodel/sweep.hpp"

namespace perfmodel::report::plot {

struct SweepPlotOptions {
  int width_px = 1500;
  int height_px = 520;
};

/// Throws InputError when no point was evaluated (nothing to draw).
PlotScript sweep_plot(const SweepResult &r, const PlotPaths &paths, ImageKind kind,
                      const SweepPlotOptions &opts = {});

} // namespace perfmodel::report::plot
