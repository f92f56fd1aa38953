// The GPU layer executor's own kernels (layer_kernels.hpp): float or half storage, float math.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/cuda/layer_kernels.hpp"

namespace perfmodel::kernels::cuda::detail {

namespace {

__device__ __forceinline__ float load(const float *p, int64_t i) { return p[i]; }
__device__ __forceinline__ float load(const __half *p, int64_t i) { return __half2float(p[i]); }
__device__ __forceinline__ void store(float *p, int64_t i, float v) { p[i] = v; }
__device__ __forceinline__ void store(__half *p, int64_t i, float v) { p[i] = __float2half_rn(v); }

__device__ __forceinline__ float apply(int op, float x, float y, float z, float alpha, float beta) {
  switch (static_cast<PointwiseOp>(op)) {
  case PointwiseOp::copy:
    return x;
  case PointwiseOp::relu:
    return fmaxf(x, 0.f);
  case PointwiseOp::relu6:
    return fminf(fmaxf(x, 0.f), 6.f);
  case PointwiseOp::sigmoid:
    return 1.f / (1.f + __expf(-x));
  case PointwiseOp::tanh_:
    return tanhf(x);
  case PointwiseOp::gelu:
    return 0.5f * x * (1.f + erff(x * 0.70710678f));
  case PointwiseOp::silu:
    return x / (1.f + __expf(-x));
  case PointwiseOp::hardswish:
    return x * fminf(fmaxf(x + 3.f, 0.f), 6.f) * (1.f / 6.f);
  case PointwiseOp::hardsigmoid:
    return fminf(fmaxf(x * (1.f / 6.f) + 0.5f, 0.f), 1.f);
  case PointwiseOp::leaky_relu:
    return x > 0.f ? x : alpha * x;
  case PointwiseOp::elu:
    return x > 0.f ? x : alpha * (__expf(x) - 1.f);
  case PointwiseOp::clip:
    return fminf(fmaxf(x, alpha), beta);
  case PointwiseOp::exp_:
    return __expf(x);
  case PointwiseOp::log_:
    return __logf(x);
  case PointwiseOp::sqrt_:
    return sqrtf(x);
  case PointwiseOp::neg:
    return -x;
  case PointwiseOp::abs_:
    return fabsf(x);
  case PointwiseOp::erf_:
    return erff(x);
  case PointwiseOp::softplus:
    return log1pf(__expf(x));
  case PointwiseOp::add:
    return x + y;
  case PointwiseOp::sub:
    return x - y;
  case PointwiseOp::mul:
    return x * y;
  case PointwiseOp::div:
    return x / y;
  case PointwiseOp::max_:
    return fmaxf(x, y);
  case PointwiseOp::min_:
    return fminf(x, y);
  case PointwiseOp::pow_:
    return __powf(x, y);
  case PointwiseOp::scale_shift:
    return x * y + z;
  }
  return x;
}

int64_t count(const PointwiseArgs &a) {
  int64_t n = 1;
  for (int d = 0; d < a.rank; ++d)
    n *= a.shape[d];
  return n;
}

int blocks_for(int64_t n, int threads = 256) {
  const int64_t b = (n + threads - 1) / threads;
  return int(b < 1 ? 1 : b > 65535 * 8 ? 65535 * 8 : b);
}

// One dimension (dense or broadcast operands): no index division.
template <class T> __global__ void pointwise_1d(PointwiseArgs a) {
  const T *in0 = static_cast<const T *>(a.in[0]), *in1 = static_cast<const T *>(a.in[1]),
          *in2 = static_cast<const T *>(a.in[2]);
  T *out = static_cast<T *>(a.out);
  const int64_t n = a.shape[0];
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const float x = load(in0, a.in_offset[0] + i * a.in_strides[0][0]);
    const float y = a.inputs > 1 ? load(in1, a.in_offset[1] + i * a.in_strides[1][0]) : 0.f;
    const float z = a.inputs > 2 ? load(in2, a.in_offset[2] + i * a.in_strides[2][0]) : 0.f;
    store(out, a.out_offset + i * a.out_strides[0], apply(a.op, x, y, z, a.alpha, a.beta));
  }
}

template <class T> __global__ void pointwise_nd(PointwiseArgs a, int64_t n) {
  const T *in0 = static_cast<const T *>(a.in[0]), *in1 = static_cast<const T *>(a.in[1]),
          *in2 = static_cast<const T *>(a.in[2]);
  T *out = static_cast<T *>(a.out);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t rem = i, o = a.out_offset, i0 = a.in_offset[0], i1 = a.in_offset[1],
            i2 = a.in_offset[2];
    for (int d = a.rank - 1; d >= 0; --d) {
      const int64_t idx = rem % a.shape[d];
      rem /= a.shape[d];
      o += idx * a.out_strides[d];
      i0 += idx * a.in_strides[0][d];
      i1 += idx * a.in_strides[1][d];
      i2 += idx * a.in_strides[2][d];
    }
    const float x = load(in0, i0);
    const float y = a.inputs > 1 ? load(in1, i1) : 0.f;
    const float z = a.inputs > 2 ? load(in2, i2) : 0.f;
    store(out, o, apply(a.op, x, y, z, a.alpha, a.beta));
  }
}

