// parallel_for over a process-wide Eigen::ThreadPool (see parallel.hpp for why this way).
#define EIGEN_USE_THREADS
#include "kernels/cpu/parallel.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <thread>
#include <unsupported/Eigen/CXX11/ThreadPool>

namespace perfmodel::kernels::cpu {

namespace {

int hardware_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

struct PoolState {
  int threads = hardware_threads();
  std::unique_ptr<Eigen::ThreadPool> pool; // threads - 1 workers; created on first use
  std::mutex mu;

  Eigen::ThreadPool *get() {
    std::lock_guard<std::mutex> lock(mu);
    if (threads > 1 && (!pool || pool->NumThreads() != threads - 1))
      pool = std::make_unique<Eigen::ThreadPool>(threads - 1);
    return threads > 1 ? pool.get() : nullptr;
  }
};

PoolState &state() {
  static PoolState s;
  return s;
}

} // namespace

int num_threads() { return state().threads; }

void set_num_threads(int n) {
  const int hw = hardware_threads();
  state().threads = n <= 0 ? hw : std::min(n, hw);
}

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)> &fn) {
  if (n <= 0)
    return;
  grain = std::max<int64_t>(grain, 1);
  const int64_t chunks = std::min<int64_t>(num_threads(), (n + grain - 1) / grain);
  if (chunks <= 1) {
    fn(0, n);
    return;
  }
  Eigen::ThreadPool *pool = state().get();
  const int64_t per = n / chunks, extra = n % chunks;
  auto bounds = [&](int64_t i) { return i * per + std::min(i, extra); };
  Eigen::Barrier barrier(static_cast<unsigned>(chunks - 1));
  for (int64_t i = 1; i < chunks; ++i) {
    pool->Schedule([&, i] {
      fn(bounds(i), bounds(i + 1));
      barrier.Notify();
    });
  }
  fn(bounds(0), bounds(1));
  barrier.Wait();
}

ThreadCountScope::ThreadCountScope(int n) : saved_(num_threads()) { set_num_threads(n); }
ThreadCountScope::~ThreadCountScope() { set_num_threads(saved_); }

} // namespace perfmodel::kernels::cpu
