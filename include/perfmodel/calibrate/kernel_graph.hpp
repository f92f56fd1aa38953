// One-layer graphs for single kernel runs (a measurement CSV row, a microbenchmark), so that
// their FLOPs and bytes come from the core's counting rules and never from a second copy.
#pragma once

#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/io/measurements_csv.hpp"

namespace perfmodel::calibrate {

/// A shape-inferred graph with one layer: matmul of [batch,] m x k by k x n, or a conv2d
/// without bias on a batch x c x h x w input. Throws InputError at the row's location.
Graph kernel_graph(const io::MeasurementRow &row);

/// The counts of the row's pass (conv bwd_data / bwd_weight: the core's train-pass parts).
struct KernelCounts {
  LayerCost cost;          // of the whole layer (train pass when the row is a backward one)
  KernelFeatures features; // of the row's pass only
};
KernelCounts kernel_counts(const io::MeasurementRow &row);

/// A fit sample for a timed row (row.seconds must be set); source = "file:line".
Sample kernel_sample(const io::MeasurementRow &row);

} // namespace perfmodel::calibrate
