// prepare_layer(): dispatch by op kind, plus the elementwise, normalisation and data-movement ops.
#include <cstring>

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/layer_context.hpp"
#include "kernels/cpu/normalize.hpp"
#include "perfmodel/kernels/cpu/elementwise.hpp"
#include "perfmodel/kernels/cpu/pool.hpp"

namespace perfmodel::kernels::cpu {

namespace detail {

void need_rank(const LayerContext &c, const Shape &s, size_t rank, const char *what) {
  if (s.size() != rank)
    c.fail(std::string(what) + " must have rank " + std::to_string(rank) + ", got " + shape_str(s));
}

} // namespace detail

namespace {

using detail::LayerContext;

void prep_activation(LayerContext &c) {
  const std::string f = c.function();
  if (!has_activation(f))
    c.fail("unknown activation '" + f + "'");
  ActivationParams ap;
  ap.alpha = static_cast<float>(c.l.attrs.get_float("alpha", 0.01));
  ap.min = static_cast<float>(c.l.attrs.get_float("min", f == "clip" ? -1e30 : 0.0));
  ap.max = static_cast<float>(c.l.attrs.get_float("max", f == "clip" ? 1e30 : 6.0));
  const Tensor &x = c.in(0);
  float *out = c.out(0).ptr();
  const float *in = x.ptr();
  const int64_t n = x.size();
  c.p.path = "map";
  c.p.run = [=] { activation(f, ap, in, out, n); };
}

void prep_elementwise(LayerContext &c) {
  const std::string f = c.function();
  if (!has_elementwise(f))
    c.fail("unknown elementwise function '" + f + "'");
  auto ops = c.operands();
  // An importer may drop a scalar constant operand (ONNX `x / 8.0`): stand in a scalar.
  while (!ops.empty() && static_cast<int>(ops.size()) < elementwise_arity(f))
    ops.push_back(c.own({1}, 0.5f, 1.5f));
  std::vector<const float *> ptrs;
  std::vector<Shape> shapes;
  for (const auto &t : ops) {
    ptrs.push_back(t.ptr());
    shapes.push_back(t.shape);
  }
  if (static_cast<int>(ops.size()) != elementwise_arity(f))
    c.fail("'" + f + "' takes " + std::to_string(elementwise_arity(f)) + " operands, got " +
           std::to_string(ops.size()));
  const Shape os = c.out_shape(0);
  float *out = c.out(0).ptr();
  elementwise(f, ptrs, shapes, os, out); // validates broadcasting now, not while timing
  c.p.path = "map";
  c.p.run = [=] { elementwise(f, ptrs, shapes, os, out); };
}

void prep_batch_norm(LayerContext &c) {
  const Shape &s = c.in(0).shape;
  if (s.size() < 2)
    c.fail("batch norm needs [N, C, ...]");
  const int64_t n = s[0], ch = s[1], inner = numel(s) / std::max<int64_t>(n * ch, 1);
  Tensor scale = c.own({ch}), shift = c.own({ch});
  const Tensor gamma = c.own({ch}, 0.5f, 1.5f), beta = c.own({ch}), mean = c.own({ch});
  const Tensor var = c.own({ch}, 0.5f, 1.5f);
  fold_batch_norm(ch, gamma.ptr(), beta.ptr(), mean.ptr(), var.ptr(),
                  static_cast<float>(c.l.attrs.get_float("epsilon", 1e-5)), scale.ptr(),
                  shift.ptr());
  const float *in = c.in(0).ptr();
  const float *sc = scale.ptr(), *sh = shift.ptr();
  float *out = c.out(0).ptr();
  c.p.path = "map";
  c.p.run = [=] { batch_norm(n, ch, inner, in, sc, sh, out); };
}

void prep_layer_norm(LayerContext &c) {
  const Shape &s = c.in(0).shape;
  const int64_t axis = c.axis("axis", -1, s.size());
  int64_t cols = 1;
  for (size_t d = static_cast<size_t>(axis); d < s.size(); ++d)
    cols *= s[d];
  const int64_t rows = numel(s) / std::max<int64_t>(cols, 1);
  const bool affine = c.l.attrs.get_int("elementwise_affine", 1) != 0;
  const float *g = affine ? c.own({cols}, 0.5f, 1.5f).ptr() : nullptr;
  const float *b = affine ? c.own({cols}).ptr() : nullptr;
  const float eps = static_cast<float>(c.l.attrs.get_float("epsilon", 1e-5));
  const float *in = c.in(0).ptr();
  float *out = c.out(0).ptr();
  c.p.path = "rows";
  c.p.run = [=] { layer_norm(rows, cols, in, g, b, eps, out); };
}

void prep_softmax(LayerContext &c) {
  const Shape &s = c.in(0).shape;
  const int64_t axis = c.axis("axis", -1, s.size());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d)
    (d < axis ? outer : inner) *= d == axis ? 1 : s[d];
  const int64_t dim = s.empty() ? 1 : s[axis];
  const float *in = c.in(0).ptr();
  float *out = c.out(0).ptr();
  c.p.path = "rows";
  c.p.run = [=] { softmax(outer, dim, inner, in, out); };
}

void prep_reduce(LayerContext &c) {
  const Shape s = c.in(0).shape;
  std::vector<int64_t> axes = c.l.attrs.get_ints("axes", {});
  for (auto &a : axes) {
    if (a < 0)
      a += static_cast<int64_t>(s.size());
    if (a < 0 || a >= static_cast<int64_t>(s.size()))
      c.fail("reduce axis out of range");
  }
  if (axes.empty())
    for (size_t d = 0; d < s.size(); ++d)
      axes.push_back(static_cast<int64_t>(d));
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  const std::string f = c.function();
  if (f != "mean" && f != "sum" && f != "max")
    c.fail("unknown reduction '" + f + "'");
  const float *in = c.in(0).ptr();
  float *out = c.out(0).ptr();
  c.p.path = "reduce";
  c.p.run = [=] { reduce(f, s, axes, in, out); };
}

void prep_view(LayerContext &c) {
  // reshape, flatten, identity, dropout (inference): the output shares the input's buffer.
  c.p.path = "view";
  c.p.run = [] {};
  for (size_t i = 0; i < c.l.outputs.size(); ++i) {
    const Shape &os = c.out_shape(i);
    if (i < c.l.inputs.size() && numel(c.in(i).shape) == numel(os))
      c.store[c.l.outputs[i]] = Tensor{os, c.in(i).data};
    else
      c.out(i); // shape-only ops (Shape, Constant): a fresh buffer, no work
  }
}

void prep_concat(LayerContext &c) {
  std::vector<const float *> ptrs;
  std::vector<Shape> shapes;
  for (size_t i = 0; i < c.l.inputs.size(); ++i) {
    ptrs.push_back(c.in(i).ptr());
    shapes.push_back(c.in(i).shape);
  }
  const int64_t axis = c.axis("axis", 1, c.out_shape(0).size());
  for (const auto &s : shapes)
    if (s.size() != c.out_shape(0).size())
      c.fail("concat inputs must have the output's rank");
  float *out = c.out(0).ptr();
  c.p.path = "copy";
  c.p.run = [=] { concat(ptrs, shapes, axis, out); };
}

void prep_split(LayerContext &c) {
  const Shape s = c.in(0).shape;
  const int64_t axis = c.axis("axis", 0, s.size());
  std::vector<float *> outs;
  std::vector<Shape> shapes;
  int64_t total = 0;
  for (size_t i = 0; i < c.l.outputs.size(); ++i) {
    shapes.push_back(c.out_shape(i));
    if (shapes.back().size() != s.size())
      c.fail("split outputs must have the input's rank");
    total += shapes.back()[axis];
    outs.push_back(c.out(i).ptr());
  }
  if (total > s[axis])
    c.fail("split sizes exceed the input");
  const float *in = c.in(0).ptr();
  c.p.path = "copy";
  c.p.run = [=] { split(in, s, axis, outs, shapes); };
}

void prep_slice(LayerContext &c) {
  const Shape s = c.in(0).shape;
  const Shape os = c.out_shape(0);
  if (os.size() != s.size())
    c.fail("slice output must have the input's rank");
  const auto st = c.l.attrs.get_ints("starts", {}), ax = c.l.attrs.get_ints("axes", {});
  const auto sp = c.l.attrs.get_ints("steps", {});
  std::vector<int64_t> starts(s.size(), 0), steps(s.size(), 1);
  for (size_t i = 0; i < st.size(); ++i) {
    int64_t a = i < ax.size() ? ax[i] : static_cast<int64_t>(i);
    if (a < 0)
      a += static_cast<int64_t>(s.size());
    if (a < 0 || a >= static_cast<int64_t>(s.size()))
      c.fail("slice axis out of range");
    const int64_t step = i < sp.size() ? sp[i] : 1, dim = s[a];
    if (step == 0)
      c.fail("slice step 0");
    int64_t b = st[i] < 0 ? st[i] + dim : st[i];
    b = step > 0 ? std::clamp<int64_t>(b, 0, dim) : std::clamp<int64_t>(b, 0, dim - 1);
    starts[a] = b;
    steps[a] = step;
  }
  for (size_t d = 0; d < s.size(); ++d) {
    const int64_t last = starts[d] + (os[d] - 1) * steps[d];
    if (os[d] > 0 && (last < 0 || last >= s[d]))
      c.fail("slice reads outside its input");
  }
  const float *in = c.in(0).ptr();
  float *out = c.out(0).ptr();
  c.p.path = "copy";
  c.p.run = [=] { slice(in, s, starts, steps, os, out); };
}

void prep_transpose(LayerContext &c) {
  const Shape s = c.in(0).shape;
  std::vector<int64_t> perm(s.size());
  for (size_t d = 0; d < s.size(); ++d)
    perm[d] = static_cast<int64_t>(s.size() - 1 - d);
  perm = c.l.attrs.get_ints("perm", perm);
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (size_t d = 0; d < sorted.size(); ++d)
    if (sorted[d] != static_cast<int64_t>(d) || sorted.size() != s.size())
      c.fail("perm is not a permutation of the input dims");
  const float *in = c.in(0).ptr();
  float *out = c.out(0).ptr();
  c.p.path = "copy";
  c.p.run = [=] { transpose(in, s, perm, out); };
}

void prep_gather(LayerContext &c) {
  auto ops = c.operands();
  if (ops.size() != 2)
    c.fail("gather takes data and indices");
  // Like the shape rule: data then indices as inputs, or indices as the input and data a constant.
  const size_t data = c.l.inputs.size() >= 2 ? 0 : 1, idx = 1 - data;
  const Shape ds = ops[data].shape;
  const int64_t axis = c.axis("axis", 0, ds.size());
  const float *in = ops[data].ptr();
  const float *ind = ops[idx].ptr();
  const int64_t ni = ops[idx].size();
  float *out = c.out(0).ptr();
  if (numel(c.out_shape(0)) != numel(ds) / std::max<int64_t>(ds[axis], 1) * ni)
    c.fail("output shape does not match data and indices");
  c.p.path = "copy";
  c.p.run = [=] { gather(in, ds, axis, ind, ni, out); };
}

void prep_embedding(LayerContext &c) {
  const Shape &os = c.out_shape(0);
  int64_t rows = c.l.attrs.get_int("num_embeddings", 0);
  int64_t dim = c.l.attrs.get_int("embedding_dim", os.empty() ? 0 : os.back());
  if (!c.l.params.empty() && c.l.params[0].shape.size() == 2)
    rows = c.l.params[0].shape[0], dim = c.l.params[0].shape[1];
  if (rows <= 0 || dim <= 0)
    c.fail("embedding needs num_embeddings and embedding_dim");
  const float *table = c.own({rows, dim}).ptr();
  const float *ind = c.in(0).ptr();
  const int64_t ni = c.in(0).size();
  if (numel(os) != ni * dim)
    c.fail("output shape does not match indices x embedding_dim");
  float *out = c.out(0).ptr();
  c.p.path = "copy";
  c.p.run = [=] { embedding(table, rows, dim, ind, ni, out); };
}

void prep_generic(LayerContext &c) {
  // No kernel for it: move its compulsory bytes (inputs + params + outputs) with one memcpy
  // of half of them (a copy reads and writes each byte once).
  int64_t bytes = 0;
  for (size_t i = 0; i < c.l.inputs.size(); ++i)
    bytes += c.g.tensor(c.l.inputs[i]).bytes();
  for (const auto &p : c.l.params)
    bytes += p.bytes();
  for (size_t i = 0; i < c.l.outputs.size(); ++i) {
    bytes += c.g.tensor(c.l.outputs[i]).bytes();
    c.out(i);
  }
  const int64_t n = std::max<int64_t>(bytes / 8, 1);
  const float *src = c.own({n}).ptr();
  float *dst = c.own({n}).ptr();
  c.p.path = "memcpy";
  c.p.run = [=] { parallel_copy(src, dst, n); };
}

} // namespace

