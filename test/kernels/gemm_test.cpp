// gemm(): all transpose combinations, accumulation, thread splits, degenerate sizes.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>
#include <utility>

#include "perfmodel/epilogue.hpp"
#include "perfmodel/kernels/cpu/gemm.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"
#include "reference.hpp"

using namespace perfmodel::kernels::cpu;

namespace {

// Row-major transpose of an r x c matrix.
std::vector<float> transposed(const float *a, int64_t r, int64_t c) {
  std::vector<float> t(r * c);
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j)
      t[j * r + i] = a[i * c + j];
  return t;
}

// Runs fn(m, n, k) for every {m, n, k} with 1 and with 2 threads.
template <size_t N, typename F> void each_shape_and_split(const int64_t (&shapes)[N][3], F fn) {
  for (int threads : {1, 2}) {
    ThreadCountScope scope(threads);
    for (const auto &s : shapes) {
      CAPTURE(threads);
      CAPTURE(s[0]);
      CAPTURE(s[1]);
      CAPTURE(s[2]);
      fn(s[0], s[1], s[2]);
    }
  }
}

} // namespace

TEST_CASE("gemm matches the reference for every transpose combination and thread split") {
  const int64_t shapes[][3] = {{1, 1, 1},    {3, 5, 7},     {64, 64, 64},    {1, 300, 200},
                               {300, 2, 50}, {17, 129, 33}, {100, 100, 100}, {70, 300, 40}};
  each_shape_and_split(shapes, [](int64_t m, int64_t n, int64_t k) {
    Tensor a = random_tensor({m, k}, 1), b = random_tensor({k, n}, 2);
    const auto expect = ref::matmul(m, n, k, a.ptr(), b.ptr());
    const auto at = transposed(a.ptr(), m, k), bt = transposed(b.ptr(), k, n);
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        std::vector<float> c(m * n, 0.0f);
        gemm(m, n, k, ta ? at.data() : a.ptr(), ta ? m : k, ta, tb ? bt.data() : b.ptr(),
             tb ? k : n, tb, c.data(), n);
        CHECK(ref::max_abs_diff(c.data(), expect.data(), c.size()) < 1e-3);
      }
  });
}

TEST_CASE("gemm accumulates into C and honours leading dimensions") {
  const int64_t m = 40, n = 30, k = 20, ldc = 50;
  Tensor a = random_tensor({m, k}, 3), b = random_tensor({k, n}, 4);
  std::vector<float> c(m * ldc, 1.0f);
  gemm(m, n, k, a.ptr(), k, false, b.ptr(), n, false, c.data(), ldc, true);
  const auto expect = ref::matmul(m, n, k, a.ptr(), b.ptr());
  double worst = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < ldc; ++j) {
      const double want = j < n ? expect[i * n + j] + 1.0 : 1.0; // padding columns untouched
      worst = std::max(worst, std::fabs(c[i * ldc + j] - want));
    }
  CHECK(worst < 1e-3);
}

TEST_CASE("gemm with k = 0 writes zeros and double precision works") {
  std::vector<float> c(6, 5.0f);
  gemm(2, 3, 0, c.data(), 0, false, c.data(), 3, false, c.data(), 3);
  for (float v : c)
    CHECK(v == 0.0f);
  std::vector<double> a{1, 2, 3, 4}, b{5, 6, 7, 8}, d(4);
  gemm(2, 2, 2, a.data(), 2, false, b.data(), 2, false, d.data(), 2);
  CHECK(d[0] == 19);
  CHECK(d[1] == 22);
  CHECK(d[2] == 43);
  CHECK(d[3] == 50);
}

