// The fitted, size-aware efficiency model of one device (a Calibration) and the layer time it
// gives.
//
// Per op class and data type, the parameters have a physical meaning (docs/calibration.md):
//   peak_flops_per_second   r_inf, the compute rate of a large call
//   m_half, n_half, k_half  Hockney half-performance sizes of the GEMM dimensions: the rate is
//                           r_inf * m/(m+m_half) * n/(n+n_half) * k/(k+k_half)
//   tile_m, tile_n          output tile of the GEMM kernel: tiles = ceil(m/tile_m)*ceil(n/tile_n)
//                           *groups run on `cores` in waves; the last wave's idle cores count.
//                           A partial tile costs a whole one (gemm_tiles: padded, a GPU's
//                           thread blocks) or, for the CPU executor's Eigen GEMM (gemm_tiles:
//                           panels), what Eigen's narrower panels cost (tiled_extent below)
//   bytes_per_second[l]     effective bandwidth of memory level l, chosen by the working set
//                           or, inside a network, by the inputs' reuse distance (below)
//   lowering_factor         traffic of a lowered (im2col) operand, in passes over its bytes
//   strided_lowering_bytes_per_second  rate at which im2col gathers a lowered matrix whose
//                           stride along the width is > 1: element by element instead of row
//                           copies, before the product (fitted for the CPU executor only;
//                           0: no such term)
//   cross_core_bytes_per_second  rate at which one thread reads data another core wrote and
//                           still holds in its cache (0: no such term)
//   overlap                 0: compute and memory overlap perfectly (max), 1: they add up
//   overhead_seconds        fixed cost of one call (dispatch, thread start, synchronisation)
//   epilogue_bytes_per_second  rate of the passes a fused epilogue (bias, clamp) makes over C
//                           where the CPU executor splits the product by columns (0: no term)
//   weight_bytes_per_second rate at which a CPU convolution reads its weights from DRAM the
//                           first time (not fitted: the data-movement class's DRAM bandwidth;
//                           0: no term)
//   (pool class) m_half     Hockney size of the input plane: a windowed pool takes its planes
//                           one at a time, each with a start-up cost
//
//   t = overhead + (max(t_c, t_m) + overlap * min(t_c, t_m)) / plane_factor + t_e + t_w + t_g
//   plane_factor = plane / (plane + m_half) for a windowed pool (plane: elements of one input
//   plane), else 1
//   t_c = quantized_flops / (r_inf * hockney),  t_m = (bytes + lowering * lowered) / bw[level]
//                                                       + cross / cross_core_bytes_per_second
//   level = the innermost level holding max(bytes + lowered, reuse_bytes): reuse_bytes is the
//   LRU stack distance of the call's inputs (the distinct bytes touched since they were last
//   touched; an LRU cache smaller than that no longer holds them). Isolated calls
//   (microbenchmarks, kernel rows) have 0: their inputs were just written.
//   cross = inside a network on a multi-core CPU, the most bytes any one thread reads that
//   another thread wrote, or writes over lines another thread holds (input_cross_core_bytes);
//   0 for isolated calls, and when the level is the last one (the data comes back from DRAM,
//   not from the other core).
//   t_e = epilogue_bytes / epilogue_bytes_per_second: epilogue_bytes = epilogue passes x the bytes
//   of C, for a conv, pointwise or gemm call of a CPU executor calibration that splits its
//   product over the threads by columns (work_split::gemm_splits_rows); 0 otherwise.
//   t_w = weight_bytes / weight_bytes_per_second: the first read of a conv or pointwise call's
//   weights, from DRAM (they were last touched a pass ago and the pass's other data pushed them
//   out: 0 for a layer of a graph whose weights and activations all fit in the outermost cache,
//   weights_stay_cached), in a calibration whose convolutions
//   run image by image (conv_per_image): once per layer, not per image (one_call divides the
//   bytes among the images), since the later images find the weights in cache. The GEMM packs
//   its weights block by block between its compute steps, so the read does not overlap the
//   product. 0 otherwise.
//   t_g = strided_lowered / strided_lowering_bytes_per_second: strided_lowered is the im2col
//   matrix of a forward conv2d whose stride along the width is > 1, else 0. Row copies
//   (memcpy) become an element-by-element gather; the executor lowers a slab before it
//   multiplies it, so the gather adds to the product instead of overlapping it. 0 when the
//   rate is 0.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfmodel/cost.hpp"
#include "perfmodel/dtype.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/host_state.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/roofline.hpp"

