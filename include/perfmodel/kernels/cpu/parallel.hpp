// The CPU kernels' one way of using threads: a process-wide thread pool and parallel_for.
//
// Why our own pool and explicit partitioning (not OpenMP, not the Tensor contraction device):
// Eigen's dense GEMM only threads itself through OpenMP, which would add a second runtime whose
// spin/sleep policy we cannot see; splitting each GEMM into per-thread blocks that each call
// Eigen's single-threaded GEMM makes the decomposition explicit, identical in the executor and
// in the microbenchmarks that characterise it.
//
// Why spin: an idle worker polls for the next job for kSpinMicroseconds before it sleeps (as
// OpenMP runtimes do, KMP_BLOCKTIME / GOMP_SPINCOUNT). Waking a sleeping thread costs a futex
// and, in a VM, waking a halted vCPU: measured 20-80 us on a 2-vCPU host (1 us when spinning),
// which would be paid by every layer of a forward pass and make its timing depend on the
// hypervisor rather than on the kernel. Eigen's own pool sleeps after a few microseconds.
#pragma once

#include <cstdint>
#include <functional>

namespace perfmodel::kernels::cpu {

/// How long an idle worker polls for work before it sleeps.
inline constexpr int kSpinMicroseconds = 2000;

/// Threads used by the kernels (the pool's workers plus the calling thread).
int num_threads();
/// Sets the thread count for later calls (1..hardware threads; 0 = every hardware thread).
/// Not thread-safe: call it between runs, never while a kernel is running.
void set_num_threads(int n);

/// Splits [0, n) into at most num_threads() contiguous chunks of at least `grain` items and
/// runs fn(begin, end) on them, the first chunk on the calling thread and chunk i on the pool's
/// thread i (the same thread at every call); returns when all are done.
/// A parallel_for called from inside fn, or while another thread's parallel_for runs, runs
/// serially on its caller. An exception thrown by fn is rethrown on the caller.
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