// The sum (or max) of `v` over the block; every thread gets it. blockDim.x is a multiple of 32.
template <bool Max> __device__ float block_reduce(float v, float *shared) {
  for (int o = 16; o > 0; o >>= 1) {
    const float other = __shfl_xor_sync(0xffffffffu, v, o);
    v = Max ? fmaxf(v, other) : v + other;
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  __syncthreads(); // `shared` may still be read from the previous reduction
  if (lane == 0)
    shared[warp] = v;
  __syncthreads();
  v = lane < warps ? shared[lane] : (Max ? -3.0e38f : 0.f);
  for (int o = 16; o > 0; o >>= 1) {
    const float other = __shfl_xor_sync(0xffffffffu, v, o);
    v = Max ? fmaxf(v, other) : v + other;
  }
  return v;
}

template <class T>
__global__ void layer_norm_kernel(const T *x, const T *gamma, const T *beta, T *y, int64_t cols,
                                  float eps) {
  __shared__ float shared[32];
  const int64_t row = blockIdx.x;
  const T *xr = x + row * cols;
  T *yr = y + row * cols;
  float s = 0.f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x)
    s += load(xr, j);
  const float mean = block_reduce<false>(s, shared) / float(cols);
  float v = 0.f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    const float d = load(xr, j) - mean;
    v += d * d;
  }
  const float rstd = rsqrtf(block_reduce<false>(v, shared) / float(cols) + eps);
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    float r = (load(xr, j) - mean) * rstd;
    if (gamma)
      r = r * load(gamma, j) + load(beta, j);
    store(yr, j, r);
  }
}

template <class T> __global__ void softmax_kernel(const T *x, T *y, int64_t cols) {
  __shared__ float shared[32];
  const int64_t row = blockIdx.x;
  const T *xr = x + row * cols;
  T *yr = y + row * cols;
  float m = -3.0e38f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x)
    m = fmaxf(m, load(xr, j));
  m = block_reduce<true>(m, shared);
  float s = 0.f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x)
    s += __expf(load(xr, j) - m);
  const float inv = 1.f / block_reduce<false>(s, shared);
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x)
    store(yr, j, __expf(load(xr, j) - m) * inv);
}

// Threads over outputs; the channel is the fastest index where it is the innermost in memory.
template <class T> __global__ void pool_kernel(PoolArgs a, const T *x, T *y, bool channel_inner) {
  const int64_t total = a.n * a.c * a.p * a.q;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t n, c, p, q, r = i;
    if (channel_inner) {
      c = r % a.c, r /= a.c, q = r % a.q, r /= a.q, p = r % a.p, n = r / a.p;
    } else {
      q = r % a.q, r /= a.q, p = r % a.p, r /= a.p, c = r % a.c, n = r / a.c;
    }
    const int64_t base = a.in_offset + n * a.in_strides[0] + c * a.in_strides[1];
    float acc = a.max ? -3.0e38f : 0.f;
    int64_t counted = 0;
    for (int64_t u = 0; u < a.kh; ++u) {
      const int64_t hh = p * a.sh - a.ph + u * a.dh;
      if (hh < 0 || hh >= a.h)
        continue;
      for (int64_t v = 0; v < a.kw; ++v) {
        const int64_t ww = q * a.sw - a.pw + v * a.dw;
        if (ww < 0 || ww >= a.w)
          continue;
        const float e = load(x, base + hh * a.in_strides[2] + ww * a.in_strides[3]);
        acc = a.max ? fmaxf(acc, e) : acc + e;
        ++counted;
      }
    }
    if (!a.max)
      acc /= float(a.count_include_pad ? a.kh * a.kw : (counted ? counted : 1));
    store(y,
          a.out_offset + n * a.out_strides[0] + c * a.out_strides[1] + p * a.out_strides[2] +
              q * a.out_strides[3],
          acc);
  }
}

