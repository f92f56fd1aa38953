// Shape rules of every op kind (see docs/ops.md for the attribute defaults).
#include "core/shape_rules.hpp"

#include <algorithm>

namespace perfmodel {

namespace {

constexpr int64_t kMaxWindowAttribute = (int64_t{1} << 31) - 1;

[[noreturn]] void fail(const std::string &msg) { throw InputError(msg); }

const Shape &input_shape(const Graph &g, const Layer &l, size_t i) {
  if (i >= l.inputs.size())
    fail("needs at least " + std::to_string(i + 1) + " input(s), has " +
         std::to_string(l.inputs.size()));
  return g.tensor(l.inputs[i]).shape;
}

int64_t norm_axis(int64_t axis, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= std::max<int64_t>(r, 1))
    fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

void require_rank(const Shape &s, size_t rank, const char *what) {
  if (s.size() != rank)
    fail(std::string(what) + " expects a rank-" + std::to_string(rank) + " input, got " +
         shape_str(s, 'x'));
}

// Checked int64 arithmetic for output sizes: an overflow is an input error, never a wrapped
// (undefined) value that happens to look like a plausible size.
int64_t add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    fail("output size overflows 64-bit integers");
  return r;
}
int64_t sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r))
    fail("output size overflows 64-bit integers");
  return r;
}
int64_t mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    fail("output size overflows 64-bit integers");
  return r;
}

int64_t pool_out(int64_t in, int64_t k, int64_t s, int64_t pb, int64_t pe, int64_t d, bool ceil) {
  const int64_t span = sub(sub(add(add(in, pb), pe), mul(d, sub(k, 1))), 1);
  if (span < 0)
    fail("window larger than the padded input");
  // span >= 0 and s >= 1: the quotients below cannot overflow.
  int64_t out = (ceil ? (span == 0 ? 0 : (span - 1) / s + 1) : span / s) + 1;
  // PyTorch/Caffe: the last window must start inside the input or the leading padding.
  if (ceil && (out - 1) * s >= in + pb)
    --out;
  return out;
}

// A 0/1 attribute (ceil_mode, bias, keepdims, ...): anything else is a mistake, not "true".
bool flag(const Attributes &a, const std::string &key, bool fallback) {
  const int64_t v = a.get_int(key, fallback ? 1 : 0);
  if (v != 0 && v != 1)
    fail("attribute '" + key + "' must be 0 or 1 (false or true), not " + std::to_string(v));
  return v == 1;
}

void set_params(Layer &l, std::vector<TensorDesc> expected) {
  if (!l.params.empty())
    return; // given by an importer: trusted (ONNX initializers)
  for (auto &p : expected)
    p.dtype = l.dtype;
  l.params = std::move(expected);
}

TensorDesc param(const Layer &l, const std::string &role, Shape shape, bool buffer = false) {
  return TensorDesc{l.name + "." + role, std::move(shape), l.dtype, buffer};
}

std::vector<Shape> conv_like(const Graph &g, Layer &l, bool transposed) {
  const Shape &in = input_shape(g, l, 0);
  require_rank(in, 4, "conv2d (NCHW)");
  const auto &a = l.attrs;
  const int64_t groups = a.get_int("groups", 1);
  int64_t cout = a.get_int("out_channels", 0);
  if (cout <= 0 && !l.params.empty() && l.params[0].shape.size() == 4)
    cout = transposed ? l.params[0].shape[1] * groups : l.params[0].shape[0];
  if (cout <= 0)
    fail("needs out_channels > 0");
  if (groups <= 0 || in[1] % groups || cout % groups)
    fail("channels (" + std::to_string(in[1]) + " in, " + std::to_string(cout) +
         " out) are not divisible by groups " + std::to_string(groups));
  Window2d w = window_attrs(a, false);
  Shape out{in[0], cout, 0, 0};
  for (int i = 0; i < 2; ++i) {
    if (transposed) {
      const auto ops = a.get_ints("output_padding", {0, 0}, 2);
      if (ops.size() != 2)
        fail("output_padding takes one integer or two");
      const int64_t op = ops[i];
      // PyTorch's rule: output padding is smaller than the stride or the dilation.
      if (op < 0 || (op >= w.stride[i] && op >= w.dilation[i]))
        fail("output_padding must be at least 0 and smaller than the stride or the dilation");
      out[2 + i] = add(add(sub(sub(mul(in[2 + i] - 1, w.stride[i]), w.pad[i]), w.pad[2 + i]),
                           mul(w.dilation[i], w.kernel[i] - 1)),
                       op + 1);
    } else {
      out[2 + i] = pool_out(in[2 + i], w.kernel[i], w.stride[i], w.pad[i], w.pad[2 + i],
                            w.dilation[i], false);
    }
    if (out[2 + i] <= 0)
      fail("output size is not positive");
  }
  Shape wshape = transposed ? Shape{in[1], cout / groups, w.kernel[0], w.kernel[1]}
                            : Shape{cout, in[1] / groups, w.kernel[0], w.kernel[1]};
  std::vector<TensorDesc> ps{param(l, "weight", wshape)};
  if (flag(a, "bias", true))
    ps.push_back(param(l, "bias", {cout}));
  set_params(l, std::move(ps));
  return {out};
}

