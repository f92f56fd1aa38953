// The CUDA backend as the CLI sees it: libperfmodel_cuda.so, found and loaded with dlopen on
// the first call (kernels/cuda/plugin.hpp), its errors thrown as the project's own.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/kernels/cuda/plugin.hpp"

namespace perfmodel::cli {

/// Where the plugin is looked for, in order: $PERFMODEL_CUDA_PLUGIN alone when it is set (a
/// file, or a folder holding libperfmodel_cuda.so); else next to the executable, then
/// <executable's folder>/../<libdir>/perfmodel, then the configured install's <libdir>/perfmodel.
std::vector<std::string> cuda_plugin_candidates();

/// The loaded backend (loaded once per process, never unloaded). Throws RuntimeFailure, one
/// line, when no candidate exists, when dlopen fails (e.g. the CUDA runtime, cuBLAS or cuDNN
/// are not installed: dlerror's reason is quoted), or when the plugin lacks the entry point or
/// was built for another perfmodel.
cuda_plugin::Backend &cuda_backend();

/// The backend's calls; a failure is thrown as InputError (with its location) or
/// RuntimeFailure, as the CUDA code raised it.
kernels::cuda::DeviceInfo cuda_query_device(int index);
cuda_plugin::MicrobenchRun cuda_run_microbenchmarks(const kernels::cuda::GpuBenchOptions &opts);
kernels::cuda::GpuModelMeasurement cuda_measure_model(const kernels::gpu_plan::ModelPlan &plan,
                                                      const kernels::cuda::GpuMeasureOptions &opts);

} // namespace perfmodel::cli