// One warp per (n, c) plane: planes contiguous in memory (NCHW).
template <class T> __global__ void global_pool_warp(PoolArgs a, const T *x, T *y) {
  const int64_t plane = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (plane >= a.n * a.c)
    return;
  const int64_t n = plane / a.c, c = plane % a.c, hw = a.h * a.w;
  const int64_t base = a.in_offset + n * a.in_strides[0] + c * a.in_strides[1];
  float acc = a.max ? -3.0e38f : 0.f;
  for (int64_t j = lane; j < hw; j += 32) {
    const float e = load(x, base + (j / a.w) * a.in_strides[2] + (j % a.w) * a.in_strides[3]);
    acc = a.max ? fmaxf(acc, e) : acc + e;
  }
  for (int o = 16; o > 0; o >>= 1) {
    const float other = __shfl_xor_sync(0xffffffffu, acc, o);
    acc = a.max ? fmaxf(acc, other) : acc + other;
  }
  if (lane == 0)
    store(y, a.out_offset + n * a.out_strides[0] + c * a.out_strides[1],
          a.max ? acc : acc / float(hw));
}

// One thread per (n, c), channels the fastest: channels innermost in memory (NHWC).
template <class T> __global__ void global_pool_thread(PoolArgs a, const T *x, T *y) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= a.n * a.c)
    return;
  const int64_t n = i / a.c, c = i % a.c, hw = a.h * a.w;
  const int64_t base = a.in_offset + n * a.in_strides[0] + c * a.in_strides[1];
  float acc = a.max ? -3.0e38f : 0.f;
  for (int64_t j = 0; j < hw; ++j) {
    const float e = load(x, base + (j / a.w) * a.in_strides[2] + (j % a.w) * a.in_strides[3]);
    acc = a.max ? fmaxf(acc, e) : acc + e;
  }
  store(y, a.out_offset + n * a.out_strides[0] + c * a.out_strides[1],
        a.max ? acc : acc / float(hw));
}

template <class T>
__global__ void gather_rows_kernel(const T *table, const int64_t *index, T *out, int64_t rows,
                                   int64_t cols) {
  const int64_t total = rows * cols;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = table[index[i / cols] * cols + i % cols];
}

__device__ __forceinline__ uint32_t mix(uint64_t i, uint32_t seed) {
  uint32_t h = uint32_t(i) * 2654435761u ^ uint32_t(i >> 32) ^ seed;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return h;
}

template <class T> __global__ void fill_values(T *p, int64_t n, uint32_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    store(p, i, float(mix(uint64_t(i), seed) & 0xffff) / 32768.0f - 1.0f);
}

__global__ void fill_indices(int64_t *p, int64_t n, int64_t bound, uint32_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    p[i] = int64_t(mix(uint64_t(i), seed) % uint64_t(bound));
}

cudaStream_t as_stream(void *s) { return static_cast<cudaStream_t>(s); }
int last_error() { return int(cudaGetLastError()); }

int rows_threads(int64_t cols) {
  return cols >= 1024 ? 1024 : cols >= 256 ? 256 : cols >= 64 ? 64 : 32;
}

} // namespace

int launch_pointwise(const PointwiseArgs &a, bool half, void *stream) {
  const int64_t n = count(a);
  if (n == 0)
    return 0;
  const cudaStream_t s = as_stream(stream);
  if (a.rank == 1) {
    if (half)
      pointwise_1d<__half><<<blocks_for(n), 256, 0, s>>>(a);
    else
      pointwise_1d<float><<<blocks_for(n), 256, 0, s>>>(a);
  } else if (half) {
    pointwise_nd<__half><<<blocks_for(n), 256, 0, s>>>(a, n);
  } else {
    pointwise_nd<float><<<blocks_for(n), 256, 0, s>>>(a, n);
  }
  return last_error();
}

