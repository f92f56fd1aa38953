// parallel_for over a process-wide spin-then-sleep thread pool (see parallel.hpp for why).
#include "perfmodel/kernels/cpu/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "perfmodel/targets/cpu_eigen/work_split.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace perfmodel::kernels::cpu {

namespace {

using Clock = std::chrono::steady_clock;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

int hardware_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

thread_local bool t_inside_job = false; // nested parallel_for calls run serially

// Workers 1..n-1 of a parallel_for; the caller is worker 0. An idle worker polls for the next
// job for kSpin before it sleeps on a condition variable.
class SpinPool {
public:
  explicit SpinPool(int workers) {
    for (int i = 0; i < workers; ++i)
      threads_.emplace_back([this, i] { loop(i + 1); });
  }
  ~SpinPool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto &t : threads_)
      t.join();
  }
  SpinPool(const SpinPool &) = delete;
  SpinPool &operator=(const SpinPool &) = delete;

  int size() const { return int(threads_.size()) + 1; }

  // job(i) for i in [0, chunks), chunks <= size(); i = 0 on the calling thread.
  void run(int64_t chunks, const std::function<void(int64_t)> &job) {
    job_ = &job;
    chunks_ = chunks;
    error_ = nullptr;
    pending_.store(chunks - 1);
    generation_.fetch_add(1); // publishes job_, chunks_ and pending_ (seq_cst)
    if (sleepers_.load() > 0) {
      std::lock_guard<std::mutex> lock(mu_);
      cv_.notify_all();
    }
    std::exception_ptr mine;
    try {
      job(0);
    } catch (...) {
      mine = std::current_exception();
    }
    while (pending_.load(std::memory_order_acquire) > 0)
      cpu_relax();
    if (mine)
      std::rethrow_exception(mine);
    if (error_)
      std::rethrow_exception(error_);
  }

private:
  void loop(int index) {
    t_inside_job = true;
    uint64_t seen = 0;
    for (;;) {
      uint64_t g = 0;
      const auto sleep_at = Clock::now() + kSpin;
      for (uint32_t polls = 1; (g = generation_.load(std::memory_order_acquire)) == seen; ++polls) {
        if (stop_.load())
          return;
        cpu_relax();
        if (polls % 256 == 0 && Clock::now() > sleep_at) {
          std::unique_lock<std::mutex> lock(mu_);
          sleepers_.fetch_add(1);
          cv_.wait(lock, [&] { return generation_.load() != seen || stop_.load(); });
          sleepers_.fetch_sub(1);
        }
      }
      seen = g;
      if (index < chunks_) {
        try {
          (*job_)(index);
        } catch (...) {
          std::lock_guard<std::mutex> lock(mu_);
          error_ = std::current_exception();
        }
        pending_.fetch_sub(1, std::memory_order_release);
      }
    }
  }

  static constexpr auto kSpin = std::chrono::microseconds(kSpinMicroseconds);
  std::vector<std::thread> threads_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<int64_t> pending_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<bool> stop_{false};
  const std::function<void(int64_t)> *job_ = nullptr;
  int64_t chunks_ = 0;
  std::exception_ptr error_;
  std::mutex mu_;
  std::condition_variable cv_;
};

struct PoolState {
  int threads = hardware_threads();
  std::unique_ptr<SpinPool> pool; // threads - 1 workers; created on first use
  std::mutex busy;                // one parallel_for at a time; others run serially

  SpinPool *get() {
    if (threads > 1 && (!pool || pool->size() != threads))
      pool = std::make_unique<SpinPool>(threads - 1);
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
  const int64_t chunks = work_split::chunks(n, grain, num_threads());
  PoolState &s = state();
  std::unique_lock<std::mutex> lock(s.busy, std::defer_lock);
  if (chunks <= 1 || t_inside_job || !lock.try_lock()) {
    fn(0, n);
    return;
  }
  SpinPool *pool = s.get();
  auto bounds = [&](int64_t i) { return work_split::chunk_begin(i, n, chunks); };
  t_inside_job = true;
  struct Reset {
    ~Reset() { t_inside_job = false; }
  } reset;
  pool->run(chunks, [&](int64_t i) { fn(bounds(i), bounds(i + 1)); });
}

ThreadCountScope::ThreadCountScope(int n) : saved_(num_threads()) { set_num_threads(n); }
ThreadCountScope::~ThreadCountScope() { set_num_threads(saved_); }

} // namespace perfmodel::kernels::cpu