std::vector<Shape> linear(const Graph &g, Layer &l) {
  const Shape &in = input_shape(g, l, 0);
  if (in.empty())
    fail("linear needs an input of rank >= 1");
  int64_t n = l.attrs.get_int("out_features", 0);
  if (n <= 0 && !l.params.empty() && l.params[0].shape.size() == 2)
    n = l.params[0].shape[0];
  if (n <= 0)
    fail("needs out_features > 0");
  Shape out = in;
  out.back() = n;
  std::vector<TensorDesc> ps{param(l, "weight", {n, in.back()})};
  if (flag(l.attrs, "bias", true))
    ps.push_back(param(l, "bias", {n}));
  set_params(l, std::move(ps));
  if (l.params[0].shape.size() == 2 && l.params[0].shape[1] != in.back())
    fail("weight " + shape_str(l.params[0].shape, 'x') + " does not match input features " +
         std::to_string(in.back()));
  return {out};
}

std::vector<Shape> matmul(const Graph &g, Layer &l) {
  Shape a = input_shape(g, l, 0);
  Shape b;
  if (l.inputs.size() >= 2)
    b = g.tensor(l.inputs[1]).shape;
  else if (!l.params.empty())
    b = l.params[0].shape;
  else
    fail("matmul needs two operands");
  const bool a_vec = a.size() == 1, b_vec = b.size() == 1;
  if (a_vec)
    a.insert(a.begin(), 1);
  if (b_vec)
    b.push_back(1);
  if (a.back() != b[b.size() - 2])
    fail("inner dimensions differ: " + shape_str(a, 'x') + " x " + shape_str(b, 'x'));
  Shape ba(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
  Shape out = broadcast_shapes(ba, bb);
  if (!a_vec)
    out.push_back(a[a.size() - 2]);
  if (!b_vec)
    out.push_back(b.back());
  return {out};
}

std::vector<Shape> pool(const Graph &g, Layer &l) {
  const Shape &in = input_shape(g, l, 0);
  require_rank(in, 4, "pooling (NCHW)");
  Window2d w = window_attrs(l.attrs, true);
  const bool ceil = flag(l.attrs, "ceil_mode", false);
  flag(l.attrs, "count_include_pad", false);
  Shape out = in;
  for (int i = 0; i < 2; ++i)
    out[2 + i] =
        pool_out(in[2 + i], w.kernel[i], w.stride[i], w.pad[i], w.pad[2 + i], w.dilation[i], ceil);
  return {out};
}

std::vector<Shape> elementwise(const Graph &g, Layer &l) {
  if (l.inputs.empty())
    fail("needs at least one input");
  Shape out = input_shape(g, l, 0);
  for (size_t i = 1; i < l.inputs.size(); ++i)
    out = broadcast_shapes(out, g.tensor(l.inputs[i]).shape);
  for (const auto &p : l.params)
    out = broadcast_shapes(out, p.shape);
  return {out};
}

std::vector<Shape> reduce(const Graph &g, Layer &l) {
  Shape in = input_shape(g, l, 0);
  std::vector<int64_t> axes = l.attrs.get_ints("axes", {});
  const bool keep = flag(l.attrs, "keepdims", true);
  std::vector<bool> reduced(in.size(), axes.empty());
  for (int64_t ax : axes)
    reduced[norm_axis(ax, in.size())] = true;
  Shape out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!reduced[i])
      out.push_back(in[i]);
    else if (keep)
      out.push_back(1);
  }
  return {out};
}

