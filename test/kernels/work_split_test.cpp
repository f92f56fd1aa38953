// The rule of perfmodel/targets/cpu_eigen/work_split.hpp (which the model of cross-core reads uses)
// is the rule parallel_for runs: the same chunks, chunk i on pool thread i, chunk 0 on the caller.
#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <vector>

#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/targets/cpu_eigen/work_split.hpp"

using namespace perfmodel;
using namespace perfmodel::kernels::cpu;

TEST_CASE("work_split::chunk_of names the chunk parallel_for gives each index") {
  const int threads = std::min(num_threads(), 4);
  if (threads < 2) {
    MESSAGE("one hardware thread: parallel_for runs one chunk");
  }
  ThreadCountScope scope(threads);
  for (const auto &size : {std::pair<int64_t, int64_t>{1, 1},
                           {7, 1},
                           {7, 4},
                           {100, 8},
                           {1001, 1},
                           {40000, work_split::kElementwiseGrain},
                           {3, 16}}) {
    // Named variables, not structured bindings: clang 14 cannot capture those (CAPTURE).
    const int64_t n = size.first, grain = size.second;
    struct Chunk {
      int64_t b, e;
      std::thread::id who;
    };
    std::vector<Chunk> seen;
    std::mutex mu;
    parallel_for(n, grain, [&](int64_t b, int64_t e) {
      std::lock_guard<std::mutex> lock(mu);
      seen.push_back({b, e, std::this_thread::get_id()});
    });
    std::sort(seen.begin(), seen.end(), [](const Chunk &x, const Chunk &y) { return x.b < y.b; });
    CAPTURE(n);
    CAPTURE(grain);
    REQUIRE(int64_t(seen.size()) == work_split::chunks(n, grain, threads));
    CHECK(seen[0].who == std::this_thread::get_id()); // chunk 0 on the caller
    for (size_t i = 0; i < seen.size(); ++i) {
      CHECK(seen[i].b == work_split::chunk_begin(int64_t(i), n, int64_t(seen.size())));
      for (int64_t x = seen[i].b; x < seen[i].e; ++x)
        CHECK(work_split::chunk_of(x, n, grain, threads) == int(i));
    }
    CHECK(seen.back().e == n);
  }
}

TEST_CASE("parallel_for runs chunk i on the same thread at every call") {
  ThreadCountScope scope(std::min(num_threads(), 4));
  const int64_t n = 64;
  using Ids = std::vector<std::thread::id>;
  const size_t threads = size_t(num_threads());
  Ids first(threads), again(threads);
  for (Ids *ids : {&first, &again})
    parallel_for(n, 1, [&](int64_t b, int64_t) {
      (*ids)[size_t(work_split::chunk_of(b, n, 1, num_threads()))] = std::this_thread::get_id();
    });
  CHECK(first == again);
}

TEST_CASE("work_split::gemm_splits_rows: rows when tall, or short and wide with rows to spare") {
  using work_split::gemm_splits_rows;
  CHECK(gemm_splits_rows(512, 196, 4608, 2)); // taller than wide
  CHECK(gemm_splits_rows(256, 529, 256, 2));  // NIN's cccp3: a column split shares a line a row
  CHECK(gemm_splits_rows(512, 784, 128, 2));  // ResNet-50's widening 1x1 at 28x28
  CHECK(gemm_splits_rows(64, 1024, 64, 2));   // 32 rows a thread, up to 1024 columns
  CHECK_FALSE(gemm_splits_rows(64, 1025, 64, 2));
  CHECK_FALSE(gemm_splits_rows(96, 2916, 96, 2));   // wide: each thread would pack all of B
  CHECK_FALSE(gemm_splits_rows(128, 784, 512, 2));  // narrowing 1x1: B larger per row of C
  CHECK_FALSE(gemm_splits_rows(128, 784, 1152, 2)); // 3x3 im2col
  CHECK_FALSE(gemm_splits_rows(63, 529, 63, 2));    // under 32 rows a thread
  CHECK_FALSE(gemm_splits_rows(64, 529, 64, 4));
  CHECK(gemm_splits_rows(1, 1, 1, 1));
}

TEST_CASE("work_split::gemm_runs_parallel: 2^16 multiply-adds or more, on more than one thread") {
  using work_split::gemm_runs_parallel;
  CHECK(gemm_runs_parallel(64, 32, 32, 2)); // exactly 65536
  CHECK_FALSE(gemm_runs_parallel(64, 32, 31, 2));
  CHECK_FALSE(gemm_runs_parallel(512, 512, 512, 1));
}
