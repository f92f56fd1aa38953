// Our own CUDA microbenchmark kernels: read/copy/triad bandwidth, FMA peak (fp32, half2), empty.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/cuda/bench_kernels.hpp"
#include "perfmodel/kernels/cuda/gpu_bench.hpp"

namespace perfmodel::kernels::cuda::detail {

namespace {

constexpr float kNever = -12345.678f; // a sum/accumulator value the inputs never produce

__global__ void read_kernel(const float4 *__restrict__ a, int64_t n4, float *sink) {
  float acc = 0.f;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4;
       i += int64_t(gridDim.x) * blockDim.x) {
    const float4 v = a[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == kNever)
    *sink = acc;
}

__global__ void copy_kernel(const float4 *__restrict__ a, float4 *__restrict__ b, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4;
       i += int64_t(gridDim.x) * blockDim.x)
    b[i] = a[i];
}

__global__ void triad_kernel(float4 *__restrict__ a, const float4 *__restrict__ b,
                             const float4 *__restrict__ c, float s, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4;
       i += int64_t(gridDim.x) * blockDim.x) {
    const float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

__global__ void fma_fp32_kernel(float *sink, int64_t iterations) {
  float acc[kFmaChains];
  const float x = 1.0f + 1e-7f * threadIdx.x, y = 1e-7f;
#pragma unroll
  for (int j = 0; j < kFmaChains; ++j)
    acc[j] = float(threadIdx.x + j);
  for (int64_t i = 0; i < iterations; ++i) {
#pragma unroll
    for (int j = 0; j < kFmaChains; ++j)
      acc[j] = fmaf(acc[j], x, y);
  }
  float sum = 0.f;
#pragma unroll
  for (int j = 0; j < kFmaChains; ++j)
    sum += acc[j];
  if (sum == kNever)
    *sink = sum;
}

__global__ void fma_half2_kernel(float *sink, int64_t iterations) {
  __half2 acc[kFmaChains];
  const __half2 x = __floats2half2_rn(0.999f, 0.998f), y = __floats2half2_rn(1e-3f, 2e-3f);
#pragma unroll
  for (int j = 0; j < kFmaChains; ++j)
    acc[j] = __floats2half2_rn(float(j), float(threadIdx.x & 7));
  for (int64_t i = 0; i < iterations; ++i) {
#pragma unroll
    for (int j = 0; j < kFmaChains; ++j)
      acc[j] = __hfma2(acc[j], x, y);
  }
  float sum = 0.f;
#pragma unroll
  for (int j = 0; j < kFmaChains; ++j)
    sum += __low2float(acc[j]) + __high2float(acc[j]);
  if (sum == kNever)
    *sink = sum;
}

__global__ void empty_kernel() {}

__global__ void fill_kernel(float *a, int64_t n, uint32_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    a[i] = float(h & 0xffff) / 32768.0f - 1.0f;
  }
}

__global__ void to_half_kernel(const float *in, __half *out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = __float2half_rn(in[i]);
}

__global__ void from_half_kernel(const __half *in, float *out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = __half2float(in[i]);
}

int blocks_for(int64_t n) { return int(n / 256 + 1 < 4096 ? n / 256 + 1 : 4096); }

int last_error() { return int(cudaGetLastError()); }

} // namespace

int launch_read(const float *a, int64_t n, float *sink, int blocks, int threads) {
  read_kernel<<<blocks, threads>>>(reinterpret_cast<const float4 *>(a), n / 4, sink);
  return last_error();
}

int launch_copy(const float *a, float *b, int64_t n, int blocks, int threads) {
  copy_kernel<<<blocks, threads>>>(reinterpret_cast<const float4 *>(a),
                                   reinterpret_cast<float4 *>(b), n / 4);
  return last_error();
}

int launch_triad(float *a, const float *b, const float *c, float s, int64_t n, int blocks,
                 int threads) {
  triad_kernel<<<blocks, threads>>>(reinterpret_cast<float4 *>(a),
                                    reinterpret_cast<const float4 *>(b),
                                    reinterpret_cast<const float4 *>(c), s, n / 4);
  return last_error();
}

int launch_fma_fp32(float *sink, int64_t iterations, int blocks, int threads) {
  fma_fp32_kernel<<<blocks, threads>>>(sink, iterations);
  return last_error();
}

int launch_fma_half2(float *sink, int64_t iterations, int blocks, int threads) {
  fma_half2_kernel<<<blocks, threads>>>(sink, iterations);
  return last_error();
}

int launch_empty() {
  empty_kernel<<<1, 1>>>();
  return last_error();
}

int launch_fill(float *a, int64_t n, uint32_t seed) {
  fill_kernel<<<blocks_for(n), 256>>>(a, n, seed);
  return last_error();
}

int launch_to_half(const float *in, void *out, int64_t n) {
  to_half_kernel<<<blocks_for(n), 256>>>(in, static_cast<__half *>(out), n);
  return last_error();
}

int launch_from_half(const void *in, float *out, int64_t n) {
  from_half_kernel<<<blocks_for(n), 256>>>(static_cast<const __half *>(in), out, n);
  return last_error();
}

} // namespace perfmodel::kernels::cuda::detail