namespace perfmodel {

/// Families of kernels that share one set of efficiency parameters.
enum class OpClass {
  gemm,          // linear, matmul
  gemv,          // linear, matmul with one output row or column (matrix-vector: bandwidth-bound)
  conv,          // dense or grouped convolution lowered to a GEMM through an im2col matrix
  pointwise,     // 1x1, stride-1, unpadded convolution: a plain GEMM on the input (no lowering)
  depthwise,     // convolution with groups == input channels > 1, stride 1
  depthwise_strided, // depthwise with a stride > 1 (strided loads: another code path)
  elementwise,   // activations, elementwise arithmetic, dropout
  norm,          // batch norm, layer norm, softmax
  pool,          // windowed max / average pooling
  reduce,        // global pools and reductions: one streaming pass over each plane or axis
  data_movement, // concat, split, slice, gather, transpose, embedding, generic copies
};
std::string_view to_string(OpClass c);
std::optional<OpClass> parse_op_class(std::string_view s);
const std::vector<OpClass> &all_op_classes();
bool is_gemm_class(OpClass c); // gemm, gemv, conv, pointwise, depthwise*: tiles, sizes, lowering
/// The class whose parameters stand in when a calibration has none for `c` (depthwise_strided
/// -> depthwise, reduce -> pool); `c` itself when there is none.
OpClass fallback_class(OpClass c);

/// Which part of a layer a kernel call computes (conv bwd_filter = bwd_weight).
enum class KernelPass { fwd, bwd_data, bwd_weight };
std::string_view to_string(KernelPass p);
/// Accepts fwd, bwd_data, bwd_filter, bwd_weight.
std::optional<KernelPass> parse_kernel_pass(std::string_view s);

/// What the efficiency model sees of one kernel call: its counts, never the op itself.
struct KernelFeatures {
  OpClass op_class = OpClass::elementwise;
  DType dtype = DType::fp32;
  double flops = 0;
  double bytes = 0;              // compulsory traffic (boda rules)
  std::optional<GemmShape> gemm; // GEMM-like calls, already transposed for backward passes
  double lowered_bytes = 0;      // bytes of the im2col matrix (0 when no lowering is needed)
  double reuse_bytes = 0;        // the inputs' reuse distance in bytes (0: just written; see
                                 // input_reuse_bytes)
  double cross_core_bytes = 0;   // input bytes one thread reads that another wrote (see
                                 // input_cross_core_bytes; 0 isolated)
  double images = 1;             // a convolution's batch (forward pass): see one_call
  double plane_elements = 0;     // a windowed pool's input plane (h*w), 0 for other calls
  double epilogue_passes = 0;    // passes a fused GEMM epilogue makes over C besides the
                                 // product: 1 for a bias, 1 for a clamp (perfmodel/epilogue.hpp)
  double weight_bytes = 0;       // a forward conv or pointwise call's weights (t_w), else 0
  double strided_lowered_bytes = 0; // lowered_bytes of a conv2d gathered with a stride > 1
                                    // along the width (im2col copies element by element), else 0
};

/// The op class of a layer (depthwise needs the graph to know the input channels). Layers
/// whose product has one row or column are `gemv` in layer_features (it knows the shape).
OpClass op_class_of(const Graph &g, const Layer &layer);

/// Features of one pass part of a layer: fwd uses cost.fwd, bwd_data / bwd_weight the train
/// parts (their GEMM shapes are the transposed products dX = dY W^T and dW = X^T dY).
/// `reuse_bytes` (input_reuse_bytes) applies to the fwd pass only: the backward passes run in
/// another order, and are given 0.
/// `weights_cached`: the layer runs in a pass of a graph whose weights stay cached between
/// passes (weights_stay_cached): no cold-weight read (weight_bytes 0).
KernelFeatures layer_features(const Graph &g, const Layer &layer, const LayerCost &cost,
                              KernelPass pass, double reuse_bytes = 0,
                              double cross_core_bytes = 0, bool weights_cached = false);

/// Whether a forward pass of g finds its weights still cached from the pass before: its weights
/// and the activations live at its peak (memory_footprint) fit in `cache_bytes`, the outermost
/// cache (Calibration::cache_bytes), not counting the weights of linear layers. A linear layer
/// reads its weights once per pass in one stream and does not push the others out: with them
/// counted, VGG-16's 3x3 convolutions and the held-out ones of `calib_plain` (networks whose
/// linear layers hold most of their weights: VGG-16's 494 of 553 MB) came out 6-17% slow on the
/// Intel guest (docs/calibration.md, "The weights' first read"). ResNet-50 at batch 1 (112 MB,
/// 8 MB of it linear) stays in the 128 MiB the Intel guest's spec gives its L3, not in the Zen
/// guests' 32 MiB; VGG-16 (59 MB of convolution weights) stays in the first, not the second.
bool weights_stay_cached(const Graph &g, double cache_bytes);
/// Per layer (graph order), the LRU stack distance of its activation inputs in a forward pass:
/// for each input, the distinct bytes touched since the pass last touched it (by the layer that
/// wrote or last read it, and every layer after): each activation storage once (a view shares
/// its input's), each layer's weights, and the largest im2col workspace (one scratch buffer).
/// The largest over the inputs; 0 for an input the pass has not touched before (a graph input:
/// handed over just before). `costs` holds one forward cost per layer (graph_cost).
std::vector<double> input_reuse_bytes(const Graph &g, const std::vector<LayerCost> &costs);
/// Per layer (graph order), the bytes one of the CPU executor's `threads` threads moves from
/// another core in a forward pass: input bytes another thread wrote, plus output bytes it
/// writes into a reused buffer (perfmodel/buffer_plan.hpp) whose lines another thread last
/// wrote or read; the most over the threads, summed over the inputs and the output
/// (src/core/cross_core.cpp follows kernels/cpu's work split: a GEMM's rows or 16-column blocks
/// per image, a streaming op's elements or planes). A GEMM producer splits an image's plane
/// across the threads while a pool, batch norm or depthwise consumer splits planes, so about
/// half of what each thread reads was written by the other. 0 for inputs nobody in the pass
/// wrote, buffers last touched by ops whose split it does not follow, and threads < 2.
/// A write counts only while the buffer's old lines can still be in a cache: the pass has
/// touched at most `cache_bytes` since (their LRU stack distance, as input_reuse_bytes counts
/// it; Calibration::cache_bytes); lines pushed out since come from DRAM as any write's do.
/// `costs`: one forward cost per layer (graph_cost), as input_reuse_bytes takes them.
std::vector<double> input_cross_core_bytes(const Graph &g, const std::vector<LayerCost> &costs,
                                           int threads, double cache_bytes);

struct MemoryLevelCapacity {
  std::string name;
  double capacity_bytes = 0; // 0 = unbounded (the last level)
};

/// The capacity of the level before the last (the outermost cache: the last level is DRAM);
/// infinite with fewer than two levels (nothing to be pushed out of).
double outermost_cache_bytes(const std::vector<MemoryLevelCapacity> &levels);

/// Fitted parameters of one op class at one data type (see the file comment).
struct EfficiencyParams {
  double peak_flops_per_second = 0;
  double m_half = 0, n_half = 0, k_half = 0;
  double tile_m = 1, tile_n = 1;
  std::vector<double> bytes_per_second; // one per Calibration::memory_levels entry
  double lowering_factor = 0;
  double overlap = 0;
  double overhead_seconds = 0;
  double cross_core_bytes_per_second = 0; // 0: no cross-core term (calibrations before it)
  double epilogue_bytes_per_second = 0;   // 0: no epilogue term (calibrations before it)
  double weight_bytes_per_second = 0;     // 0: no cold-weight term (calibrations before it)
  double strided_lowering_bytes_per_second = 0; // 0: no strided-gather term (t_g)
};

/// How well a set of parameters reproduces the samples it was fitted on.
struct FitStats {
  int samples = 0;
  double rms_log_error = 0; // sqrt(mean(log(pred/meas)^2))
  double mape = 0;          // mean |pred - meas| / meas, a fraction
  double max_error = 0;     // max |pred - meas| / meas
};

struct ClassCalibration {
  OpClass op_class = OpClass::gemm;
  DType dtype = DType::fp32;
  EfficiencyParams params;
  FitStats stats;
};

struct DeviceFingerprint {
  std::string kind;     // "cpu" or "gpu"
  std::string name;     // CPU model name or GPU name
  int cores = 0;        // hardware threads used / SMs
  std::string isa_hash; // FNV-1a of the sorted ISA flags (CPU); "" for GPUs
  /// The CPU's vendor, family and model (/proc/cpuinfo): two CPUs of one vendor with the same
  /// model name and flags (a guest moved from one EPYC generation to another can keep both) are
  /// told apart by these. Absent: a GPU, or a calibration written before the field.
  std::optional<CpuId> cpu_id;
};

/// What a whole forward pass adds to the sum of its layers' times, in the statistic both are
/// taken in (p20 by default). Each layer's p20 skips the interruptions that land on it in only
/// some passes (timer ticks, the other tenants' vCPUs, a late thread-pool wake-up), but every
/// pass collects its share of them over all its layers: on the 2-core VM the p20 of a pass
/// exceeds the sum of the layers' p20s by 8-10% for MobileNet-V2 (152 layers, 7 ms) and 1-2%
/// for VGG-16 (40 layers, 150 ms). Fitted on the calibration networks' passes
/// (calibrate/pass_excess.hpp); `predict` adds it to the layer sum as the predicted pass time,
/// and `measure` compares that with the measured passes (docs/calibration.md, "Whole passes").
struct PassExcess {
  double per_layer_seconds = 0; // added once per layer that runs a kernel
  double fraction = 0;          // added in proportion to the layers' predicted time
  int networks = 0;             // calibration networks it was fitted on
  /// The excess of a pass of `layers` kernel layers whose times sum to `layer_sum_seconds`.
  double seconds(int layers, double layer_sum_seconds) const {
    return per_layer_seconds * layers + fraction * layer_sum_seconds;
  }
};

struct Calibration {
  int version = 1;
  DeviceFingerprint device;
  std::string date; // ISO 8601 UTC
  std::string perfmodel_version;
  std::string hardware; // name of the hw spec it refines
  std::string source;   // "microbenchmarks", "measurements:FILE", "trace:FILE"
  int cores = 1;        // cores the GEMM tiles are spread over
  std::vector<MemoryLevelCapacity> memory_levels; // innermost first
  std::vector<ClassCalibration> classes;
  FitStats stats; // over all samples
  /// The host probes taken around the microbenchmarks (their mean); absent for calibrations
  /// fitted from measurements or traces.
  std::optional<HostState> host_state;
  /// The pass excess fitted on the calibration networks; absent without them (--no-networks,
  /// measurement CSVs, traces, saved samples): a pass is then predicted as its layers' sum.
  std::optional<PassExcess> pass_excess;
  /// Whether a batch of convolutions runs image by image (YAML `conv_batch: per_image`): the
  /// CPU executor's im2col and 1x1 paths loop over the images, one GEMM each (kernels/cpu/
  /// conv.cpp), so a batch-N layer is N calls of its one-image shape. False (`batched`): one
  /// call over the whole batch (cuDNN). Calibrations of a CPU hw spec set it.
  bool conv_per_image = false;
  /// How a GEMM-like class's partial tile is paid (YAML `gemm_tiles`): false (`padded`, the
  /// default and files before the key) as a whole tile; true (`panels`, a CPU calibration:
  /// Eigen) as the narrower panels Eigen runs the rows left over with (tiled_extent).
  bool panel_tiles = false;

