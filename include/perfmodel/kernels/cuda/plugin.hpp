// The CUDA backend's plugin interface: what the perfmodel binary calls in libperfmodel_cuda.so,
// a shared library it loads with dlopen only when a command asks for a GPU, so that the binary
// links no CUDA library and starts where none is installed (docs/cuda.md, "Plugin").
//
// Contract:
// - The plugin exports one extern "C" function, named by kEntryPoint, that returns a Backend
//   living as long as the process (the binary never unloads the plugin).
// - The binary and the plugin are built from one source tree by one compiler: the standard
//   library types below cross the boundary as they are. build_key() names the ABI version, the
//   perfmodel version and the sizes of the types that cross; the binary refuses a plugin whose
//   key differs from its own before calling anything else.
// - No exception crosses the boundary: each call catches what the CUDA code throws and returns
//   it as a Status (InputError with its source location, RuntimeFailure, anything else as a
//   failure), which the binary throws again as the project's own error type. Callbacks the
//   binary passes in (GpuBenchOptions::progress) must not throw.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/error.hpp"
#include "perfmodel/kernels/cpu/microbench.hpp"
#include "perfmodel/kernels/cuda/gpu_bench.hpp"
#include "perfmodel/kernels/cuda/gpu_measure.hpp"

namespace perfmodel::cuda_plugin {

/// Raised with every change to Backend or to the types it passes.
inline constexpr int kAbiVersion = 2;
/// The entry point's name: `Backend* perfmodel_cuda_plugin_v2()`.
inline constexpr const char *kEntryPoint = "perfmodel_cuda_plugin_v2";
/// The plugin's file name, searched next to the executable and in the install's lib/perfmodel.
inline constexpr const char *kFileName = "libperfmodel_cuda.so";
/// The environment variable that names the plugin (a file, or the folder that holds it).
inline constexpr const char *kPathVariable = "PERFMODEL_CUDA_PLUGIN";

/// The outcome of one plugin call.
struct Status {
  enum class Kind { ok, input_error, runtime_failure };
  Kind kind = Kind::ok;
  std::string message; // InputError::message(), or what() of anything else
  SourceLoc loc;       // InputError::loc()
  bool ok() const { return kind == Kind::ok; }
};

/// One GPU microbenchmark run: the device it ran on, every case of the plan in order (skipped
/// ones say why), and the measured ones as CPU results (kernels::cuda::as_bench_results), which
/// calibration turns into fit samples.
struct MicrobenchRun {
  kernels::cuda::DeviceInfo device;
  std::vector<kernels::cuda::GpuBenchResult> results;
  std::vector<kernels::cpu::BenchResult> measured;
};

/// The calls the binary makes (kernels/cuda/gpu_bench.hpp says what each does).
class Backend {
public:
  /// build_key() as the plugin was compiled; a static string.
  virtual const char *build_key() const noexcept = 0;
  /// kernels::cuda::query_device(index).
  virtual Status query_device(int index, kernels::cuda::DeviceInfo &out) noexcept = 0;
  /// The device query of opts.device, then run_gpu_microbenchmarks(opts).
  virtual Status run_microbenchmarks(const kernels::cuda::GpuBenchOptions &opts,
                                     MicrobenchRun &out) noexcept = 0;
  /// kernels::cuda::measure_model_on_device(plan, opts) (`measure --device cuda`).
  virtual Status measure_model(const kernels::gpu_plan::ModelPlan &plan,
                               const kernels::cuda::GpuMeasureOptions &opts,
                               kernels::cuda::GpuModelMeasurement &out) noexcept = 0;

protected:
  ~Backend() = default; // owned by the plugin
};

/// The key both sides compare: ABI version, perfmodel version, sizes of the types that cross.
inline std::string build_key() {
  return "abi " + std::to_string(kAbiVersion) + ", perfmodel " PERFMODEL_VERSION ", sizes " +
         std::to_string(sizeof(Status)) + "/" + std::to_string(sizeof(MicrobenchRun)) + "/" +
         std::to_string(sizeof(kernels::cuda::DeviceInfo)) + "/" +
         std::to_string(sizeof(kernels::cuda::GpuBenchOptions)) + "/" +
         std::to_string(sizeof(kernels::cuda::GpuBenchResult)) + "/" +
         std::to_string(sizeof(kernels::cpu::BenchResult)) + "/" +
         std::to_string(sizeof(kernels::gpu_plan::ModelPlan)) + "/" +
         std::to_string(sizeof(kernels::gpu_plan::PlanCall)) + "/" +
         std::to_string(sizeof(kernels::cuda::GpuMeasureOptions)) + "/" +
         std::to_string(sizeof(kernels::cuda::GpuModelMeasurement));
}

/// The entry point's type.
using EntryPoint = Backend *(*)();

} // namespace perfmodel::cuda_plugin
