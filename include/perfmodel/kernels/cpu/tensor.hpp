// A dense fp32 host tensor (NCHW for images) as the CPU executor and microbenchmarks hold it.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <vector>

#include "perfmodel/graph.hpp"
#include "perfmodel/kernels/cpu/host_allocator.hpp"

namespace perfmodel::kernels::cpu {

/// 64-byte aligned storage so AVX-512 loads never split cache lines; large buffers on huge
/// pages (host_allocator.hpp).
using Buffer = std::vector<float, HostAllocator<float>>;

/// A shape and a shared buffer: views (reshape, flatten) share the buffer of their input.
struct Tensor {
  Shape shape;
  std::shared_ptr<Buffer> data;

  int64_t size() const { return numel(shape); }
  float *ptr() { return data->data(); }
  const float *ptr() const { return data->data(); }
};

/// A tensor of `shape` filled with uniform values in [lo, hi) from a fixed-seed generator.
Tensor random_tensor(const Shape &shape, uint64_t seed, float lo = -1.0f, float hi = 1.0f);
/// A zero-filled tensor.
Tensor zero_tensor(const Shape &shape);

/// Row-major strides of a shape, in elements.
std::vector<int64_t> strides_of(const Shape &shape);

} // namespace perfmodel::kernels::cpu