int launch_layer_norm(const void *x, const void *gamma, const void *beta, void *y, int64_t rows,
                      int64_t cols, float eps, bool half, void *stream) {
  if (rows == 0)
    return 0;
  const int t = rows_threads(cols);
  if (half)
    layer_norm_kernel<__half><<<unsigned(rows), t, 0, as_stream(stream)>>>(
        static_cast<const __half *>(x), static_cast<const __half *>(gamma),
        static_cast<const __half *>(beta), static_cast<__half *>(y), cols, eps);
  else
    layer_norm_kernel<float><<<unsigned(rows), t, 0, as_stream(stream)>>>(
        static_cast<const float *>(x), static_cast<const float *>(gamma),
        static_cast<const float *>(beta), static_cast<float *>(y), cols, eps);
  return last_error();
}

int launch_softmax(const void *x, void *y, int64_t rows, int64_t cols, bool half, void *stream) {
  if (rows == 0)
    return 0;
  const int t = rows_threads(cols);
  if (half)
    softmax_kernel<__half><<<unsigned(rows), t, 0, as_stream(stream)>>>(
        static_cast<const __half *>(x), static_cast<__half *>(y), cols);
  else
    softmax_kernel<float><<<unsigned(rows), t, 0, as_stream(stream)>>>(
        static_cast<const float *>(x), static_cast<float *>(y), cols);
  return last_error();
}

int launch_pool(const PoolArgs &a, const void *x, void *y, bool half, void *stream) {
  const int64_t n = a.n * a.c * a.p * a.q;
  if (n == 0)
    return 0;
  const bool channel_inner = a.in_strides[1] == 1;
  if (half)
    pool_kernel<__half><<<blocks_for(n), 256, 0, as_stream(stream)>>>(
        a, static_cast<const __half *>(x), static_cast<__half *>(y), channel_inner);
  else
    pool_kernel<float><<<blocks_for(n), 256, 0, as_stream(stream)>>>(
        a, static_cast<const float *>(x), static_cast<float *>(y), channel_inner);
  return last_error();
}

int launch_global_pool(const PoolArgs &a, const void *x, void *y, bool half, void *stream) {
  const int64_t planes = a.n * a.c;
  if (planes == 0)
    return 0;
  const cudaStream_t s = as_stream(stream);
  if (a.in_strides[1] == 1) { // NHWC: a thread per (n, c), neighbours read neighbours
    if (half)
      global_pool_thread<__half><<<blocks_for(planes), 256, 0, s>>>(
          a, static_cast<const __half *>(x), static_cast<__half *>(y));
    else
      global_pool_thread<float><<<blocks_for(planes), 256, 0, s>>>(a, static_cast<const float *>(x),
                                                                   static_cast<float *>(y));
  } else {
    const int blocks = int((planes * 32 + 255) / 256);
    if (half)
      global_pool_warp<__half>
          <<<blocks, 256, 0, s>>>(a, static_cast<const __half *>(x), static_cast<__half *>(y));
    else
      global_pool_warp<float>
          <<<blocks, 256, 0, s>>>(a, static_cast<const float *>(x), static_cast<float *>(y));
  }
  return last_error();
}

int launch_gather_rows(const void *table, const int64_t *index, void *out, int64_t rows,
                       int64_t cols, bool half, void *stream) {
  const int64_t n = rows * cols;
  if (n == 0)
    return 0;
  if (half)
    gather_rows_kernel<__half><<<blocks_for(n), 256, 0, as_stream(stream)>>>(
        static_cast<const __half *>(table), index, static_cast<__half *>(out), rows, cols);
  else
    gather_rows_kernel<float><<<blocks_for(n), 256, 0, as_stream(stream)>>>(
        static_cast<const float *>(table), index, static_cast<float *>(out), rows, cols);
  return last_error();
}

int launch_fill_values(void *p, int64_t n, uint32_t seed, bool half, void *stream) {
  if (n == 0)
    return 0;
  if (half)
    fill_values<__half>
        <<<blocks_for(n), 256, 0, as_stream(stream)>>>(static_cast<__half *>(p), n, seed);
  else
    fill_values<float>
        <<<blocks_for(n), 256, 0, as_stream(stream)>>>(static_cast<float *>(p), n, seed);
  return last_error();
}

int launch_fill_indices(int64_t *p, int64_t n, int64_t bound, uint32_t seed, void *stream) {
  if (n == 0)
    return 0;
  fill_indices<<<blocks_for(n), 256, 0, as_stream(stream)>>>(p, n, bound < 1 ? 1 : bound, seed);
  return last_error();
}

} // namespace perfmodel::kernels::cuda::detail
