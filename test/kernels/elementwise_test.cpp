// Activations and broadcasting elementwise functions against scalar formulas.
#include <doctest/doctest.h>

#include <cmath>

#include "perfmodel/kernels/cpu/elementwise.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"

using namespace perfmodel::kernels::cpu;
using perfmodel::InputError;

TEST_CASE("activations compute their formulas") {
  std::vector<float> x{-3.0f, -0.5f, 0.0f, 0.5f, 7.0f}, y(5);
  auto run = [&](const char *f, ActivationParams p = {}) {
    activation(f, p, x.data(), y.data(), 5);
    return y;
  };
  CHECK(run("relu") == std::vector<float>{0, 0, 0, 0.5f, 7});
  CHECK(run("relu6")[4] == 6.0f);
  CHECK(run("leaky_relu")[0] == doctest::Approx(-0.03));
  ActivationParams clip;
  clip.min = -1, clip.max = 1;
  CHECK(run("clip", clip) == std::vector<float>{-1, -0.5f, 0, 0.5f, 1});
  CHECK(run("sigmoid")[3] == doctest::Approx(1.0 / (1.0 + std::exp(-0.5))));
  CHECK(run("tanh")[1] == doctest::Approx(std::tanh(-0.5)));
  CHECK(run("gelu")[3] == doctest::Approx(0.5 * 0.5 * (1 + std::erf(0.5 / std::sqrt(2.0)))));
  CHECK(run("silu")[3] == doctest::Approx(0.5 / (1 + std::exp(-0.5))));
  CHECK(run("hardsigmoid")[0] == 0.0f);
  CHECK(run("hardswish")[3] == doctest::Approx(0.5 * (0.5 / 6 + 0.5)));
  CHECK_THROWS_AS(run("nosuch"), InputError);
  CHECK(has_activation("relu"));
  CHECK_FALSE(has_activation("add"));
}

TEST_CASE("elementwise broadcasting follows numpy") {
  // [2, 3, 4] + [3, 1] -> [2, 3, 4]
  Tensor a = random_tensor({2, 3, 4}, 1), b = random_tensor({3, 1}, 2);
  Tensor out = zero_tensor({2, 3, 4});
  for (int threads : {1, 2}) {
    ThreadCountScope scope(threads);
    elementwise("sub", {a.ptr(), b.ptr()}, {a.shape, b.shape}, out.shape, out.ptr());
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j)
        for (int64_t k = 0; k < 4; ++k)
          CHECK(out.ptr()[(i * 3 + j) * 4 + k] == a.ptr()[(i * 3 + j) * 4 + k] - b.ptr()[j]);
  }
  // [1, 4] * [3, 1] -> [3, 4] (both sides broadcast)
  Tensor r = random_tensor({1, 4}, 3), c = random_tensor({3, 1}, 4), o = zero_tensor({3, 4});
  elementwise("mul", {r.ptr(), c.ptr()}, {r.shape, c.shape}, o.shape, o.ptr());
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j)
      CHECK(o.ptr()[i * 4 + j] == r.ptr()[j] * c.ptr()[i]);
  CHECK_THROWS_AS(elementwise("add", {r.ptr(), c.ptr()}, {{1, 5}, c.shape}, o.shape, o.ptr()),
                  InputError);
  CHECK_THROWS_AS(elementwise("add", {r.ptr()}, {r.shape}, o.shape, o.ptr()), InputError);
}

TEST_CASE("unary functions, where, and a large same-shape add split across threads") {
  std::vector<float> x{4.0f, 9.0f}, y(2);
  elementwise("sqrt", {x.data()}, {{2}}, {2}, y.data());
  CHECK(y == std::vector<float>{2.0f, 3.0f});
  std::vector<float> cond{1.0f, 0.0f}, a{1, 2}, b{3, 4};
  elementwise("where", {cond.data(), a.data(), b.data()}, {{2}, {2}, {2}}, {2}, y.data());
  CHECK(y == std::vector<float>{1.0f, 4.0f});
  Tensor p = random_tensor({100000}, 5), q = random_tensor({100000}, 6), s = zero_tensor({100000});
  elementwise("max", {p.ptr(), q.ptr()}, {p.shape, q.shape}, s.shape, s.ptr());
  bool ok = true;
  for (int64_t i = 0; i < 100000; ++i)
    ok = ok && s.ptr()[i] == std::max(p.ptr()[i], q.ptr()[i]);
  CHECK(ok);
  CHECK(elementwise_arity("where") == 3);
  CHECK(elementwise_arity("relu") == 0);
}