std::vector<Shape> concat(const Graph &g, Layer &l) {
  Shape out = input_shape(g, l, 0);
  const int64_t axis = norm_axis(l.attrs.get_int("axis", 1), out.size());
  for (size_t i = 1; i < l.inputs.size(); ++i) {
    const Shape &s = g.tensor(l.inputs[i]).shape;
    if (s.size() != out.size())
      fail("inputs have different ranks");
    for (size_t d = 0; d < s.size(); ++d)
      if (static_cast<int64_t>(d) != axis && s[d] != out[d])
        fail("input '" + l.inputs[i] + "' " + shape_str(s, 'x') + " does not match " +
             shape_str(out, 'x') + " outside axis " + std::to_string(axis));
    out[axis] = add(out[axis], s[axis]);
  }
  return {out};
}

std::vector<Shape> split(const Graph &g, Layer &l) {
  const Shape &in = input_shape(g, l, 0);
  const int64_t axis = norm_axis(l.attrs.get_int("axis", 0), in.size());
  std::vector<int64_t> sizes = l.attrs.get_ints("split", {});
  const size_t n = std::max<size_t>(l.outputs.size(), 1);
  if (sizes.empty()) {
    if (in[axis] % static_cast<int64_t>(n))
      fail("axis does not split evenly");
    sizes.assign(n, in[axis] / static_cast<int64_t>(n));
  }
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0)
      fail("split sizes must not be negative");
    total = add(total, s);
  }
  if (sizes.size() != n || total != in[axis])
    fail("split sizes do not add up to the axis length or match the outputs");
  std::vector<Shape> outs;
  for (int64_t s : sizes) {
    Shape o = in;
    o[axis] = s;
    outs.push_back(o);
  }
  return outs;
}

std::vector<Shape> slice(const Graph &g, Layer &l) {
  Shape out = input_shape(g, l, 0);
  auto starts = l.attrs.get_ints("starts", {}), ends = l.attrs.get_ints("ends", {});
  auto axes = l.attrs.get_ints("axes", {}), steps = l.attrs.get_ints("steps", {});
  if (starts.size() != ends.size())
    fail("starts and ends differ in length");
  for (size_t i = 0; i < starts.size(); ++i) {
    const int64_t ax = norm_axis(axes.empty() ? static_cast<int64_t>(i) : axes.at(i), out.size());
    const int64_t dim = out[ax], step = steps.empty() ? 1 : steps.at(i);
    if (step == 0)
      fail("slice step 0");
    auto clampi = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v += dim;
      return std::clamp(v, lo, hi);
    };
    int64_t s, e;
    // Counts written as (span - 1) / |step| + 1 so that no step, however large, overflows.
    if (step > 0) {
      s = clampi(starts[i], 0, dim);
      e = clampi(std::min(ends[i], dim), 0, dim);
      out[ax] = e > s ? (e - s - 1) / step + 1 : 0;
    } else {
      if (step == INT64_MIN)
        fail("slice step out of range");
      s = clampi(starts[i], 0, dim - 1);
      e = ends[i] < -dim ? -1 : clampi(ends[i], -1, dim - 1);
      out[ax] = s > e ? (s - e - 1) / -step + 1 : 0;
    }
  }
  return {out};
}

std::vector<Shape> gather(const Graph &g, Layer &l) {
  Shape data, idx;
  if (l.inputs.size() >= 2) {
    data = g.tensor(l.inputs[0]).shape;
    idx = g.tensor(l.inputs[1]).shape;
  } else if (!l.params.empty()) {
    data = l.params[0].shape;
    idx = input_shape(g, l, 0);
  } else {
    fail("gather needs data and indices");
  }
  const int64_t axis = norm_axis(l.attrs.get_int("axis", 0), data.size());
  Shape out(data.begin(), data.begin() + axis);
  out.insert(out.end(), idx.begin(), idx.end());
  out.insert(out.end(), data.begin() + axis + 1, data.end());
  return {out};
}

std::vector<Shape> reshape(const Graph &g, Layer &l) {
  const Shape &in = input_shape(g, l, 0);
  std::vector<int64_t> target = l.attrs.get_ints("shape", {});
  if (target.empty())
    fail("reshape needs a shape attribute");
  Shape out;
  int infer = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t d = target[i];
    if (d == 0) {
      if (i >= in.size())
        fail("shape 0 refers past the input's rank");
      d = in[i];
    }
    if (d == -1) {
      if (infer >= 0)
        fail("more than one -1 in shape");
      infer = static_cast<int>(i);
      d = 1;
    } else if (d < 0) {
      fail("negative dimension in shape");
    }
    out.push_back(d);
  }
  int64_t product = 1;
  for (int64_t d : out)
    product = mul(product, d);
  if (infer >= 0) {
    const int64_t rest = product;
    if (rest == 0 || numel(in) % rest)
      fail("cannot infer -1 in shape");
    out[infer] = numel(in) / rest;
  }
  if (numel(out) != numel(in))
    fail("cannot reshape " + shape_str(in, 'x') + " to " + shape_str(out, 'x'));
  return {out};
}

