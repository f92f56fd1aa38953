// Eigen GEMM on row-major blocks, one block per thread of the pool.
#include "perfmodel/kernels/cpu/gemm.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <limits>

#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/targets/cpu_eigen/work_split.hpp"

namespace perfmodel::kernels::cpu {

namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T> using CMap = Eigen::Map<const RowMat<T>, 0, Eigen::OuterStride<>>;
template <typename T> using MMap = Eigen::Map<RowMat<T>, 0, Eigen::OuterStride<>>;

template <typename T> struct Operands {
  int64_t k;
  const T *a;
  int64_t lda;
  bool at;
  const T *b;
  int64_t ldb;
  bool bt;
  T *c;
  int64_t ldc;
  bool acc;
  const T *row_bias = nullptr; // GemmEpilogue (fp32 only)
  const T *col_bias = nullptr;
  T lo = -std::numeric_limits<T>::infinity(), hi = std::numeric_limits<T>::infinity();
};

template <typename T, typename L, typename R>
void assign(MMap<T> &C, const L &A, const R &B, bool acc) {
  if (acc)
    C.noalias() += A * B;
  else
    C.noalias() = A * B;
}

// The epilogue's clamp over one block of C, row by row (C is row-major).
template <typename T> void clamp(const Operands<T> &o, MMap<T> &C) {
  if (!clamps(o.lo, o.hi))
    return;
  for (int64_t i = 0; i < C.rows(); ++i)
    C.row(i) = C.row(i).cwiseMax(o.lo).cwiseMin(o.hi);
}

// One block of C: rows [r0, r1), columns [c0, c1).
template <typename T>
void block_once(const Operands<T> &o, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  const int64_t rows = r1 - r0, cols = c1 - c0, k = o.k;
  if (rows <= 0 || cols <= 0)
    return;
  MMap<T> C(o.c + r0 * o.ldc + c0, rows, cols, Eigen::OuterStride<>(o.ldc));
  bool acc = o.acc;
  if (o.row_bias || o.col_bias) { // the bias is C's initial value (added to it with acc)
    using RowVec = Eigen::Matrix<T, 1, Eigen::Dynamic>;
    for (int64_t i = 0; i < rows; ++i) { // row by row: C is row-major
      auto r = C.row(i);
      const T rb = o.row_bias ? o.row_bias[r0 + i] : T(0);
      if (acc)
        r.array() += rb;
      else
        r.setConstant(rb); // one pass, as Eigen's own zeroing of C would be
      if (o.col_bias)
        r += Eigen::Map<const RowVec>(o.col_bias + c0, cols);
    }
    acc = true;
  }
  if (k == 0) {
    if (!acc)
      C.setZero();
    clamp(o, C);
    return;
  }
  // A block: [rows x k] directly, or the transpose of a [k x rows] column slice.
  auto run_b = [&](const auto &A) {
    if (o.bt) {
      CMap<T> B(o.b + c0 * o.ldb, cols, k, Eigen::OuterStride<>(o.ldb));
      assign<T>(C, A, B.transpose(), acc);
    } else {
      CMap<T> B(o.b + c0, k, cols, Eigen::OuterStride<>(o.ldb));
      assign<T>(C, A, B, acc);
    }
  };
  if (o.at) {
    CMap<T> A(o.a + r0, k, rows, Eigen::OuterStride<>(o.lda));
    run_b(A.transpose());
  } else {
    CMap<T> A(o.a + r0 * o.lda, rows, k, Eigen::OuterStride<>(o.lda));
    run_b(A);
  }
  clamp(o, C);
}

// A block with an epilogue goes in column chunks of about 256 KB of C (at least 256 columns),
// each biased, computed and clamped while it is in this core's L2 (a whole block's clamp after
// Eigen is done re-reads C from the last-level cache); each chunk re-packs A, which costs about
// 1/chunk of the product.
template <typename T>
void block(const Operands<T> &o, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  const bool epilogue = o.row_bias || o.col_bias || clamps(o.lo, o.hi);
  const int64_t rows = std::max<int64_t>(r1 - r0, 1);
  const int64_t chunk = std::max<int64_t>(256, (int64_t(65536) / rows + 15) / 16 * 16);
  if (!epilogue || c1 - c0 <= chunk + chunk / 2)
    return block_once(o, r0, r1, c0, c1);
  for (int64_t c = c0; c < c1; c += chunk)
    block_once(o, r0, r1, c, std::min(c1, c + chunk));
}

template <typename T>
void gemm_impl(int64_t m, int64_t n, const Operands<T> &o, GemmSplit split = GemmSplit::rule) {
  if (m <= 0 || n <= 0)
    return;
  if (!work_split::gemm_runs_parallel(m, n, o.k, num_threads())) {
    block(o, 0, m, 0, n);
    return;
  }
  // Rows, or columns in blocks of 16 (one AVX-512 fp32 vector):
  // perfmodel/targets/cpu_eigen/work_split.hpp.
  const bool rows = split == GemmSplit::rule
                        ? work_split::gemm_splits_rows(m, n, o.k, num_threads())
                        : split == GemmSplit::rows;
  if (rows) {
    parallel_for(m, work_split::kGemmRowGrain,
                 [&](int64_t r0, int64_t r1) { block(o, r0, r1, 0, n); });
  } else {
    const int64_t vec = work_split::kGemmColumnBlock, nvec = (n + vec - 1) / vec;
    parallel_for(nvec, 1,
                 [&](int64_t v0, int64_t v1) { block(o, 0, m, v0 * vec, std::min(n, v1 * vec)); });
  }
}

} // namespace

void gemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, bool a_transposed,
          const float *b, int64_t ldb, bool b_transposed, float *c, int64_t ldc, bool accumulate) {
  gemm_impl<float>(m, n, {k, a, lda, a_transposed, b, ldb, b_transposed, c, ldc, accumulate});
}

void gemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, bool a_transposed,
          const float *b, int64_t ldb, bool b_transposed, float *c, int64_t ldc, bool accumulate,
          const GemmEpilogue &e, GemmSplit split) {
  gemm_impl<float>(
      m, n,
      {k, a, lda, a_transposed, b, ldb, b_transposed, c, ldc, accumulate, e.row, e.col, e.lo, e.hi},
      split);
}

void gemm(int64_t m, int64_t n, int64_t k, const double *a, int64_t lda, bool a_transposed,
          const double *b, int64_t ldb, bool b_transposed, double *c, int64_t ldc,
          bool accumulate) {
  gemm_impl<double>(m, n, {k, a, lda, a_transposed, b, ldb, b_transposed, c, ldc, accumulate});
}

} // namespace perfmodel::kernels::cpu
