// Device query through the CUDA runtime; no driver or no device is a RuntimeFailure, not a crash.
#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.hpp"
#include "perfmodel/kernels/cuda/gpu_bench.hpp"

namespace perfmodel::kernels::cuda {

namespace {

int attribute(cudaDeviceAttr a, int dev, const char *what) {
  int v = 0;
  detail::check_cuda(cudaDeviceGetAttribute(&v, a, dev), std::string("device attribute ") + what);
  return v;
}

int device_count() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();
    std::string hint;
    if (e == cudaErrorInsufficientDriver)
      hint = "; the NVIDIA driver is missing or older than this CUDA runtime";
    else if (e == cudaErrorNoDevice)
      hint = "; check CUDA_VISIBLE_DEVICES and that a GPU is installed";
    throw RuntimeFailure("CUDA: no usable device: " + detail::cuda_error_text(e) + hint);
  }
  if (n <= 0)
    throw RuntimeFailure("CUDA: no usable device: the runtime reports 0 devices");
  return n;
}

DeviceInfo info_of(int dev) {
  cudaDeviceProp p{};
  detail::check_cuda(cudaGetDeviceProperties(&p, dev),
                     "cudaGetDeviceProperties(" + std::to_string(dev) + ")");
  DeviceInfo d;
  d.index = dev;
  d.name = p.name;
  d.sm_count = p.multiProcessorCount;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.memory_bytes = double(p.totalGlobalMem);
  // Clock rates are attributes (kHz) since CUDA 13 dropped them from cudaDeviceProp.
  d.sm_clock_hz = 1e3 * attribute(cudaDevAttrClockRate, dev, "clock rate");
  d.memory_clock_hz = 1e3 * attribute(cudaDevAttrMemoryClockRate, dev, "memory clock rate");
  d.memory_bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, dev, "memory bus width");
  d.l2_bytes = attribute(cudaDevAttrL2CacheSize, dev, "L2 size");
  cudaDriverGetVersion(&d.driver_version);
  cudaRuntimeGetVersion(&d.runtime_version);
  return d;
}

} // namespace

std::vector<DeviceInfo> query_devices() {
  const int n = device_count();
  std::vector<DeviceInfo> out;
  for (int i = 0; i < n; ++i)
    out.push_back(info_of(i));
  return out;
}

DeviceInfo query_device(int index) {
  const int n = device_count();
  if (index < 0 || index >= n)
    throw RuntimeFailure("CUDA: device " + std::to_string(index) + " does not exist (" +
                         std::to_string(n) + " visible)");
  return info_of(index);
}

} // namespace perfmodel::kernels::cuda
