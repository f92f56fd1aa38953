// Internal: CUDA runtime / cuBLAS / cuDNN status codes to perfmodel::RuntimeFailure, RAII buffers.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "perfmodel/error.hpp"

namespace perfmodel::kernels::cuda::detail {

inline std::string cuda_error_text(cudaError_t e) {
  return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
}

/// Throws RuntimeFailure("CUDA: <what>: <error string> (<name>)") unless `e` is cudaSuccess.
inline void check_cuda(cudaError_t e, const std::string &what) {
  if (e != cudaSuccess) {
    cudaGetLastError(); // clear a non-sticky error so that later calls start clean
    throw RuntimeFailure("CUDA: " + what + ": " + cuda_error_text(e));
  }
}
inline void check_launch(int e, const std::string &what) {
  check_cuda(static_cast<cudaError_t>(e), what);
}

/// Device memory owned for the scope of one benchmark.
class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t bytes) {
    if (bytes)
      check_cuda(cudaMalloc(&ptr_, bytes), "cudaMalloc of " + std::to_string(bytes) + " bytes");
  }
  ~DeviceBuffer() {
    if (ptr_)
      cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  template <class T = void> T *get() const { return static_cast<T *>(ptr_); }

private:
  void *ptr_ = nullptr;
};

/// A start/stop event pair; elapsed() waits for the stop event.
class EventPair {
public:
  EventPair() {
    check_cuda(cudaEventCreate(&start_), "cudaEventCreate");
    check_cuda(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~EventPair() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventPair(const EventPair &) = delete;
  EventPair &operator=(const EventPair &) = delete;
  void start(cudaStream_t stream = nullptr) {
    check_cuda(cudaEventRecord(start_, stream), "cudaEventRecord");
  }
  float stop_ms(cudaStream_t stream = nullptr) {
    check_cuda(cudaEventRecord(stop_, stream), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

} // namespace perfmodel::kernels::cuda::detail
