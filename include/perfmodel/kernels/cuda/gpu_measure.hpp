// The GPU layer executor behind a plain C++ interface (no CUDA types): runs a GPU layer plan
// (kernels/gpu_plan/layer_plan.hpp) on one device, timing every layer and the whole pass from
// CUDA-graph replays, with the NVML energy of the timed passes (docs/cuda.md, "measure").
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/kernels/cuda/gpu_bench.hpp"
#include "perfmodel/kernels/gpu_plan/layer_plan.hpp"

namespace perfmodel::kernels::cuda {

struct GpuMeasureOptions {
  int device = 0;
  int warmup = 3; // eager runs of each layer (and of the pass) before its graph is captured
  int iters = 10; // timed graph replays per layer; the least number of timed passes
  /// The timed passes go on until they have taken this long in all, so that NVML's energy
  /// counter (updated every few to 100 ms) covers many of its updates.
  double min_pass_seconds = 1.0;
  std::string nvml_soname = "libnvidia-ml.so.1"; // "" = no energy reading
  /// Called before each layer is timed: (index, count, layer name). Must not throw.
  std::function<void(size_t, size_t, const std::string &)> progress;
};

struct GpuLayerResult {
  std::string name;
  std::string algorithm; // the calls as they ran: cuDNN algorithm, GEMM compute type, kernels
  std::string how;       // "graph replay", "eager (no graph: ...)", or "view" (nothing to run)
  TimingStats time;      // seconds per run of the layer's calls (all zero for a view)
  int inner = 0;         // layer runs per timed replay
};

struct GpuModelMeasurement {
  DeviceInfo device;
  std::vector<GpuLayerResult> layers; // the plan's layers, in order
  TimingStats pass;                   // seconds per whole pass (every layer's calls, in order)
  int pass_inner = 1;                 // passes per timed replay
  int passes_timed = 0;               // timed replays x pass_inner
  std::string pass_how;
  /// NVML total-energy counter over the timed passes (all of them), when the driver has it.
  std::optional<double> energy_joules;
  double energy_seconds = 0; // the timed passes' total time, by the events
  std::string nvml_status;   // "NVML available" or why not
  double allocated_bytes = 0, workspace_bytes = 0;
};

/// Allocates every tensor of `plan` on opts.device (random values; indices below their bound),
/// prepares each call (cuDNN picks the fastest forward algorithm by cudnnFind in the plan's
/// layout), then times each layer and the whole pass. Throws RuntimeFailure when there is no
/// usable device, the plan has unsupported layers, its tensors exceed the free memory, or a call
/// fails; InputError for a plan the executor cannot read.
GpuModelMeasurement measure_model_on_device(const gpu_plan::ModelPlan &plan,
                                            const GpuMeasureOptions &opts);

/// Runs every layer of `plan` once on `device` (as measure_model_on_device prepares them) and
/// returns the elements of tensor `name` as floats, in storage order: for checking our kernels
/// against a CPU reference. Throws InputError when the plan has no such tensor.
std::vector<float> tensor_after_pass(const gpu_plan::ModelPlan &plan, const std::string &name,
                                     int device = 0);

} // namespace perfmodel::kernels::cuda