  const ClassCalibration *find(OpClass c, DType dtype) const;
  /// Whether any class has a cross-core rate (then a graph's input_cross_core_bytes matter).
  bool has_cross_core_term() const;
  /// The outermost cache's capacity (outermost_cache_bytes of memory_levels).
  double cache_bytes() const;
  /// find(c), else find(fallback_class(c)).
  const ClassCalibration *find_or_fallback(OpClass c, DType dtype) const;
};

/// Checks sizes and signs (Ceres' IsValid style): false and `error` filled on the first problem.
bool is_valid(const Calibration &cal, std::string *error);

/// Index of the memory level a working set of `bytes` lives in.
size_t memory_level_for(const Calibration &cal, double working_set_bytes);

/// The call the model times for `f`, and how many of them run one after another (`*calls`):
/// with cal.conv_per_image, a forward conv or pointwise call over images > 1 is that many
/// calls of one image (flops, bytes, lowered, cross-core and weight bytes and the GEMM's m
/// divided by the images; the reuse distance kept); otherwise `f` itself, once. Dividing the
/// weight bytes charges their cold read once over the calls (t_w).
KernelFeatures one_call(const Calibration &cal, const KernelFeatures &f, double *calls);

/// What one GEMM dimension of `extent` rows costs, in rows, when its kernel covers it with tiles
/// of `tile` rows. `panels` false: whole tiles, ceil(extent/tile)*tile (a partial tile costs a
/// whole one: a GPU's thread blocks). `panels` true, Eigen's GEMM on a CPU: whole panels of
/// `tile` rows, then at most one panel of tile/2 rows and one of tile/4, each costing a whole
/// panel (a narrower vector does the same instructions per step), then the rows left under
/// tile/4 one at a time, each costing kPanelRowShare of a panel. BM_GemmPlane (bench/) measured
/// this on the 2-core Zen 5 VM (AVX-512, 16-float panels): a 49-row plane runs 6% under a
/// 48-row one, a 60-row plane slower than a 64-row one (docs/calibration.md, "GEMM tiles").
/// At least `extent`; `extent` itself for tile <= 1.
double tiled_extent(double extent, double tile, bool panels);
inline constexpr double kPanelRowShare = 0.25;

/// The parts of the model that do not depend on the continuous parameters (tiles and level
/// are chosen before a Ceres solve, so the residual stays smooth in what it fits).
struct EfficiencyTerms {
  double quantized_flops = 0; // flops padded to whole tiles and whole waves of `cores`
  size_t level = 0;           // memory level of the working set (or of the reuse distance)
  double m = 0, n = 0, k = 0; // GEMM dimensions for the Hockney factors (0 = not GEMM-like)
  double cross_core_bytes = 0; // f.cross_core_bytes, or 0 at the last level (from DRAM)
  double plane = 0;            // a windowed pool's input plane for its Hockney factor (0: none)
  double epilogue_bytes = 0;   // t_e's bytes: the epilogue's passes over a column-split C
  double weight_bytes = 0;     // t_w's bytes: f.weight_bytes where the term applies, else 0
};
EfficiencyTerms efficiency_terms(const Calibration &cal, double tile_m, double tile_n,
                                 const KernelFeatures &f);

/// t_m of the file comment: the traffic at the level's bandwidth plus the bytes moved from
/// another core at the cross-core rate (none when that rate is 0). T = double or ceres::Jet.
template <class T>
T memory_seconds(const EfficiencyTerms &e, const KernelFeatures &f, const T &bandwidth,
                 const T &lowering, const T &cross_core_bandwidth) {
  T t = (T(f.bytes) + lowering * T(f.lowered_bytes)) / bandwidth;
  if (e.cross_core_bytes > 0 && cross_core_bandwidth > T(0.0))
    t += T(e.cross_core_bytes) / cross_core_bandwidth;
  return t;
}

/// hockney of the file comment: the product of the three dimensions' factors (1 when the call
/// is not GEMM-like).
template <class T>
T hockney_of(const EfficiencyTerms &e, const T &m_half, const T &n_half, const T &k_half) {
  if (!(e.m > 0))
    return T(1.0);
  return T(e.m) / (T(e.m) + m_half) * (T(e.n) / (T(e.n) + n_half)) * (T(e.k) / (T(e.k) + k_half));
}

/// t_e of the file comment: the epilogue's passes over a column-split C (0 when the rate is 0).
template <class T> T epilogue_seconds(const EfficiencyTerms &e, const T &epilogue_bandwidth) {
  if (!(e.epilogue_bytes > 0) || !(epilogue_bandwidth > T(0.0)))
    return T(0.0);
  return T(e.epilogue_bytes) / epilogue_bandwidth;
}

/// t_w of the file comment: the cold read of the weights (0 when the rate is 0).
template <class T> T weight_seconds(const EfficiencyTerms &e, const T &weight_bandwidth) {
  if (!(e.weight_bytes > 0) || !(weight_bandwidth > T(0.0)))
    return T(0.0);
  return T(e.weight_bytes) / weight_bandwidth;
}

/// t_g of the file comment: the strided im2col gather (0 when the rate is 0).
template <class T> T gather_seconds(const KernelFeatures &f, const T &gather_bandwidth) {
  if (!(f.strided_lowered_bytes > 0) || !(gather_bandwidth > T(0.0)))
    return T(0.0);
  return T(f.strided_lowered_bytes) / gather_bandwidth;
}

/// t_e + t_w + t_g of the file comment: the terms that add to the call's time instead of
/// overlapping its product.
template <class T>
T serial_seconds(const EfficiencyTerms &e, const KernelFeatures &f, const T &epilogue_bandwidth,
                 const T &weight_bandwidth, const T &gather_bandwidth) {
  return epilogue_seconds(e, epilogue_bandwidth) + weight_seconds(e, weight_bandwidth) +
         gather_seconds(f, gather_bandwidth);
}

/// plane_factor of the file comment: a windowed pool's plane / (plane + m_half), else 1.
template <class T> T plane_factor_of(const EfficiencyTerms &e, const T &m_half) {
  return e.plane > 0 ? T(e.plane) / (T(e.plane) + m_half) : T(1.0);
}

/// The formula of the file comment, templated on the scalar so that Ceres can differentiate it
/// (T = double or ceres::Jet). The one place the calibrated time is computed.
template <class T>
T efficiency_seconds(const EfficiencyTerms &e, const KernelFeatures &f, const T &peak,
                     const T &m_half, const T &n_half, const T &k_half, const T &bandwidth,
                     const T &lowering, const T &overlap, const T &overhead,
                     const T &cross_core_bandwidth, const T &epilogue_bandwidth,
                     const T &weight_bandwidth, const T &gather_bandwidth) {
  const T plane_factor = plane_factor_of(e, m_half);
  const T t_compute = T(e.quantized_flops) / (peak * hockney_of(e, m_half, n_half, k_half));
  const T t_memory = memory_seconds(e, f, bandwidth, lowering, cross_core_bandwidth);
  const bool compute_wins = t_compute > t_memory;
  const T hi = compute_wins ? t_compute : t_memory;
  const T lo = compute_wins ? t_memory : t_compute;
  return overhead + (hi + overlap * lo) / plane_factor +
         serial_seconds(e, f, epilogue_bandwidth, weight_bandwidth, gather_bandwidth);
}

/// efficiency_seconds with a class's fitted parameters, at the bandwidth of the terms' memory
/// level, with `overhead` for the per-call overhead (the prediction and the fit's statistics).
double efficiency_seconds(const EfficiencyTerms &e, const KernelFeatures &f,
                          const EfficiencyParams &p, double overhead);

/// Time of one kernel call under the calibrated model. The timing's unit is the hardware's
/// best unit for the dtype (peak replaced by the fitted one). Falls back to roofline_time when
/// the calibration has no parameters for the class and dtype.
LayerTiming calibrated_time(const Calibration &cal, const HwSpec &hw, const KernelFeatures &f);

/// Time of a layer for a whole pass (fwd: one call; train: fwd + bwd_data + bwd_weight).
/// `reuse_bytes`, `cross_core_bytes`: the layer's entries of input_reuse_bytes and
/// input_cross_core_bytes (0 for a layer run alone).
/// `weights_cached`: weights_stay_cached for the layer's graph (layer_features).
LayerTiming calibrated_layer_time(const Calibration &cal, const HwSpec &hw, const Graph &g,
                                  const Layer &layer, const LayerCost &cost, Pass pass,
                                  double reuse_bytes = 0, double cross_core_bytes = 0,
                                  bool weights_cached = false);

} // namespace perfmodel
