// The one matrix-product code path of the CPU kernels: Eigen GEMM split across the thread pool.
#pragma once

#include <cstdint>
#include <limits>

namespace perfmodel::kernels::cpu {

/// Row-major operands: C[m x n] (leading dim ldc) = A * B, where A is [m x k] (lda) or, with
/// `a_transposed`, stored as [k x m] (lda) and used transposed (transposed convolution), and B
/// is [k x n] (ldb) or, with `b_transposed`, stored as [n x k] (ldb) (a linear layer's weight).
/// `accumulate` adds into C instead of overwriting it. The product is split by rows of C or by
/// 16-column blocks (work_split::gemm_splits_rows) into one block per thread, each block an
/// Eigen single-threaded GEMM; small products (below work_split::kGemmParallelMacs) run on the
/// calling thread alone because waking a worker costs more than it saves.
void gemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, bool a_transposed,
          const float *b, int64_t ldb, bool b_transposed, float *c, int64_t ldc,
          bool accumulate = false);

/// What a layer does to a product in the GEMM itself, as library GEMM epilogues (oneDNN
/// post-ops, cuBLASLt epilogues) do: C = clamp(A * B + row[i] + col[j], lo, hi). Each thread
/// writes the bias as the initial value of its own block of C (where Eigen would write zeros)
/// and clamps its block right after computing it, while it is in that core's cache: no extra
/// pass over C, and none by a different split of threads (a pass over channels after a GEMM
/// split by columns reads half its lines from the other core; docs/measure.md).
struct GemmEpilogue {
  const float *row = nullptr; // [m]: a bias per row of C (a convolution's output channels)
  const float *col = nullptr; // [n]: a bias per column of C (a linear layer's features)
  float lo = -std::numeric_limits<float>::infinity(); // ReLU: lo = 0; ReLU6: lo = 0, hi = 6
  float hi = std::numeric_limits<float>::infinity();
};

/// Whether a clamp [lo, hi] does anything (a fused ReLU / ReLU6; not the default (-inf, inf)).
template <typename T> bool clamps(T lo, T hi) {
  return lo > -std::numeric_limits<T>::infinity() || hi < std::numeric_limits<T>::infinity();
}

/// How a parallel product is split over the threads: by work_split::gemm_splits_rows (what the
/// executor and the model assume), or forced (bench_cpu_kernels compares the two; tests).
enum class GemmSplit { rule, rows, columns };

/// C = epilogue(A * B) (with `accumulate`, the bias and product are added to C before the
/// clamp); otherwise as gemm above.
void gemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, bool a_transposed,
          const float *b, int64_t ldb, bool b_transposed, float *c, int64_t ldc, bool accumulate,
          const GemmEpilogue &epilogue, GemmSplit split = GemmSplit::rule);

/// Same in double precision (microbenchmarks of the fp64 path).
void gemm(int64_t m, int64_t n, int64_t k, const double *a, int64_t lda, bool a_transposed,
          const double *b, int64_t ldb, bool b_transposed, double *c, int64_t ldc,
          bool accumulate = false);

} // namespace perfmodel::kernels::cpu
