// The CPU kernels' one way of using threads: a process-wide Eigen::ThreadPool and parallel_for.
//
// Why Eigen's ThreadPool and explicit partitioning (not OpenMP, not the Tensor contraction
// device): Eigen's dense GEMM only threads itself through OpenMP, which would add a second
// runtime whose spin/sleep policy we cannot see; splitting each GEMM into per-thread blocks that
// each call Eigen's single-threaded GEMM makes the decomposition explicit, identical in the
// executor and in the microbenchmarks that characterise it, and cheap to start (Eigen's
// non-blocking pool spins briefly before sleeping, so back-to-back layers pay little wake-up).
#pragma once

#include <cstdint>
#include <functional>

namespace perfmodel::kernels::cpu {

/// Threads used by the kernels (the pool's workers plus the calling thread).
int num_threads();
/// Sets the thread count for later calls (1..hardware threads; 0 = every hardware thread).
/// Not thread-safe: call it between runs, never while a kernel is running.
void set_num_threads(int n);

/// Splits [0, n) into at most num_threads() contiguous chunks of at least `grain` items and
/// runs fn(begin, end) on them, the first chunk on the calling thread; returns when all are done.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)> &fn);

/// RAII override of the thread count (tests, single-thread microbenchmarks).
class ThreadCountScope {
public:
  explicit ThreadCountScope(int n);
  ~ThreadCountScope();
  ThreadCountScope(const ThreadCountScope &) = delete;
  ThreadCountScope &operator=(const ThreadCountScope &) = delete;

private:
  int saved_;
};

} // namespace perfmodel::kernels::cpu
