// Internal: event timing of a device call (warm-up, batching, samples) with optional NVML energy.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <optional>
#include <string>

#include "kernels/cuda/nvml_energy.hpp"
#include "perfmodel/kernels/cuda/gpu_bench.hpp"

namespace perfmodel::kernels::cuda::detail {

struct DeviceTiming {
  TimingStats time;                    // seconds per call
  int inner = 1;                       // calls per timed sample
  std::optional<double> energy_joules; // over all timed samples (iters x inner calls)
};

/// `enqueue` launches one call on the default stream (and throws on a launch error). Runs it
/// `warmup` times, times one more call to pick the batching, then `iters` event-timed samples.
DeviceTiming time_device(const std::function<void()> &enqueue, int warmup, int iters,
                         const NvmlEnergy *nvml);

/// A library call's kernels timed from a CUDA graph: `enqueue` launches one call on `stream`
/// (the library handle set to it). After `warmup` eager calls, `inner` calls are captured into
/// one graph and each of the `iters` samples is one replay of it, so the samples time the
/// kernels without the host's per-call cost (up to about 8 us for a cuBLAS call, about 50 us for
/// a cuDNN legacy-API convolution on an H200), as frameworks' CUDA graphs and profiler traces
/// see them. Where the call cannot be captured it is timed eagerly (time_device) and `*how`
/// says why. `*how`: "graph replay" or "eager (...)". `target_seconds`: how long one replay
/// should last (choose_inner); longer replays leave less idle time between the samples, which
/// matters to an energy reading over them.
DeviceTiming time_device_graph(const std::function<void(cudaStream_t)> &enqueue,
                               cudaStream_t stream, int warmup, int iters, const NvmlEnergy *nvml,
                               std::string *how, double target_seconds = 2e-4);

/// A stream of its own (blocking, as the legacy default stream expects), destroyed with it.
class Stream {
public:
  Stream();
  ~Stream();
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  cudaStream_t get() const { return s_; }

private:
  cudaStream_t s_ = nullptr;
};

/// Why `dev` cannot run a case of `dtype` ("tf32 needs compute capability >= 8.0"), or empty.
std::string dtype_unsupported(const DeviceInfo &dev, DType dtype);

/// cuBLAS and cuDNN cases (gpu_gemm_bench.cpp, gpu_conv_bench.cpp); fill
/// result.time/inner/energy/algorithm or result.skipped.
void run_gemm(const DeviceInfo &dev, int warmup, int iters, const NvmlEnergy *nvml,
              GpuBenchResult &result);
void run_conv(const DeviceInfo &dev, int warmup, int iters, const NvmlEnergy *nvml,
              GpuBenchResult &result);

/// Free device memory in bytes (cudaMemGetInfo).
double free_device_bytes();

} // namespace perfmodel::kernels::cuda::detail
