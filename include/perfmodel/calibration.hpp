// The fitted, size-aware efficiency model of one device (a Calibration) and the layer time it
// gives: the generic formula, which knows no executor. What an executor adds (its schedule, its
// calls, its partial tiles, terms of its own) comes from the calibration's execution target
// (perfmodel/target.hpp; the CPU Eigen executor's: perfmodel/targets/cpu_eigen.hpp).
//
// Per op class and data type, the parameters have a physical meaning (docs/model.md):
//   peak_flops_per_second   r_inf, the compute rate of a large call
//   m_half, n_half, k_half  Hockney half-performance sizes of the GEMM dimensions: the rate is
//                           r_inf * m/(m+m_half) * n/(n+n_half) * k/(k+k_half)
//   tile_m, tile_n          output tile of the GEMM kernel: tiles = ceil(m/tile_m)*ceil(n/tile_n)
//                           *groups run on `cores` in waves; the last wave's idle cores count.
//                           What a partial tile costs is the target's (tiled_extent)
//   bytes_per_second[l]     effective bandwidth of memory level l, chosen by the working set
//                           or, inside a network, by the inputs' reuse distance (below)
//   lowering_factor         traffic of a lowered (im2col) operand, in passes over its bytes
//   overlap                 0: compute and memory overlap perfectly (max), 1: they add up
//   overhead_seconds        fixed cost of one call (dispatch, thread start, synchronisation)
//   term_rates[j]           the rate of the target's term j (bytes, or its count, per second;
//                           0: no term)
//   (pool class) m_half     Hockney size of the input plane: a windowed pool takes its planes
//                           one at a time, each with a start-up cost. Under a target that sets
//                           the plane itself (ExecutionTarget::plane_of: the GPU's streaming
//                           classes, CTAs per SM) the Hockney size of that plane
//
//   t = overhead + (max(t_c, t_m) + overlap * min(t_c, t_m)) / plane_factor + t_serial
//   plane_factor = plane / (plane + m_half) for a windowed pool (plane: elements of one input
//   plane) or the call's plane under its target (ExecutionTarget::plane_of), else 1
//   t_c = quantized_flops / (r_inf * hockney)
//   t_m = (bytes + lowering * lowered) / bw[level] + sum of the memory terms' bytes_j / rate_j
//   t_serial = sum of the serial terms' bytes_j / rate_j (a term with rate 0 is absent)
//   level = the innermost level holding max(bytes + lowered, reuse_bytes): reuse_bytes is the
//   LRU stack distance of the call's inputs (the distinct bytes touched since they were last
//   touched; an LRU cache smaller than that no longer holds them). Isolated calls
//   (microbenchmarks, kernel rows) have 0: their inputs were just written.
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
#include "perfmodel/target.hpp"

