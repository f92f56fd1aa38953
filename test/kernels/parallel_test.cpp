// parallel_for: every index exactly once, chunking by grain, thread count scopes.
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "perfmodel/kernels/cpu/parallel.hpp"

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

TEST_CASE("a parallel_for inside a parallel_for runs serially on its caller") {
  std::atomic<int> inner_chunks{0};
  std::vector<std::atomic<int>> hits(64);
  parallel_for(4, 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      parallel_for(16, 1, [&](int64_t ib, int64_t ie) {
        ++inner_chunks;
        for (int64_t j = ib; j < ie; ++j)
          ++hits[static_cast<size_t>(i * 16 + j)];
      });
  });
  for (auto &h : hits)
    CHECK(h.load() == 1);
  CHECK(inner_chunks.load() == 4); // one chunk per outer index
}

TEST_CASE("an exception thrown by a chunk reaches the caller and the pool keeps working") {
  CHECK_THROWS_AS(parallel_for(1000, 1,
                               [](int64_t b, int64_t) {
                                 if (b > 0 || num_threads() == 1)
                                   throw std::runtime_error("chunk failed");
                               }),
                  std::runtime_error);
  std::atomic<int64_t> sum{0};
  parallel_for(1000, 1, [&](int64_t b, int64_t e) { sum += e - b; });
  CHECK(sum.load() == 1000);
}

TEST_CASE("parallel_for from two threads at once: both complete") {
  std::atomic<int64_t> a{0}, b{0};
  std::thread other([&] {
    for (int r = 0; r < 200; ++r)
      parallel_for(100, 1, [&](int64_t s, int64_t e) { a += e - s; });
  });
  for (int r = 0; r < 200; ++r)
    parallel_for(100, 1, [&](int64_t s, int64_t e) { b += e - s; });
  other.join();
  CHECK(a.load() == 20000);
  CHECK(b.load() == 20000);
}
