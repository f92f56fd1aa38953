// Launchers of our own CUDA kernels (bench_kernels.cu), plain C++ signatures; default stream.
#pragma once

#include <cstdint>

namespace perfmodel::kernels::cuda::detail {

// Each returns the cudaError_t of the launch as an int (0 = success).

/// Sums `n` floats (n a multiple of 4); writes to `sink` only if the sum equals a value it never
/// takes, so the loads cannot be optimized away.
int launch_read(const float *a, int64_t n, float *sink, int blocks, int threads);
/// b[i] = a[i].
int launch_copy(const float *a, float *b, int64_t n, int blocks, int threads);
/// a[i] = b[i] + s * c[i] (STREAM triad).
int launch_triad(float *a, const float *b, const float *c, float s, int64_t n, int blocks,
                 int threads);
/// kFmaChains independent FMA chains per thread, `iterations` trips.
int launch_fma_fp32(float *sink, int64_t iterations, int blocks, int threads);
/// The same with half2 (__hfma2): two fp16 lanes per instruction.
int launch_fma_half2(float *sink, int64_t iterations, int blocks, int threads);
/// An empty kernel, <<<1, 1>>>.
int launch_empty();
/// Fills with a deterministic pattern in [-1, 1).
int launch_fill(float *a, int64_t n, uint32_t seed);
/// fp32 <-> fp16 conversions (`half` passed as void*).
int launch_to_half(const float *in, void *out, int64_t n);
int launch_from_half(const void *in, float *out, int64_t n);

} // namespace perfmodel::kernels::cuda::detail
