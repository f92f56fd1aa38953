// The roofline plot: gnuplot script and data for a RooflineData (log-log FLOP/B vs FLOP/s).
//
// Drawn: a ceiling per compute unit of the data types the layers run at (the others are not:
// they answer no question about this model), a diagonal per memory level with a bandwidth, the
// ridge points of those ceilings, one filled point per layer (area proportional to its time,
// colour by op type), measured points hollow at the same AI, and the top-N layers by time
// labelled. A roofline of phases (a language model's prefill and decode step) draws each
// phase's layers with a marker shape of its own (filled circle, square, ...), the shapes as key
// entries, and labels the top-N of each phase. The ceilings' names and the DRAM ridges are tics of
// the right and top axes, outside the plot, so no line or point covers them.
#pragma once

#include "perfmodel/report/plot/gnuplot.hpp"
#include "perfmodel/report/roofline_view.hpp"

namespace perfmodel::report::plot {

struct RooflinePlotOptions {
  size_t label_top = 8; // label the N layers (of each phase) with the largest predicted time
  int width_px = 1200;
  int height_px = 800;
};

PlotScript roofline_plot(const RooflineData &d, const PlotPaths &paths, ImageKind kind,
                         const RooflinePlotOptions &opts = {});

} // namespace perfmodel::report::plot
