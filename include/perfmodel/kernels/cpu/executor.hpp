// The CPU layer executor: runs every layer of a shape-inferred Graph with real (random) data
// through the kernels of this folder, and times each layer and the whole network.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/graph.hpp"
#include "perfmodel/host_state.hpp"
#include "perfmodel/kernels/cpu/buffer_pool.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"
#include "perfmodel/policy/measurement_policy.hpp"

namespace perfmodel::kernels::cpu {

/// Named tensors of a run: graph inputs, layer outputs.
using TensorStore = std::map<std::string, Tensor>;

/// One layer ready to run: the kernel call with every pointer, weight and workspace resolved.
struct PreparedLayer {
  std::string path;              // the code path: "im2col+gemm", "gemm", "depthwise", "view", ...
  std::function<void()> run;     // one execution; never allocates
  std::vector<Tensor> owned;     // weights and workspace the run refers to
  int64_t workspace_floats = 0;  // scratch the run needs (an im2col matrix), owned or shared
  bool activation_fused = false; // the layer's fused activation runs inside `run` (GEMM epilogue)
};

/// Builds the run of one layer. Throws InputError (with the layer's location) for an op or
/// attribute the executor cannot run. Outputs come from `pool` where given, else new buffers.
PreparedLayer prepare_layer(const Graph &g, const Layer &layer, TensorStore &store, uint64_t seed,
                            BufferPool *pool = nullptr);

class Executor {
public:
  /// Allocates every tensor (inputs and constants random in [-1, 1), integer ones in [0, 1000)),
  /// creates random weights and prepares every layer. fp32 whatever the graph's dtype. With
  /// BufferPlan::reuse, layer outputs share buffers (buffer_pool.hpp) and only graph inputs,
  /// outputs and constants keep their values after a pass.
  explicit Executor(const Graph &g, uint64_t seed = 1, BufferPlan plan = BufferPlan::distinct);

  size_t size() const { return layers_.size(); }
  const std::string &path(size_t i) const { return layers_.at(i).path; }
  void run_layer(size_t i) { layers_.at(i).run(); }
  void run_all();

  Tensor &tensor(const std::string &name);
  /// Bytes of the buffers that hold layer outputs (views and constants not counted).
  size_t activation_bytes() const { return activation_bytes_; }
  /// Bytes of the layers' workspaces: their sum (distinct), or the one shared scratch (reuse).
  size_t workspace_bytes() const { return workspace_bytes_; }

private:
  const Graph *graph_;
  TensorStore store_;
  size_t activation_bytes_ = 0, workspace_bytes_ = 0;
  std::vector<PreparedLayer> layers_;
};

/// How layers are timed. in_network: each layer is timed inside whole forward passes (its
/// inputs just produced by their producers, its weights wherever the previous pass left them),
/// so the per-layer times add up to the pass. isolated: each layer runs alone, repeatedly,
/// with its inputs and weights warm in cache (a microbenchmark of the layer).
enum class LayerTiming { in_network, isolated };

struct MeasureOptions {
  LayerTiming timing = LayerTiming::in_network;
  int warmup = 3;
  int iters = 10;
  /// In-network timing: timed passes go on past `iters` until they have taken this many seconds
  /// in all (at most kMaxPasses), so that one setting suits small and large models alike.
  double min_seconds = 0;
  int threads = 0; // 0 = every hardware thread
  uint64_t seed = 1;
  /// Memory of layer outputs (buffer_pool.hpp): reused as inference runtimes do, by default.
  BufferPlan buffers = BufferPlan::reuse;
  /// Run the host probe (host_probe.hpp, by `probe_policy`) before the timed runs (in-network:
  /// before the last warm-up pass, which warms the caches again) and just after the last one,
  /// so that a report can say whether the host was in its calibrated state.
  bool probe_host = false;
  policy::ProbePolicy probe_policy;
  /// In-network timing with 2+ threads: probe the core round trip
  /// (placement_policy.round_trip_calls calls) before every timed pass and after the last, and
  /// compute the statistics over the passes that ran in the faster placement of the threads
  /// (policy/placement.hpp select_faster_placement, by `placement_policy`).
  bool faster_placement = false;
  policy::PlacementPolicy placement_policy;
  /// In-network timing: probe the convolution (probe_conv) before the first timed pass, then
  /// before a pass once this many seconds have passed since the last probe, and after the last
  /// pass; the statistics keep the passes between quiet probes (policy/quiet_passes.hpp
  /// select_quiet_passes, by `quiet_policy`). 0: no probes. `measure` and `calibrate` set
  /// quiet_policy.probe_interval_seconds.
  double quiet_probe_interval_seconds = 0;
  policy::QuietPassPolicy quiet_policy;
  /// The outside reference of those probes: the calibration's convolution figure (0: the
  /// measurement's fastest probe alone).
  double quiet_reference_flops_per_second = 0;
  /// Called before each layer is timed: (index, count, layer name).
  std::function<void(size_t, size_t, const std::string &)> progress;
};

struct LayerMeasurement {
  std::string name;
  OpKind op = OpKind::generic;
  std::string path;
  TimingStats time; // cache_state "in-network" or "warm" (isolated)
};

struct GraphMeasurement {
  std::vector<LayerMeasurement> layers;             // graph order
  TimingStats network;                              // whole forward passes, layer after layer
  std::optional<HostState> host_before, host_after; // with MeasureOptions::probe_host
  /// With MeasureOptions::faster_placement: the round trips probed around the timed passes
  /// (one before each, one after the last) and the passes the statistics were computed over.
  struct Placement {
    std::vector<double> round_trip_seconds;
    policy::PassSelection selection;
    int passes_timed = 0;
  };
  std::optional<Placement> placement;
  /// With MeasureOptions::quiet_probe_interval_seconds: the convolution probes among the timed
  /// passes and the passes the statistics were computed over (of the placement's, if any).
  struct Quiet {
    std::vector<policy::PassProbe> probes;
    policy::QuietSelection selection;
    int passes_timed = 0;
    std::vector<double> pass_seconds;              // every timed pass, in order
    double interval_seconds = 0;                   // MeasureOptions::quiet_probe_interval_seconds
    double outside_reference_flops_per_second = 0; // ...::quiet_reference_flops_per_second
  };
  std::optional<Quiet> quiet;
  int threads = 1;
  std::string executed_dtype = "fp32";
  BufferPlan buffers = BufferPlan::reuse;
  size_t activation_bytes = 0; // the layer outputs' buffers (Executor::activation_bytes)
  size_t workspace_bytes = 0;  // the layers' workspaces (Executor::workspace_bytes)
};

/// One full forward pass (so every input holds real data), then
/// in_network: `warmup` untimed passes and `iters` timed passes, each layer timed within each
///   pass (the network time of a pass is the sum of its layers plus the clock reads);
/// isolated: per layer `warmup` untimed runs and `iters` timed runs, then `warmup` + `iters`
///   whole forward passes.
GraphMeasurement measure_graph(const Graph &g, const MeasureOptions &opts);

} // namespace perfmodel::kernels::cpu
