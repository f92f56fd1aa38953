// How the CPU Eigen executor splits a kernel's work over its threads: the one statement of the
// rule, used by kernels/cpu (parallel_for, the GEMM, the streaming kernels) and by the model of
// which thread wrote what (cpu_eigen::input_cross_core_bytes, src/targets/cpu_eigen/).
#pragma once

#include <algorithm>
#include <cstdint>

namespace perfmodel::work_split {

/// Elements per chunk, at least, of an elementwise kernel (below this, threads cost more).
inline constexpr int64_t kElementwiseGrain = int64_t(1) << 14;
/// A GEMM with fewer multiply-adds than this runs on one thread.
inline constexpr int64_t kGemmParallelMacs = int64_t(1) << 16;
/// A GEMM that splits its rows (gemm_splits_rows) gives each chunk at least this many...
inline constexpr int64_t kGemmRowGrain = 8;
/// ... else it splits its columns in blocks of this many (one AVX-512 fp32 vector).
inline constexpr int64_t kGemmColumnBlock = 16;
/// Columns of C up to which a GEMM with enough rows splits its rows anyway...
inline constexpr int64_t kGemmRowSplitMaxColumns = 1024;
/// ... when each thread gets at least this many rows.
inline constexpr int64_t kGemmRowSplitMinRows = 32;

/// Whether a parallel GEMM C[m x n] = A[m x k] B[k x n] (row-major) gives each thread a block of
/// rows (else a block of 16-column blocks). A column split shares one cache line per row of C
/// between neighbouring threads (a row of C seldom starts on a line boundary): every pass over
/// the block (the bias, the product, the clamp of a fused ReLU) moves it between cores,
/// about 0.1 us a row a pass on a 2-core host. A row split makes every thread read and pack
/// all of B instead of its columns: k x n, half of it written by the other core in a network.
/// So rows when C is taller than wide, or when it has at most 1024 columns, 32 rows a thread
/// and no more of B per row of C than a 1x1 convolution that does not narrow (k <= m).
/// Measured: docs/measure.md, "How a GEMM is split".
inline bool gemm_splits_rows(int64_t m, int64_t n, int64_t k, int threads) {
  return m >= n || (n <= kGemmRowSplitMaxColumns && m >= kGemmRowSplitMinRows * threads && k <= m);
}

/// Whether a GEMM of m x n x k runs on more than one of `threads` threads (smaller products run
/// on the calling thread alone: waking a worker would cost more than it saves).
inline bool gemm_runs_parallel(int64_t m, int64_t n, int64_t k, int threads) {
  return threads > 1 && m * n * k >= kGemmParallelMacs;
}

/// Planes per chunk, at least, of a batch norm over planes of `inner` elements (about
/// kElementwiseGrain elements per chunk).
inline int64_t batch_norm_grain(int64_t inner) {
  return std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(inner, 1));
}

/// parallel_for(n, grain) on `threads` threads runs this many chunks (1: on the caller alone).
inline int64_t chunks(int64_t n, int64_t grain, int threads) {
  grain = std::max<int64_t>(grain, 1);
  return std::max<int64_t>(1, std::min<int64_t>(threads, (n + grain - 1) / grain));
}

/// First index of chunk i of `count` chunks over [0, n): the first n % count chunks hold one
/// more index than the others.
inline int64_t chunk_begin(int64_t i, int64_t n, int64_t count) {
  const int64_t per = n / count, extra = n % count;
  return i * per + std::min(i, extra);
}

/// The chunk (= thread: chunk i runs on thread i) of parallel_for(n, grain) holding index x.
inline int chunk_of(int64_t x, int64_t n, int64_t grain, int threads) {
  const int64_t count = chunks(n, grain, threads);
  if (count <= 1)
    return 0;
  const int64_t per = n / count, extra = n % count, big = extra * (per + 1);
  return int(x < big ? x / (per + 1) : extra + (x - big) / per);
}

} // namespace perfmodel::work_split
