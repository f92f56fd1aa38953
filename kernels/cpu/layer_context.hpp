// Internal to the executor: what preparing one layer needs (graph, layer, tensors, weights),
// shared by the files that prepare the different op families.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "perfmodel/epilogue.hpp"
#include "perfmodel/kernels/cpu/buffer_pool.hpp"
#include "perfmodel/kernels/cpu/executor.hpp"

namespace perfmodel::kernels::cpu::detail {

/// Bound a of the U(-a, a) weights of a layer with `fan_in` inputs per output: a = sqrt(3 /
/// fan_in) keeps the output variance equal to the input's (LeCun uniform), so activations stay
/// O(1) through a deep network instead of growing to inf or shrinking into denormals, either of
/// which would time a kernel on data no trained network produces.
inline float weight_bound(int64_t fan_in) {
  return fan_in > 0 ? float(std::sqrt(3.0 / double(fan_in))) : 1.0f;
}

struct LayerContext {
  const Graph &g;
  const Layer &l;
  TensorStore &store;
  uint64_t seed;
  PreparedLayer &p;
  BufferPool *pool; // null: every output a new zeroed buffer

  [[noreturn]] void fail(const std::string &msg) const {
    throw InputError(l.loc, "layer '" + l.name + "' (" + l.op_name + "): cpu executor: " + msg);
  }
  const Tensor &in(size_t i) const {
    if (i >= l.inputs.size())
      fail("needs input " + std::to_string(i + 1));
    auto it = store.find(l.inputs[i]);
    if (it == store.end())
      fail("input '" + l.inputs[i] + "' was never produced");
    return it->second;
  }
  const Shape &out_shape(size_t i) const {
    if (i >= l.outputs.size())
      fail("needs output " + std::to_string(i + 1));
    return g.tensor(l.outputs[i]).shape;
  }
  Tensor &out(size_t i) {
    const Shape &s = out_shape(i);
    if (!pool)
      return store[l.outputs[i]] = zero_tensor(s);
    return store[l.outputs[i]] =
               Tensor{s, pool->output(l.outputs[i], size_t(std::max<int64_t>(numel(s), 1)))};
  }
  Tensor own(const Shape &s, float lo = -1.0f, float hi = 1.0f) {
    p.owned.push_back(random_tensor(s, seed + p.owned.size() * 7919, lo, hi));
    return p.owned.back();
  }
  // Operands for elementwise-like ops: activation inputs, then constant params (random).
  std::vector<Tensor> operands() {
    std::vector<Tensor> ops;
    for (size_t i = 0; i < l.inputs.size(); ++i)
      ops.push_back(in(i));
    for (const auto &prm : l.params)
      ops.push_back(own(prm.shape));
    return ops;
  }
  std::string function() const {
    const std::string f = l.attrs.get_string("function", "");
    if (!f.empty())
      return f;
    if (auto info = find_op(l.op_name); info && !info->function.empty())
      return std::string(info->function);
    return l.op_name;
  }
  int64_t axis(const std::string &key, int64_t fallback, size_t rank) const {
    int64_t a = l.attrs.get_int(key, fallback);
    if (a < 0)
      a += static_cast<int64_t>(rank);
    if (a < 0 || a >= static_cast<int64_t>(std::max<size_t>(rank, 1)))
      fail(key + " " + std::to_string(l.attrs.get_int(key, fallback)) + " out of range");
    return a;
  }
  // pad attribute: one value, (h, w), or ONNX (top, left, bottom, right); returns top, left.
  std::pair<int64_t, int64_t> pads() const {
    const auto p = l.attrs.get_ints("pad", {0, 0});
    if (p.size() == 1)
      return {p[0], p[0]};
    if (p.size() == 2 || p.size() == 4)
      return {p[0], p[1]};
    fail("pad must have 1, 2 or 4 values");
  }
  bool has_bias() const { return layer_has_bias(l); }
};

void need_rank(const LayerContext &c, const Shape &s, size_t rank, const char *what);

// executor_gemm_ops.cpp
void prep_conv(LayerContext &c, bool transposed);
void prep_linear(LayerContext &c);
void prep_matmul(LayerContext &c);
void prep_pool(LayerContext &c, bool max);

} // namespace perfmodel::kernels::cpu::detail
