// Internal: event timing of a device call (warm-up, batching, samples) with optional NVML energy.
#pragma once

#include <functional>
#include <optional>

#include "kernels/cuda/gpu_bench.hpp"
#include "kernels/cuda/nvml_energy.hpp"

namespace perfmodel::kernels::cuda::detail {

struct DeviceTiming {
  TimingStats time;                    // seconds per call
  int inner = 1;                       // calls per timed sample
  std::optional<double> energy_joules; // over all timed samples (iters x inner calls)
};

/// `enqueue` launches one call on the default stream (and throws on a launch error). Runs it
/// `warmup` times, times one more call to pick the batching, then `iters` event-timed samples.
DeviceTiming time_device(const std::function<void()>& enqueue, int warmup, int iters,
                         const NvmlEnergy* nvml);

/// cuBLAS and cuDNN cases (gpu_gemm_bench.cpp, gpu_conv_bench.cpp); fill
/// result.time/inner/energy/algorithm or result.skipped.
void run_gemm(const DeviceInfo& dev, int warmup, int iters, const NvmlEnergy* nvml,
              GpuBenchResult& result);
void run_conv(const DeviceInfo& dev, int warmup, int iters, const NvmlEnergy* nvml,
              GpuBenchResult& result);

/// Free device memory in bytes (cudaMemGetInfo).
double free_device_bytes();

} // namespace perfmodel::kernels::cuda::detail
