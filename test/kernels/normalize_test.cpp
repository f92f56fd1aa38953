// Batch norm, layer norm, softmax and reductions against direct formulas.
#include <doctest/doctest.h>

#include <cmath>

#include "kernels/cpu/normalize.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"

using namespace perfmodel::kernels::cpu;

TEST_CASE("batch norm folds gamma, beta, mean, var and applies per channel") {
  const int64_t n = 2, c = 3, inner = 5;
  Tensor x = random_tensor({n, c, inner}, 1);
  std::vector<float> gamma{1.5f, 0.5f, 2.0f}, beta{0.1f, -0.2f, 0.0f}, mean{0.3f, 0.0f, -0.1f},
      var{1.0f, 0.25f, 4.0f}, scale(3), shift(3);
  fold_batch_norm(c, gamma.data(), beta.data(), mean.data(), var.data(), 1e-5f, scale.data(),
                  shift.data());
  Tensor y = zero_tensor(x.shape);
  batch_norm(n, c, inner, x.ptr(), scale.data(), shift.data(), y.ptr());
  for (int64_t i = 0; i < n * c * inner; ++i) {
    const int64_t ch = (i / inner) % c;
    const double want = (x.ptr()[i] - mean[ch]) / std::sqrt(var[ch] + 1e-5) * gamma[ch] + beta[ch];
    CHECK(y.ptr()[i] == doctest::Approx(want).epsilon(1e-5));
  }
}

TEST_CASE("layer norm gives zero mean and unit variance rows, then the affine") {
  Tensor x = random_tensor({4, 16}, 2), y = zero_tensor({4, 16});
  layer_norm(4, 16, x.ptr(), nullptr, nullptr, 1e-5f, y.ptr());
  for (int r = 0; r < 4; ++r) {
    double s = 0, sq = 0;
    for (int i = 0; i < 16; ++i)
      s += y.ptr()[r * 16 + i];
    for (int i = 0; i < 16; ++i)
      sq += y.ptr()[r * 16 + i] * y.ptr()[r * 16 + i];
    CHECK(s / 16 == doctest::Approx(0).epsilon(1e-5));
    CHECK(sq / 16 == doctest::Approx(1).epsilon(1e-3));
  }
  std::vector<float> g(16, 2.0f), b(16, 1.0f);
  Tensor z = zero_tensor({4, 16});
  layer_norm(4, 16, x.ptr(), g.data(), b.data(), 1e-5f, z.ptr());
  CHECK(z.ptr()[5] == doctest::Approx(2.0 * y.ptr()[5] + 1.0));
}

TEST_CASE("softmax over the middle axis sums to one and orders like its input") {
  // [2, 3, 4] over axis 1: outer 2, dim 3, inner 4
  Tensor x = random_tensor({2, 3, 4}, 3), y = zero_tensor({2, 3, 4});
  softmax(2, 3, 4, x.ptr(), y.ptr());
  for (int o = 0; o < 2; ++o)
    for (int i = 0; i < 4; ++i) {
      double s = 0, denom = 0;
      for (int d = 0; d < 3; ++d)
        denom += std::exp(x.ptr()[(o * 3 + d) * 4 + i]);
      for (int d = 0; d < 3; ++d) {
        const int idx = (o * 3 + d) * 4 + i;
        s += y.ptr()[idx];
        CHECK(y.ptr()[idx] == doctest::Approx(std::exp(x.ptr()[idx]) / denom));
      }
      CHECK(s == doctest::Approx(1.0));
    }
}

TEST_CASE("reduce mean, sum and max over chosen axes") {
  std::vector<float> x(2 * 3 * 4);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i);
  std::vector<float> out(2 * 4);
  reduce("sum", {2, 3, 4}, {1}, x.data(), out.data());
  CHECK(out[0] == 0 + 4 + 8);
  CHECK(out[7] == 15 + 19 + 23);
  reduce("max", {2, 3, 4}, {1}, x.data(), out.data());
  CHECK(out[3] == 11);
  std::vector<float> m(1);
  reduce("mean", {2, 3, 4}, {0, 1, 2}, x.data(), m.data());
  CHECK(m[0] == doctest::Approx(11.5));
}