PreparedLayer prepare_layer(const Graph &g, const Layer &layer, TensorStore &store, uint64_t seed,
                            BufferPool *pool) {
  PreparedLayer p;
  LayerContext c{g, layer, store, seed, p, pool};
  if (layer.inputs.empty() && layer.params.empty() && layer.op != OpKind::generic) {
    // Nothing to read (an importer's folded constant): the output is a constant, never run.
    for (size_t i = 0; i < layer.outputs.size(); ++i)
      store[layer.outputs[i]] = random_tensor(c.out_shape(i), seed + i);
    p.path = "constant";
    p.run = [] {};
    return p;
  }
  switch (layer.op) {
  case OpKind::conv2d:
    detail::prep_conv(c, false);
    break;
  case OpKind::conv_transpose2d:
    detail::prep_conv(c, true);
    break;
  case OpKind::linear:
    detail::prep_linear(c);
    break;
  case OpKind::matmul:
    detail::prep_matmul(c);
    break;
  case OpKind::max_pool:
    detail::prep_pool(c, true);
    break;
  case OpKind::avg_pool:
    detail::prep_pool(c, false);
    break;
  case OpKind::global_avg_pool:
  case OpKind::global_max_pool: {
    const Shape &s = c.in(0).shape;
    if (s.size() < 2)
      c.fail("global pool needs [N, C, ...]");
    const int64_t planes = s[0] * s[1], plane = numel(s) / std::max<int64_t>(planes, 1);
    const bool max = layer.op == OpKind::global_max_pool;
    const float *in = c.in(0).ptr();
    float *out = c.out(0).ptr();
    p.path = "reduce";
    p.run = [=] { global_pool(planes, plane, max, in, out); };
    break;
  }
  case OpKind::activation:
    prep_activation(c);
    break;
  case OpKind::batch_norm:
    prep_batch_norm(c);
    break;
  case OpKind::layer_norm:
    prep_layer_norm(c);
    break;
  case OpKind::elementwise:
    prep_elementwise(c);
    break;
  case OpKind::reduce:
    prep_reduce(c);
    break;
  case OpKind::softmax:
    prep_softmax(c);
    break;
  case OpKind::concat:
    prep_concat(c);
    break;
  case OpKind::split:
    prep_split(c);
    break;
  case OpKind::slice:
    prep_slice(c);
    break;
  case OpKind::gather:
    prep_gather(c);
    break;
  case OpKind::transpose:
    prep_transpose(c);
    break;
  case OpKind::embedding:
    prep_embedding(c);
    break;
  case OpKind::flatten:
  case OpKind::reshape:
  case OpKind::dropout:
  case OpKind::identity:
    prep_view(c);
    break;
  case OpKind::generic:
    prep_generic(c);
    break;
  }
  // A fused activation (conv + relu) runs in place on the output, inside the layer's time:
  // in the kernel itself where it can (ReLU / ReLU6 of a convolution or linear layer, in the
  // GEMM's epilogue), else as a pass of its own over the output.
  if (!layer.activation.empty() && !layer.outputs.empty()) {
    if (!p.activation_fused) {
      if (!has_activation(layer.activation))
        c.fail("unknown fused activation '" + layer.activation + "'");
      Tensor &o = store.at(layer.outputs[0]);
      float *out = o.ptr();
      const int64_t n = o.size();
      const std::string f = layer.activation;
      auto base = std::move(p.run);
      p.run = [=] {
        base();
        activation(f, ActivationParams{}, out, out, n);
      };
    }
    p.path += "+" + layer.activation;
  }
  return p;
}

} // namespace perfmodel::kernels::cpu