std::vector<Shape> layer_outputs(Graph &g, Layer &l) {
  switch (l.op) {
  case OpKind::conv2d:
    return conv_like(g, l, false);
  case OpKind::conv_transpose2d:
    return conv_like(g, l, true);
  case OpKind::linear:
    return linear(g, l);
  case OpKind::matmul:
    return matmul(g, l);
  case OpKind::max_pool:
  case OpKind::avg_pool:
    return pool(g, l);
  case OpKind::global_avg_pool:
  case OpKind::global_max_pool: {
    Shape s = input_shape(g, l, 0);
    if (s.size() < 3)
      fail("global pooling needs an NC... input");
    std::fill(s.begin() + 2, s.end(), 1);
    return {s};
  }
  case OpKind::activation:
    if (!activation_flops_per_element(l.attrs.get_string("function", "")))
      fail("unknown activation function '" + l.attrs.get_string("function", "") + "'");
    return {input_shape(g, l, 0)};
  case OpKind::batch_norm: {
    const Shape &s = input_shape(g, l, 0);
    if (s.size() < 2)
      fail("batchnorm needs an N,C,... input");
    const int64_t c = s[1];
    set_params(l, {param(l, "weight", {c}), param(l, "bias", {c}),
                   param(l, "running_mean", {c}, true), param(l, "running_var", {c}, true)});
    return {s};
  }
  case OpKind::layer_norm: {
    const Shape &s = input_shape(g, l, 0);
    const int64_t axis = norm_axis(l.attrs.get_int("axis", -1), s.size());
    Shape norm(s.begin() + axis, s.end());
    if (flag(l.attrs, "elementwise_affine", true))
      set_params(l, {param(l, "weight", norm), param(l, "bias", norm)});
    return {s};
  }
  case OpKind::elementwise:
    if (!elementwise_flops_per_element(l.attrs.get_string("function", "")))
      fail("unknown elementwise function '" + l.attrs.get_string("function", "") + "'");
    return elementwise(g, l);
  case OpKind::reduce:
    return reduce(g, l);
  case OpKind::softmax: {
    const Shape &s = input_shape(g, l, 0);
    norm_axis(l.attrs.get_int("axis", -1), s.size());
    return {s};
  }
  case OpKind::concat:
    return concat(g, l);
  case OpKind::split:
    return split(g, l);
  case OpKind::slice:
    return slice(g, l);
  case OpKind::gather:
    return gather(g, l);
  case OpKind::flatten: {
    const Shape &s = input_shape(g, l, 0);
    const int64_t axis = s.empty() ? 0 : norm_axis(l.attrs.get_int("axis", 1), s.size() + 1);
    return {
        Shape{numel(Shape(s.begin(), s.begin() + axis)), numel(Shape(s.begin() + axis, s.end()))}};
  }
  case OpKind::reshape:
    return reshape(g, l);
  case OpKind::transpose: {
    const Shape &s = input_shape(g, l, 0);
    std::vector<int64_t> perm = l.attrs.get_ints("perm", {});
    if (perm.empty())
      for (size_t i = s.size(); i-- > 0;)
        perm.push_back(static_cast<int64_t>(i));
    if (perm.size() != s.size())
      fail("perm length differs from the input rank");
    Shape out;
    std::vector<bool> seen(s.size(), false);
    for (int64_t p : perm) {
      const int64_t a = norm_axis(p, s.size());
      if (seen[a])
        fail("perm repeats axis " + std::to_string(a));
      seen[a] = true;
      out.push_back(s[a]);
    }
    return {out};
  }
  case OpKind::dropout: {
    // Recorded, not used (a no-op at inference), but a ratio outside [0, 1) is a mistake.
    const double ratio = l.attrs.get_float("ratio", 0.5);
    if (!(ratio >= 0 && ratio < 1))
      fail("attribute 'ratio' must be a number in [0, 1)");
    return {input_shape(g, l, 0)};
  }
  case OpKind::identity:
    return {input_shape(g, l, 0)};
  case OpKind::embedding: {
    const Shape &idx = input_shape(g, l, 0);
    const int64_t v = l.attrs.get_int("num_embeddings", 0), d = l.attrs.get_int("embedding_dim", 0);
    if ((v <= 0 || d <= 0) && l.params.empty())
      fail("needs num_embeddings > 0 and embedding_dim > 0");
    set_params(l, {param(l, "weight", {v, d})});
    Shape out = idx;
    out.push_back(l.params[0].shape.back());
    return {out};
  }
  case OpKind::generic:
    break;
  }
  return {}; // no rule: every output must carry an explicit shape
}

} // namespace