namespace perfmodel {

/// Families of kernels that share one set of efficiency parameters.
enum class OpClass {
  gemm,      // linear, matmul
  gemv,      // linear, matmul with one output row or column (matrix-vector: bandwidth-bound)
  conv,      // dense or grouped convolution lowered to a GEMM through an im2col matrix
  pointwise, // 1x1, stride-1, unpadded convolution: a plain GEMM on the input (no lowering)
  depthwise, // convolution with groups == input channels > 1, stride 1
  depthwise_strided, // depthwise with a stride > 1 (strided loads: another code path)
  elementwise,       // activations, elementwise arithmetic, dropout
  norm,              // batch norm, layer norm, softmax
  pool,              // windowed max / average pooling
  reduce,            // global pools and reductions: one streaming pass over each plane or axis
  data_movement,     // concat, split, slice, gather, transpose, embedding, generic copies
};
std::string_view to_string(OpClass c);
std::optional<OpClass> parse_op_class(std::string_view s);
const std::vector<OpClass> &all_op_classes();
bool is_gemm_class(OpClass c); // gemm, gemv, conv, pointwise, depthwise*: tiles, sizes, lowering
/// The class whose parameters stand in when a calibration has none for `c` (depthwise_strided
/// -> depthwise, reduce -> pool); `c` itself when there is none.
OpClass fallback_class(OpClass c);

/// Which part of a layer a kernel call computes (bwd_weight: the gradient of the weights).
enum class KernelPart { fwd, bwd_data, bwd_weight };
std::string_view to_string(KernelPart p);
/// Accepts fwd, bwd_data, bwd_weight and its alias bwd_filter (cuDNN's name), in any case.
std::optional<KernelPart> parse_kernel_part(std::string_view s);

/// A 2-D convolution's geometry (one pass's call sees the layer's forward geometry): what a
/// target needs beyond the GEMM shape to tell its kernels apart (a GPU's Winograd rule, the
/// tensor cores' channel alignment, strided backward-data; perfmodel/targets/gpu.hpp).
struct ConvGeometry {
  int64_t batch = 1, in_channels = 0, out_channels = 0;
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t groups = 1;
};

/// What the efficiency model sees of one kernel call: its counts, never the op itself.
struct KernelFeatures {
  OpClass op_class = OpClass::elementwise;
  DType dtype = DType::fp32;
  double flops = 0;
  double bytes = 0;                 // compulsory traffic (boda rules)
  std::optional<GemmShape> gemm;    // GEMM-like calls, already transposed for backward passes
  double lowered_bytes = 0;         // bytes of the im2col matrix (0 when no lowering is needed)
  double reuse_bytes = 0;           // the inputs' reuse distance in bytes (0: just written; see
                                    // input_reuse_bytes)
  double cross_core_bytes = 0;      // input bytes one thread reads that another wrote (the
                                    // target's schedule; 0 isolated)
  double images = 1;                // a convolution's batch (forward pass): see one_call
  double plane_elements = 0;        // a windowed pool's input plane (h*w), 0 for other calls
  double epilogue_sweeps = 0;       // passes a fused GEMM epilogue makes over C besides the
                                    // product: 1 for a bias, 1 for a clamp (perfmodel/epilogue.hpp)
  double weight_bytes = 0;          // a forward conv or pointwise call's weights read cold, else 0
  double strided_lowered_bytes = 0; // lowered_bytes of a conv2d gathered with a stride > 1
                                    // along the width (im2col copies element by element), else 0
  KernelPart pass = KernelPart::fwd; // which part of the layer the call computes
  std::optional<ConvGeometry> conv;  // a conv2d's geometry (layer_features), else none
  double parallel_units = 0;         // independent work items of a streaming call: the output
                                     // elements of an elementwise op or a windowed pool, the
                                     // independent reductions of a norm (batch norm: channels;
                                     // layer norm, softmax: rows) or a reduction (its outputs);
                                     // 0 for other calls or when unknown
  double channel_elements = 0;       // a batch norm's elements per channel (N*H*W: what one
                                     // statistic reduces), 0 for other calls or when unknown
  Layout layout = Layout::nchw;      // the activations' layout the caller runs in (Graph::layout;
                                     // the GPU target's conversions read it)
};

/// The op class of a layer (depthwise needs the graph to know the input channels). Layers
/// whose product has one row or column are `gemv` in layer_features (it knows the shape).
OpClass op_class_of(const Graph &g, const Layer &layer);

/// Features of one pass part of a layer: fwd uses cost.fwd, bwd_data / bwd_weight the train
/// parts (their GEMM shapes are the transposed products dX = dY W^T and dW = X^T dY).
/// `reuse_bytes` (input_reuse_bytes) applies to the fwd pass only: the backward passes run in
/// another order, and are given 0.
/// `weights_cached`: the layer runs in a pass whose weights stay cached from the pass before
/// (GraphSchedule::weights_cached): no cold-weight read (weight_bytes 0).
KernelFeatures layer_features(const Graph &g, const Layer &layer, const LayerCost &cost,
                              KernelPart pass, double reuse_bytes = 0, double cross_core_bytes = 0,
                              bool weights_cached = false);

/// Per layer (graph order), the LRU stack distance of its activation inputs in a forward pass:
/// for each input, the distinct bytes touched since the pass last touched it (by the layer that
/// wrote or last read it, and every layer after): each activation storage once (a view shares
/// its input's), each layer's weights, and the largest im2col workspace (one scratch buffer).
/// The largest over the inputs; 0 for an input the pass has not touched before (a graph input:
/// handed over just before). `costs` holds one forward cost per layer (graph_cost).
std::vector<double> input_reuse_bytes(const Graph &g, const std::vector<LayerCost> &costs);

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
  /// One rate per term of the calibration's target (ExecutionTarget::terms(), in its order);
  /// missing entries and 0 mean the term is absent.
  std::vector<double> term_rates;
  /// The rate of term j, 0 when absent.
  double term_rate(size_t j) const { return j < term_rates.size() ? term_rates[j] : 0.0; }
};

/// How well a set of parameters reproduces the samples it was fitted on.
struct FitStats {
  int samples = 0;
  double rms_log_error = 0; // sqrt(mean(log(pred/meas)^2))
  double mape = 0;          // mean |pred - meas| / meas, a fraction
  double max_error = 0;     // max |pred - meas| / meas
};