TEST_CASE("gemm adds a fused row or column bias in every thread split, also accumulating") {
  // {m, n, k}: split by rows (m >= n; n > m with 32+ rows a thread, n <= 1024, k <= m), by columns
  // (n > m, fewer rows or n > 1024), and small enough to stay serial (work_split.hpp).
  const int64_t shapes[][3] = {{300, 40, 50}, {70, 300, 20}, {24, 500, 30},
                               {64, 1100, 8}, {3, 5, 7},     {40, 40, 0}};
  each_shape_and_split(shapes, [](int64_t m, int64_t n, int64_t k) {
    Tensor a = random_tensor({m, std::max<int64_t>(k, 1)}, 1);
    Tensor b = random_tensor({std::max<int64_t>(k, 1), n}, 2);
    Tensor rb = random_tensor({m}, 3), cb = random_tensor({n}, 4), c0 = random_tensor({m, n}, 5);
    const auto prod = k > 0 ? ref::matmul(m, n, k, a.ptr(), b.ptr()) : std::vector<float>(m * n);
    for (bool rows : {false, true})
      for (bool cols : {false, true})
        for (bool acc : {false, true}) {
          CAPTURE(rows);
          CAPTURE(cols);
          CAPTURE(acc);
          std::vector<float> c(c0.ptr(), c0.ptr() + m * n), expect(m * n);
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j)
              expect[i * n + j] = prod[i * n + j] + (rows ? rb.ptr()[i] : 0.0f) +
                                  (cols ? cb.ptr()[j] : 0.0f) + (acc ? c[i * n + j] : 0.0f);
          gemm(m, n, k, a.ptr(), std::max<int64_t>(k, 1), false, b.ptr(), n, false, c.data(), n,
               acc, GemmEpilogue{rows ? rb.ptr() : nullptr, cols ? cb.ptr() : nullptr});
          CHECK(ref::max_abs_diff(c.data(), expect.data(), c.size()) < 1e-3);
        }
  });
}

TEST_CASE("gemm forced to split rows or columns computes what the rule's split computes") {
  ThreadCountScope scope(2);
  for (const auto &shape : {std::tuple<int64_t, int64_t, int64_t>{256, 529, 64},
                            {96, 700, 96},
                            {300, 40, 50},
                            {17, 129, 33}}) {
    // Named variables, not structured bindings: clang 14 cannot capture those (CAPTURE).
    const int64_t m = std::get<0>(shape), n = std::get<1>(shape), k = std::get<2>(shape);
    Tensor a = random_tensor({m, k}, 1), b = random_tensor({k, n}, 2), rb = random_tensor({m}, 3);
    const auto prod = ref::matmul(m, n, k, a.ptr(), b.ptr());
    std::vector<float> expect(m * n);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        expect[i * n + j] = std::max(prod[i * n + j] + rb.ptr()[i], 0.0f);
    for (GemmSplit split : {GemmSplit::rule, GemmSplit::rows, GemmSplit::columns}) {
      CAPTURE(m);
      CAPTURE(n);
      CAPTURE(int(split));
      std::vector<float> c(m * n, 7.0f);
      gemm(m, n, k, a.ptr(), k, false, b.ptr(), n, false, c.data(), n, false,
           GemmEpilogue{rb.ptr(), nullptr, 0.0f}, split);
      CHECK(ref::max_abs_diff(c.data(), expect.data(), c.size()) < 1e-3);
    }
  }
}

TEST_CASE("gemm's epilogue clamps (fused ReLU / ReLU6) each thread's block, with the bias") {
  for (int threads : {1, 2})
    for (const auto &[m, n] : {std::pair<int64_t, int64_t>{200, 30}, {20, 400}}) {
      ThreadCountScope scope(threads);
      const int64_t k = 40;
      Tensor a = random_tensor({m, k}, 1), b = random_tensor({k, n}, 2), rb = random_tensor({m}, 3);
      const auto prod = ref::matmul(m, n, k, a.ptr(), b.ptr());
      const auto relu6 = perfmodel::fused_clamp("relu6");
      REQUIRE(relu6);
      CHECK_FALSE(perfmodel::fused_clamp("sigmoid"));
      std::vector<float> c(m * n), expect(m * n);
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) // scaled so that both bounds of ReLU6 are reached
          expect[i * n + j] = std::clamp(4 * (prod[i * n + j] + rb.ptr()[i]), 0.0f, 6.0f);
      std::vector<float> a4(a.ptr(), a.ptr() + m * k), rb4(rb.ptr(), rb.ptr() + m);
      for (float &v : a4)
        v *= 4;
      for (float &v : rb4)
        v *= 4;
      gemm(m, n, k, a4.data(), k, false, b.ptr(), n, false, c.data(), n, false,
           GemmEpilogue{rb4.data(), nullptr, relu6->first, relu6->second});
      CHECK(ref::max_abs_diff(c.data(), expect.data(), c.size()) < 1e-3);
      CHECK(*std::max_element(c.begin(), c.end()) == 6.0f);
      CHECK(*std::min_element(c.begin(), c.end()) == 0.0f);
    }
}
