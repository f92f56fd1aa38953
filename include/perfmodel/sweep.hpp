// Design-space sweeps: axis parsing and the cartesian product hw x dtype x batch x pass.
//
// Axes follow nvbench's model: each axis is a list of values, the sweep is their cartesian
// product, and a point that cannot be evaluated (no compute unit for the dtype, batch < 1,
// shapes that do not hold at that batch) is kept in the result as skipped with its reason.
// Not fitting in device memory is not a skip: the point is evaluated and marked fits = false.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfmodel/cost.hpp"
#include "perfmodel/extrapolation.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel {

/// Largest number of values one axis may expand to, and of points in one sweep: a typo such
/// as `1:1000000000:+1` is an error, not an hour of work.
inline constexpr int64_t kMaxAxisValues = 100000;
inline constexpr int64_t kMaxSweepPoints = 1000000;

/// Parses an integer axis: comma-separated items, each an integer or a range
///   `a:b:xF` (a, a*F, a*F^2, ... <= b), `a:b:+S` (a, a+S, ... <= b), `a:b` (step +1).
/// Values keep their order; duplicates are removed (the first occurrence stays).
/// Values below 1 are accepted here (the sweep skips them with a reason); ranges must have
/// a <= b, S >= 1, F >= 2 and a >= 1 for a factor. Throws InputError("<axis>: ...").
std::vector<int64_t> parse_int_axis(std::string_view text, std::string_view axis);

/// Parses a list axis `a,b,c` (items trimmed, none empty, duplicates removed).
std::vector<std::string> parse_list_axis(std::string_view text, std::string_view axis);

/// The sweep's axes. An empty `dtypes` means the model's own data type.
struct SweepSpec {
  std::vector<HwSpec> hardware;
  std::vector<DType> dtypes;
  std::vector<int64_t> batches;
  std::vector<Pass> passes = {Pass::fwd};
  const Calibration *calibration = nullptr; // applied to every point when set
  /// Applied to the graph of every point (fuse()); a point whose pass it does not apply to
  /// (inference fusion, the train pass) is skipped with the reason.
  Fusion fusion = Fusion::none;
};

/// One point of the sweep. Numbers are SI (seconds, bytes, FLOPs, joules).
struct SweepPoint {
  std::string hw;
  DType dtype = DType::fp32;
  int64_t batch = 1;
  Pass pass = Pass::fwd;
  std::optional<std::string> skipped; // the reason when the point was not evaluated

  double latency_seconds = 0;
  double throughput_samples_per_second = 0;
  int64_t flops = 0;
  int64_t bytes = 0;
  double flops_per_second = 0;
  double arithmetic_intensity = 0; // flops / bytes
  double share_compute_bound = 0;  // fraction of the latency spent in compute-bound layers
  double share_memory_bound = 0;
  double share_overhead_bound = 0;
  double energy_joules = 0; // component model, whole batch
  double energy_per_sample_joules = 0;
  double samples_per_joule = 0;   // batch / energy (0 when no energy was predicted)
  double average_power_watts = 0; // energy / latency: the component model's mean power
  double flops_per_second_per_watt = 0;
  int64_t weights_bytes = 0;
  int64_t activation_bytes = 0;     // activations live at the peak
  int64_t memory_bytes = 0;         // weights + activations at the peak
  double memory_capacity_bytes = 0; // the DRAM capacity; 0 = unknown (then it fits)
  bool fits_in_memory = true;
};

struct SweepResult {
  std::string model;
  std::vector<SweepPoint> points; // hw-major, then dtype, batch, pass (the axes' order)
  /// With a calibration: the calls of every point it prices far outside the sizes it was
  /// fitted on (extrapolation.hpp), batch by batch as the sweep evaluates them.
  std::vector<ExtrapolatedCall> extrapolated;
  int64_t evaluated() const;
  int64_t skipped() const;
};

/// A copy of a shape-inferred graph re-inferred at another batch. Throws InputError when the
/// graph's shapes do not hold at that batch (a reshape with a fixed batch, for instance).
Graph rebatch(const Graph &g, int64_t batch);

/// Evaluates every point of the cartesian product. Throws InputError only for an unusable
/// spec (no hardware, no batch); every per-point problem becomes a skip reason.
SweepResult run_sweep(const Graph &model, const SweepSpec &spec);

} // namespace perfmodel
