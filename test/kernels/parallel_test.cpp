// parallel_for: every index exactly once, chunking by grain, thread count scopes.
#include <doctest/doctest.h>

#include <atomic>
#include <vector>

#include "kernels/cpu/parallel.hpp"

using namespace perfmodel::kernels::cpu;

TEST_CASE("parallel_for covers every index exactly once") {
  for (int64_t n : {1, 2, 7, 1000, 12345}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    std::atomic<int> chunks{0};
    parallel_for(n, 1, [&](int64_t b, int64_t e) {
      ++chunks;
      for (int64_t i = b; i < e; ++i)
        ++hits[static_cast<size_t>(i)];
    });
    for (auto &h : hits)
      CHECK(h.load() == 1);
    CHECK(chunks.load() <= num_threads());
  }
  int calls = 0;
  parallel_for(0, 1, [&](int64_t, int64_t) { ++calls; });
  CHECK(calls == 0);
}

TEST_CASE("a grain larger than the range keeps the work on one chunk") {
  std::atomic<int> chunks{0};
  parallel_for(100, 1000, [&](int64_t b, int64_t e) {
    ++chunks;
    CHECK(b == 0);
    CHECK(e == 100);
  });
  CHECK(chunks.load() == 1);
}

TEST_CASE("ThreadCountScope sets and restores the thread count") {
  const int before = num_threads();
  {
    ThreadCountScope one(1);
    CHECK(num_threads() == 1);
    std::atomic<int> chunks{0};
    parallel_for(1000, 1, [&](int64_t, int64_t) { ++chunks; });
    CHECK(chunks.load() == 1);
  }
  CHECK(num_threads() == before);
  set_num_threads(0);
  CHECK(num_threads() >= 1);
}
