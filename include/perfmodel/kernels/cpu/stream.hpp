// Bandwidth and peak-FLOP kernels of the microbenchmarks: read, copy, triad, independent FMAs.
#pragma once

#include <cstdint>

namespace perfmodel::kernels::cpu {

/// Sum of n floats with 8 independent vector accumulators (a pure read stream); returns the sum
/// so the compiler cannot drop it.
float stream_read(const float *a, int64_t n);
/// b = a (the executor's copy: std::memcpy).
void stream_copy(const float *a, float *b, int64_t n);
/// a = b + s * c (STREAM triad).
void stream_triad(float *a, const float *b, const float *c, float s, int64_t n);

/// `iters` rounds of `kFmaChains` independent vector FMA chains on one thread; returns a value
/// that depends on every chain. FLOPs done: fma_flops(iters, fp64).
float fma_chains_fp32(int64_t iters);
double fma_chains_fp64(int64_t iters);
/// 2 FLOPs per lane per FMA, times the vector width of the build's ISA, times the chains.
double fma_flops(int64_t iters, bool fp64);

/// Independent accumulators: enough to cover FMA latency (4 cycles) x 2 pipes with margin.
inline constexpr int kFmaChains = 12;

} // namespace perfmodel::kernels::cpu
