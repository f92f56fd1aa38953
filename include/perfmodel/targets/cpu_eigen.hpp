// The CPU Eigen executor as an execution target (kernels/cpu runs it; perfmodel/target.hpp says
// what a target supplies). Its formulas and the measurements behind them: docs/model.md, "CPU
// Eigen target".
//
// What it adds to the generic model:
//   schedule    the inputs' reuse distances, the bytes each layer's threads read or overwrite
//               that another core wrote (input_cross_core_bytes: the executor's work split,
//               cpu_eigen/work_split.hpp, and buffer plan, cpu_eigen/buffer_plan.hpp), and
//               whether the weights stay cached between passes (weights_stay_cached)
//   one_call    a batch of convolutions runs image by image (kernels/cpu/conv.cpp loops over
//               the images, one GEMM each): a batch-N forward conv or pointwise layer is N calls
//               of its one-image shape
//   tiles       Eigen's GEMM pays a partial tile as its narrower panels (panel_extent)
//   terms       cross_core_bytes_per_second (memory): bytes another core wrote
//               epilogue_bytes_per_second (serial): a fused epilogue's passes over a
//                 column-split C
//               weight_bytes_per_second (serial): the first read of a convolution's weights
//               strided_lowering_bytes_per_second (serial): an im2col gathered element by
//                 element (stride > 1 along the width)
#pragma once

#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/target.hpp"

namespace perfmodel::cpu_eigen {

/// The indices of the target's terms in ExecutionTarget::terms() and EfficiencyParams::
/// term_rates.
enum Term : size_t { kCrossCore = 0, kEpilogue = 1, kWeight = 2, kGather = 3 };

/// The target (`target: cpu_eigen` in a calibration file).
const ExecutionTarget &target();

/// The schedule of a forward pass of g on `threads` threads whose outermost cache holds
/// `cache_bytes`: reuse distances, cross-core bytes (when `cross_core`) and whether the weights
/// stay cached. The target's schedule() is this with the calibration's cores and cache, and
/// cross-core bytes when a class has a cross-core rate.
GraphSchedule schedule_for(const Graph &g, const std::vector<LayerCost> &costs, int threads,
                           double cache_bytes, bool cross_core);

/// Whether a forward pass of g finds its weights still cached from the pass before: its weights
/// and the activations live at its peak (memory_footprint) fit in `cache_bytes`, the outermost
/// cache, not counting the weights of linear layers. A linear layer reads its weights once per
/// pass in one stream and does not push the others out (docs/model.md, "The weights' first
/// read").
bool weights_stay_cached(const Graph &g, double cache_bytes);

/// Per layer (graph order), the bytes one of the executor's `threads` threads moves from
/// another core in a forward pass: input bytes another thread wrote, plus output bytes it
/// writes into a reused buffer (cpu_eigen/buffer_plan.hpp) whose lines another thread last
/// wrote or read; the most over the threads, summed over the inputs and the output. It follows
/// the executor's work split (cpu_eigen/work_split.hpp): a GEMM's rows or 16-column blocks per
/// image, a streaming op's elements or planes. 0 for inputs nobody in the pass wrote, buffers
/// last touched by ops whose split it does not follow, and threads < 2. A write counts only
/// while the buffer's old lines can still be in a cache: the pass has touched at most
/// `cache_bytes` since (their LRU stack distance, as input_reuse_bytes counts it); lines pushed
/// out since come from DRAM as any write's do. `costs`: one forward cost per layer.
std::vector<double> input_cross_core_bytes(const Graph &g, const std::vector<LayerCost> &costs,
                                           int threads, double cache_bytes);

/// What one GEMM dimension of `extent` rows costs, in rows, in Eigen's GEMM with panels of
/// `tile` rows: whole panels, then at most one panel of tile/2 rows and one of tile/4, each
/// costing a whole panel (a narrower vector does the same instructions per step), then the
/// rows left under tile/4 one at a time, each costing kPanelRowShare of a panel
/// (docs/model.md, "Panel tiles"). At least `extent`; `extent` itself for tile <= 1.
double panel_extent(double extent, double tile);
inline constexpr double kPanelRowShare = 0.25;

/// t_e's bytes: the epilogue's passes over C when the executor splits the call's product by
/// columns over `threads` threads (work_split::gemm_splits_rows); 0 otherwise.
double epilogue_bytes(const KernelFeatures &f, int threads);

} // namespace perfmodel::cpu_eigen
