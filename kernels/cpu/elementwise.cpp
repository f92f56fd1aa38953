// Activation and elementwise kernels; broadcasting walks the output with per-input strides.
#include "perfmodel/kernels/cpu/elementwise.hpp"

#include <algorithm>
#include <cmath>

#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"
#include "perfmodel/targets/cpu_eigen/work_split.hpp"

namespace perfmodel::kernels::cpu {

namespace {

constexpr int64_t kGrain = work_split::kElementwiseGrain;

template <typename F> void map(const float *in, float *out, int64_t n, F f) {
  parallel_for(n, kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      out[i] = f(in[i]);
  });
}

} // namespace

bool has_activation(const std::string &f) {
  static const char *names[] = {"relu", "leaky_relu", "relu6", "clip",        "sigmoid",
                                "tanh", "gelu",       "silu",  "hardsigmoid", "hardswish"};
  return std::find(std::begin(names), std::end(names), f) != std::end(names);
}

void activation(const std::string &f, const ActivationParams &p, const float *in, float *out,
                int64_t n) {
  if (f == "relu")
    return map(in, out, n, [](float x) { return x > 0 ? x : 0.0f; });
  if (f == "leaky_relu")
    return map(in, out, n, [&](float x) { return x > 0 ? x : p.alpha * x; });
  if (f == "relu6")
    return map(in, out, n, [](float x) { return std::min(std::max(x, 0.0f), 6.0f); });
  if (f == "clip")
    return map(in, out, n, [&](float x) { return std::min(std::max(x, p.min), p.max); });
  if (f == "sigmoid")
    return map(in, out, n, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
  if (f == "tanh")
    return map(in, out, n, [](float x) { return std::tanh(x); });
  if (f == "gelu")
    return map(in, out, n, [](float x) { return 0.5f * x * (1.0f + std::erf(x * 0.70710678f)); });
  if (f == "silu")
    return map(in, out, n, [](float x) { return x / (1.0f + std::exp(-x)); });
  if (f == "hardsigmoid")
    return map(in, out, n, [](float x) { return std::min(std::max(x / 6.0f + 0.5f, 0.0f), 1.0f); });
  if (f == "hardswish")
    return map(in, out, n,
               [](float x) { return x * std::min(std::max(x / 6.0f + 0.5f, 0.0f), 1.0f); });
  throw InputError("cpu executor: unknown activation '" + f + "'");
}

bool has_elementwise(const std::string &f) { return elementwise_arity(f) > 0; }

int elementwise_arity(const std::string &f) {
  static const char *un[] = {"sqrt", "erf", "exp", "log", "neg", "abs", "reciprocal"};
  static const char *bin[] = {"add", "sub", "mul", "div", "pow", "max", "min"};
  if (std::find(std::begin(un), std::end(un), f) != std::end(un))
    return 1;
  if (std::find(std::begin(bin), std::end(bin), f) != std::end(bin))
    return 2;
  return f == "where" ? 3 : 0;
}

void elementwise(const std::string &f, const std::vector<const float *> &inputs,
                 const std::vector<Shape> &shapes, const Shape &out_shape, float *out) {
  const int arity = elementwise_arity(f);
  if (arity == 0)
    throw InputError("cpu executor: unknown elementwise function '" + f + "'");
  if (static_cast<int>(inputs.size()) != arity || shapes.size() != inputs.size())
    throw InputError("cpu executor: '" + f + "' takes " + std::to_string(arity) +
                     " operands, got " + std::to_string(inputs.size()));
  const size_t rank = out_shape.size();
  const int64_t total = numel(out_shape);
  // Per input: strides over the output's dims, 0 where the input is broadcast.
  std::vector<std::vector<int64_t>> st(inputs.size(), std::vector<int64_t>(rank, 0));
  bool same = true;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Shape &s = shapes[i];
    if (s.size() > rank)
      throw InputError("cpu executor: '" + f + "' operand has higher rank");
    const auto in_st = strides_of(s);
    for (size_t d = 0; d < s.size(); ++d) {
      const size_t od = rank - s.size() + d;
      if (s[d] == out_shape[od])
        st[i][od] = in_st[d];
      else if (s[d] != 1)
        throw InputError("cpu executor: shape " + shape_str(s) + " does not broadcast to " +
                         shape_str(out_shape));
    }
    same = same && numel(s) == total;
  }
  const auto out_st = strides_of(out_shape);
  auto offset = [&](size_t i, int64_t flat) {
    int64_t off = 0;
    for (size_t d = 0; d < rank; ++d)
      off += (flat / out_st[d]) % out_shape[d] * st[i][d];
    return off;
  };
  // The function is chosen once, outside the loops, so each loop is a plain (vectorisable) map.
  auto walk = [&](auto fn) {
    parallel_for(total, kGrain, [&](int64_t b, int64_t e) {
      const int64_t inner = rank ? std::max<int64_t>(out_shape[rank - 1], 1) : 1;
      for (int64_t idx = b; idx < e;) {
        // A run along the innermost dim, where each input's stride is constant.
        const int64_t run = same ? e - idx : std::min(e - idx, inner - idx % inner);
        const float *p[3] = {nullptr, nullptr, nullptr};
        int64_t s[3] = {0, 0, 0};
        for (size_t i = 0; i < inputs.size(); ++i) {
          p[i] = inputs[i] + (same ? idx : offset(i, idx));
          s[i] = same ? 1 : (rank ? st[i][rank - 1] : 0);
        }
        fn(p, s, out + idx, run);
        idx += run;
      }
    });
  };
  auto unary_fn = [&](auto g) {
    walk([&](const float *const *p, const int64_t *s, float *o, int64_t run) {
      for (int64_t j = 0; j < run; ++j)
        o[j] = g(p[0][j * s[0]]);
    });
  };
  auto binary_fn = [&](auto g) {
    walk([&](const float *const *p, const int64_t *s, float *o, int64_t run) {
      if (s[0] == 1 && s[1] == 1)
        for (int64_t j = 0; j < run; ++j)
          o[j] = g(p[0][j], p[1][j]);
      else
        for (int64_t j = 0; j < run; ++j)
          o[j] = g(p[0][j * s[0]], p[1][j * s[1]]);
    });
  };
  if (f == "sqrt")
    return unary_fn([](float x) { return std::sqrt(x); });
  if (f == "erf")
    return unary_fn([](float x) { return std::erf(x); });
  if (f == "exp")
    return unary_fn([](float x) { return std::exp(x); });
  if (f == "log")
    return unary_fn([](float x) { return std::log(x); });
  if (f == "neg")
    return unary_fn([](float x) { return -x; });
  if (f == "abs")
    return unary_fn([](float x) { return std::fabs(x); });
  if (f == "reciprocal")
    return unary_fn([](float x) { return 1.0f / x; });
  if (f == "add")
    return binary_fn([](float a, float b) { return a + b; });
  if (f == "sub")
    return binary_fn([](float a, float b) { return a - b; });
  if (f == "mul")
    return binary_fn([](float a, float b) { return a * b; });
  if (f == "div")
    return binary_fn([](float a, float b) { return a / b; });
  if (f == "pow")
    return binary_fn([](float a, float b) { return std::pow(a, b); });
  if (f == "max")
    return binary_fn([](float a, float b) { return std::max(a, b); });
  if (f == "min")
    return binary_fn([](float a, float b) { return std::min(a, b); });
  walk([&](const float *const *p, const int64_t *s, float *o, int64_t run) { // where
    for (int64_t j = 0; j < run; ++j)
      o[j] = p[0][j * s[0]] != 0 ? p[1][j * s[1]] : p[2][j * s[2]];
  });
}

} // namespace perfmodel::kernels::cpu