/// A fitted parameter that ended on a bound the fit gave it: the samples pull it past what the
/// hardware spec (or the fit's search range) allows, so its value is the bound's, not the data's
/// (docs/calibration.md, "Physical bounds").
struct ParameterAtBound {
  std::string parameter; // its YAML key; a level's bandwidth is "bytes_per_second[<level>]"
  bool upper = true;     // on the upper bound (else the lower)
  double value = 0;      // the value written
  std::string limit;     // what set the bound, in words
};

/// The sizes one class was fitted on, per call (the target's one_call): a prediction far
/// outside them extrapolates (perfmodel/extrapolation.hpp).
struct FittedRange {
  double flops_min = 0, flops_max = 0;
  double bytes_min = 0, bytes_max = 0;
};

struct ClassCalibration {
  OpClass op_class = OpClass::gemm;
  DType dtype = DType::fp32;
  EfficiencyParams params;
  FitStats stats;
  /// The parameters the fit left on a bound (empty: none, or a file from before the list).
  std::vector<ParameterAtBound> at_bound;
  /// The sizes the class was fitted on; absent in files from before the range was recorded.
  std::optional<FittedRange> fitted_range;
  /// The pass part the class was fitted on where its target fits the parts apart
  /// (ExecutionTarget::per_pass_classes: cuDNN runs other kernels for each); none: every part.
  std::optional<KernelPart> pass;
};

struct DeviceFingerprint {
  std::string kind;     // "cpu" or "gpu"
  std::string name;     // CPU model name or GPU name
  int cores = 0;        // hardware threads used / SMs
  std::string isa_hash; // FNV-1a of the sorted ISA flags (CPU); "" for GPUs
  /// The CPU's vendor, family and model (/proc/cpuinfo): two CPUs of one vendor with the same
  /// model name and flags (a virtual machine moved between CPU generations can keep both) are
  /// told apart by these. Absent: a GPU, or a calibration written before the field.
  std::optional<CpuId> cpu_id;
};

/// What a whole forward pass adds to the sum of its layers' times, in the statistic both are
/// taken in (p20 by default). Each layer's p20 skips the interruptions that land on it in only
/// some passes (timer ticks, other tenants, a late thread-pool wake-up), but every pass collects
/// its share of them over all its layers, so a pass of many short layers exceeds its layers'
/// sum by more than one of a few long ones (docs/model.md, "Whole passes"). Fitted on the
/// calibration networks' passes (calibrate/pass_excess.hpp); `predict` adds it to the layer sum
/// as the predicted pass time, and `measure` compares that with the measured passes.
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
  /// The executor the calibration was fitted for (YAML `target`): its schedule, calls, tiles
  /// and terms (perfmodel/target.hpp). Null: the generic target.
  const ExecutionTarget *target = nullptr;

  const ClassCalibration *find(OpClass c, DType dtype) const;
  /// The calibration's target, or the generic one when it names none.
  const ExecutionTarget &execution_target() const { return target ? *target : generic_target(); }
  /// Whether any class has a nonzero rate for the target's term `key`.
  bool has_term(std::string_view key) const;
  /// The rate of the target's term `key` in `p`, 0 when the target has no such term.
  double term_rate(const EfficiencyParams &p, std::string_view key) const;
  /// The outermost cache's capacity (outermost_cache_bytes of memory_levels).
  double cache_bytes() const;
  /// find(c), else find(fallback_class(c)).
  const ClassCalibration *find_or_fallback(OpClass c, DType dtype) const;
  /// The class of c x dtype for a call of pass part `pass`: the one fitted on that part, else
  /// one fitted on every part, else the forward one; then the same for fallback_class(c).
  const ClassCalibration *find_for_pass(OpClass c, DType dtype, KernelPart pass) const;
};

/// Checks sizes and signs (Ceres' IsValid style): false and `error` filled on the first problem.
bool is_valid(const Calibration &cal, std::string *error);

/// Index of the memory level a working set of `bytes` lives in.
size_t memory_level_for(const Calibration &cal, double working_set_bytes);

/// The call the model times for `f`, and how many of them run one after another (`*calls`):
/// the calibration's target's one_call.
KernelFeatures one_call(const Calibration &cal, const KernelFeatures &f, double *calls);

