// The one matrix-product code path of the CPU kernels: Eigen GEMM split across the thread pool.
#pragma once

#include <cstdint>

namespace perfmodel::kernels::cpu {

/// Row-major operands: C[m x n] (leading dim ldc) = A * B, where A is [m x k] (lda) or, with
/// `a_transposed`, stored as [k x m] (lda) and used transposed (transposed convolution), and B
/// is [k x n] (ldb) or, with `b_transposed`, stored as [n x k] (ldb) (a linear layer's weight).
/// `accumulate` adds into C instead of overwriting it. The product is split by rows of C (or by
/// columns when n > m) into one block per thread, each block an Eigen single-threaded GEMM; small
/// products (below kGemmParallelMacs) run on the calling thread alone because waking a worker costs
/// more than it saves.
void gemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, bool a_transposed,
          const float *b, int64_t ldb, bool b_transposed, float *c, int64_t ldc,
          bool accumulate = false);

/// A bias fused into the product: C = A * B + row[i] + col[j] (either may be absent). Each
/// thread writes the bias as the initial value of its own block of C and accumulates the product
/// into it, as library GEMM epilogues do: no extra pass over C, and no pass by a different split
/// of threads. (Eigen zeroes C before a plain product anyway, so the bias costs nothing.)
struct GemmBias {
  const float *row = nullptr; // [m]: one value per row of C (a convolution's output channels)
  const float *col = nullptr; // [n]: one value per column of C (a linear layer's features)
};

/// C = A * B + bias (C += A * B + bias with `accumulate`); otherwise as gemm above.
void gemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, bool a_transposed,
          const float *b, int64_t ldb, bool b_transposed, float *c, int64_t ldc, bool accumulate,
          const GemmBias &bias);

/// Same in double precision (microbenchmarks of the fp64 path).
void gemm(int64_t m, int64_t n, int64_t k, const double *a, int64_t lda, bool a_transposed,
          const double *b, int64_t ldb, bool b_transposed, double *c, int64_t ldc,
          bool accumulate = false);

/// Multiply-accumulates below which a GEMM is not split across threads.
inline constexpr int64_t kGemmParallelMacs = 1 << 16;

} // namespace perfmodel::kernels::cpu