Window2d window_attrs(const Attributes &a, bool stride_defaults_to_kernel) {
  Window2d w;
  auto k = a.get_ints("kernel", {}, 2);
  if (k.size() != 2)
    fail("kernel must be one integer or two");
  if (k[0] <= 0 || k[1] <= 0)
    fail("kernel must be positive");
  w.kernel = {k[0], k[1]};
  auto s = a.get_ints("stride", stride_defaults_to_kernel ? k : std::vector<int64_t>{1, 1}, 2);
  auto d = a.get_ints("dilation", {1, 1}, 2);
  if (s.size() != 2 || d.size() != 2)
    fail("stride and dilation take one integer or two");
  if (s[0] <= 0 || s[1] <= 0 || d[0] <= 0 || d[1] <= 0)
    fail("stride and dilation must be positive");
  w.stride = {s[0], s[1]};
  w.dilation = {d[0], d[1]};
  auto p = a.get_ints("pad", {0, 0}, 2);
  if (p.size() == 2)
    w.pad = {p[0], p[1], p[0], p[1]};
  else if (p.size() == 4)
    w.pad = {p[0], p[1], p[2], p[3]};
  else
    fail("pad takes one integer, [h, w] or [top, left, bottom, right]");
  for (int64_t v : w.pad)
    if (v < 0)
      fail("pad must not be negative");
  // No real layer has a window attribute near 2^31 (2^50 elements is the tensor cap); larger
  // values are mistakes, and capping them keeps window arithmetic far from overflow.
  for (int64_t v : {w.kernel[0], w.kernel[1], w.stride[0], w.stride[1], w.dilation[0],
                    w.dilation[1], w.pad[0], w.pad[1], w.pad[2], w.pad[3]})
    if (v > kMaxWindowAttribute)
      fail("kernel, stride, dilation and pad must be at most 2^31 - 1 (got " + std::to_string(v) +
           ")");
  return w;
}

Shape broadcast_shapes(const Shape &a, const Shape &b) {
  Shape out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      fail("shapes " + shape_str(a, 'x') + " and " + shape_str(b, 'x') + " do not broadcast");
    out[out.size() - 1 - i] = da == 1 ? db : da;
  }
  return out;
}

void apply_shape_rule(Graph &g, Layer &l) {
  if (!l.activation.empty() && !activation_flops_per_element(l.activation))
    fail("unknown fused activation '" + l.activation + "'");
  if (!l.output_shapes.empty() && l.output_shapes.size() != l.outputs.size())
    fail("declares " + std::to_string(l.output_shapes.size()) + " output shape(s) for " +
         std::to_string(l.outputs.size()) + " output(s)");
  std::vector<Shape> declared;
  for (const auto &d : l.output_shapes) {
    Shape s;
    for (const auto &dim : d)
      s.push_back(dim.batch_factor > 0 ? mul(dim.batch_factor, g.batch()) : dim.value);
    declared.push_back(s);
  }
  std::vector<Shape> outs = layer_outputs(g, l);
  if (outs.empty()) {
    if (declared.empty())
      fail("op has no shape rule; give the output shape explicitly (output_shape)");
    outs = declared;
  }
  if (outs.size() != l.outputs.size())
    fail("produces " + std::to_string(outs.size()) + " output(s) but " +
         std::to_string(l.outputs.size()) + " are named");
  for (size_t i = 0; i < outs.size(); ++i) {
    if (!declared.empty() && declared[i] != outs[i])
      fail("output '" + l.outputs[i] + "' is declared " + shape_str(declared[i], 'x') +
           " but the op gives " + shape_str(outs[i], 'x'));
    g.tensors[l.outputs[i]] = TensorDesc{l.outputs[i], outs[i], l.dtype};
  }
}

} // namespace perfmodel