/// The parts of the model that do not depend on the continuous parameters (tiles and level
/// are chosen before a Ceres solve, so the residual stays smooth in what it fits).
struct EfficiencyTerms {
  double quantized_flops = 0;     // flops padded to whole tiles and whole waves of `cores`
  size_t level = 0;               // memory level of the working set (or of the reuse distance)
  double m = 0, n = 0, k = 0;     // GEMM dimensions for the Hockney factors (0 = not GEMM-like)
  double plane = 0; // the plane of the Hockney factor plane_factor_of (ExecutionTarget::plane_of;
                    // 0: none)
  std::vector<double> term_bytes; // per target term (ExecutionTarget::term_bytes)
  std::vector<TermJoin> term_joins; // per target term: where its time goes
  double splits = 1; // the K dimension split over this many tiles (a target's split-K; 1: none)
  /// Per target term: the rate the call takes where its class has none
  /// (ExecutionTarget::unfitted_term_rate; 0: the term is then absent).
  std::vector<double> term_unfitted_rates;
};
/// The terms of one call at the class's tiles (tile_m x tile_n over `cores`), unless the target
/// chooses its own tiles per call (ExecutionTarget::tile_call), which it may do by the rates of
/// `p` (the class's parameters; null: by the work alone).
EfficiencyTerms efficiency_terms(const Calibration &cal, double tile_m, double tile_n,
                                 const KernelFeatures &f, const EfficiencyParams *p = nullptr);

/// The generic parameters of the formula for one call, as T (double or ceres::Jet): the
/// bandwidth is the one of the terms' memory level.
template <class T> struct ModelRates {
  T peak, m_half, n_half, k_half, bandwidth, lowering, overlap, overhead;
};

/// The time of the target terms joined at `join`: sum of bytes_j / rate_j over the terms with
/// bytes and a positive rate. `rates` holds one entry per term.
template <class T> T term_seconds(const EfficiencyTerms &e, const T *rates, TermJoin join) {
  T t(0.0);
  for (size_t j = 0; j < e.term_bytes.size(); ++j)
    if (e.term_joins[j] == join && e.term_bytes[j] > 0 && rates[j] > T(0.0))
      t += T(e.term_bytes[j]) / rates[j];
  return t;
}

/// t_m of the file comment: the traffic at the level's bandwidth plus the memory terms.
template <class T>
T memory_seconds(const EfficiencyTerms &e, const KernelFeatures &f, const T &bandwidth,
                 const T &lowering, const T *rates) {
  return (T(f.bytes) + lowering * T(f.lowered_bytes)) / bandwidth +
         term_seconds(e, rates, TermJoin::memory);
}

/// hockney of the file comment: the product of the three dimensions' factors (1 when the call
/// is not GEMM-like).
template <class T>
T hockney_of(const EfficiencyTerms &e, const T &m_half, const T &n_half, const T &k_half) {
  if (!(e.m > 0))
    return T(1.0);
  return T(e.m) / (T(e.m) + m_half) * (T(e.n) / (T(e.n) + n_half)) * (T(e.k) / (T(e.k) + k_half));
}

/// plane_factor of the file comment: plane / (plane + m_half) where the terms have a plane, else 1.
template <class T> T plane_factor_of(const EfficiencyTerms &e, const T &m_half) {
  return e.plane > 0 ? T(e.plane) / (T(e.plane) + m_half) : T(1.0);
}

/// The formula of the file comment, templated on the scalar so that Ceres can differentiate it
/// (T = double or ceres::Jet). The one place the calibrated time is computed. `term_rates`:
/// one rate per target term (e.term_bytes.size() entries).
template <class T>
T efficiency_seconds(const EfficiencyTerms &e, const KernelFeatures &f, const ModelRates<T> &r,
                     const T *term_rates) {
  const T plane_factor = plane_factor_of(e, r.m_half);
  const T t_compute = T(e.quantized_flops) / (r.peak * hockney_of(e, r.m_half, r.n_half, r.k_half));
  const T t_memory = memory_seconds(e, f, r.bandwidth, r.lowering, term_rates);
  const bool compute_wins = t_compute > t_memory;
  const T hi = compute_wins ? t_compute : t_memory;
  const T lo = compute_wins ? t_memory : t_compute;
  return r.overhead + (hi + r.overlap * lo) / plane_factor +
         term_seconds(e, term_rates, TermJoin::serial);
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
/// `schedule`: the layer's entry of the target's GraphSchedule (none for a layer run alone);
/// `weights_cached`: GraphSchedule::weights_cached (layer_features).
LayerTiming calibrated_layer_time(const Calibration &cal, const HwSpec &hw, const Graph &g,
                                  const Layer &layer, const LayerCost &cost, Pass pass,
                                  const LayerSchedule &schedule = {}, bool weights_cached = false);

} // namespace perfmodel
