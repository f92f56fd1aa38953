// plan_layer(): one layer's calls on the GPU, by op kind (docs/cuda.md, "The layer plan").
#include <algorithm>

#include "kernels/gpu_plan/plan_ops.hpp"
#include "perfmodel/pool_window.hpp"

namespace perfmodel::kernels::gpu_plan::detail {

namespace {

std::string dims(const std::vector<int64_t> &s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? "x" : "") + std::to_string(s[i]);
  return out;
}

int64_t prod(const std::vector<int64_t> &s, size_t from = 0, size_t to = size_t(-1)) {
  int64_t n = 1;
  for (size_t d = from; d < s.size() && d < to; ++d)
    n *= s[d];
  return n;
}

/// What one layer's planning needs: the builder, the layer, and its plan entry.
struct Ctx {
  Builder &b;
  const Layer &l;
  PlannedLayer &pl;

  const std::vector<int64_t> &out_shape(size_t i = 0) const {
    return b.g.tensor(l.outputs.at(i)).shape;
  }
  int in(size_t i) const {
    if (i >= l.inputs.size())
      throw Unsupported("needs input " + std::to_string(i + 1));
    return b.find(l.inputs[i]);
  }
  /// The output, stored with `strides` (the activation layout when empty).
  int out(size_t i = 0, std::vector<int64_t> strides = {}) {
    const TensorDesc &t = b.g.tensor(l.outputs.at(i));
    return b.add(t.name, t.shape, b.storage(t.dtype), TensorRole::activation,
                 strides.empty() ? b.layout(t.shape) : std::move(strides));
  }
  /// Parameter `i` of the layer as a tensor of the run.
  int param(size_t i) {
    if (i >= l.params.size())
      throw Unsupported("needs parameter " + std::to_string(i + 1));
    const TensorDesc &p = l.params[i];
    return b.add(l.name + "/" + p.name, p.shape, b.storage(p.dtype), TensorRole::param);
  }
  /// A parameter of the run's own (folded batch-norm scale, a stand-in scalar).
  int own(const std::string &name, const std::vector<int64_t> &shape) {
    return b.add(l.name + "/" + name, shape, b.storage(DType::fp32), TensorRole::param);
  }
  /// The inputs, then the parameters: the operands of element-wise ops and matmul.
  std::vector<int> operands() {
    std::vector<int> ops;
    for (size_t i = 0; i < l.inputs.size(); ++i)
      ops.push_back(in(i));
    for (size_t i = 0; i < l.params.size(); ++i)
      ops.push_back(param(i));
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
      a += int64_t(rank);
    if (a < 0 || a >= int64_t(std::max<size_t>(rank, 1)))
      throw Unsupported(key + " " + std::to_string(a) + " out of range");
    return a;
  }
  const PlanTensor &t(int i) const { return b.plan.tensors[size_t(i)]; }
  void need_float(int i) const {
    if (t(i).dtype == DType::int64)
      throw Unsupported("integer tensor " + t(i).name + " (the GPU executor computes on floats)");
  }
  /// The element-wise activation `f` on tensor `y` in place (a fused activation).
  void activation_in_place(const std::string &f, int y) {
    if (pointwise_arity(f) != 1)
      throw Unsupported("activation '" + f + "' has no GPU kernel");
    PlanCall c = b.pointwise(f, {b.whole(y)}, b.whole(y), t(y).shape);
    set_params(c, f);
    pl.calls.push_back(std::move(c));
  }
  void set_params(PlanCall &c, const std::string &f) const {
    if (f == "clip") {
      c.alpha = float(l.attrs.get_float("min", -1e30));
      c.beta = float(l.attrs.get_float("max", 1e30));
    } else if (f == "leaky_relu" || f == "elu") {
      c.alpha = float(l.attrs.get_float("alpha", 0.01));
    }
  }
  /// A per-channel operand (bias, scale) of a tensor of `shape`: stride 1 along dim `ch`.
  StridedView per_channel(int p, const std::vector<int64_t> &shape, size_t ch) const {
    StridedView v{p, 0, std::vector<int64_t>(shape.size(), 0)};
    v.strides[ch] = 1;
    return v;
  }
};

void plan_conv(Ctx &c) {
  const int x = c.in(0);
  c.need_float(x);
  const std::vector<int64_t> xs = c.t(x).shape, os = c.out_shape();
  if (xs.size() != 4 || os.size() != 4)
    throw Unsupported("cuDNN convolution of rank " + std::to_string(xs.size()) + " (NCHW only)");
  const int w = c.param(0);
  const std::vector<int64_t> ws = c.t(w).shape;
  if (ws.size() != 4)
    throw Unsupported("weight is not [K, C/groups, R, S]");
  ConvShape cs;
  cs.n = xs[0], cs.c = xs[1], cs.h = xs[2], cs.w = xs[3], cs.k = os[1], cs.r = ws[2], cs.s = ws[3];
  cs.p = os[2], cs.q = os[3];
  cs.groups = c.l.attrs.get_int("groups", 1);
  const auto st = c.l.attrs.get_ints("stride", {1, 1}, 2);
  const auto dl = c.l.attrs.get_ints("dilation", {1, 1}, 2);
  const auto pd = c.l.attrs.get_ints("pad", {0, 0}, 2);
  if (st.size() != 2 || dl.size() != 2 || (pd.size() != 2 && pd.size() != 4))
    throw Unsupported("stride, dilation or pad not 2-D");
  if (pd.size() == 4 && (pd[0] != pd[2] || pd[1] != pd[3]))
    throw Unsupported("asymmetric padding (cuDNN pads both sides alike)");
  cs.stride_h = st[0], cs.stride_w = st[1], cs.dil_h = dl[0], cs.dil_w = dl[1];
  cs.pad_h = pd[0], cs.pad_w = pd[1];
  const auto extent = [](int64_t in, int64_t pad, int64_t dil, int64_t k, int64_t stride) {
    return (in + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  };
  if (extent(cs.h, cs.pad_h, cs.dil_h, cs.r, cs.stride_h) != cs.p ||
      extent(cs.w, cs.pad_w, cs.dil_w, cs.s, cs.stride_w) != cs.q)
    throw Unsupported("output size differs from cuDNN's for these window attributes");
  if (cs.groups <= 0 || cs.c % cs.groups || cs.k % cs.groups || ws[1] != cs.c / cs.groups ||
      ws[0] != cs.k)
    throw Unsupported("weight " + dims(ws) + " does not match channels and groups");
  cs.nhwc = c.b.opts.channels_last;
  const int y = c.out();
  PlanCall call;
  call.kind = CallKind::conv;
  call.library = "cuDNN";
  call.conv = cs;
  call.in = {c.b.whole(x), c.b.whole(w)};
  call.out = c.b.whole(y);
  call.flops = 2.0 * double(cs.n * cs.k * cs.p * cs.q) * double(cs.c / cs.groups * cs.r * cs.s);
  call.bytes = c.b.bytes(x) + c.b.bytes(w) + c.b.bytes(y);
  call.what = std::string("convolution forward ") + (cs.nhwc ? "NHWC " : "NCHW ") +
              std::to_string(cs.r) + "x" + std::to_string(cs.s) + "/" +
              std::to_string(cs.stride_h) + (cs.groups > 1 ? " groups " : "") +
              (cs.groups > 1 ? std::to_string(cs.groups) : "") + " " + dims(xs) + " -> " + dims(os);
  c.pl.calls.push_back(std::move(call));
  if (c.l.params.size() > 1) {
    const int bias = c.param(1);
    c.pl.calls.push_back(c.b.pointwise("add", {c.b.whole(y), c.per_channel(bias, os, 1)},
                                       c.b.whole(y), os, "add (bias)"));
  }
}

void plan_linear(Ctx &c) {
  const int x = c.in(0);
  c.need_float(x);
  const std::vector<int64_t> xs = c.t(x).shape, os = c.out_shape();
  if (!c.b.row_major(x))
    throw Unsupported("input not in row-major order (a channels-last tensor)");
  const int w = c.param(0);
  const std::vector<int64_t> ws = c.t(w).shape;
  const int64_t k = xs.back(), n = os.back();
  if (ws.size() != 2 || ws[0] != n || ws[1] != k)
    throw Unsupported("weight " + dims(ws) + " is not [out_features, in_features]");
  const int y = c.out(0, row_major_strides(os));
  PlanCall call;
  call.kind = CallKind::gemm;
  call.library = "cuBLAS";
  GemmShape &gs = call.gemm;
  gs.m = c.b.numel(x) / std::max<int64_t>(k, 1), gs.n = n, gs.k = k;
  gs.trans_b = true, gs.lda = k, gs.ldb = k, gs.ldc = n;
  call.in = {c.b.whole(x), c.b.whole(w)};
  call.out = c.b.whole(y);
  call.flops = 2.0 * double(gs.m) * double(gs.n) * double(gs.k);
  call.bytes = c.b.bytes(x) + c.b.bytes(w) + c.b.bytes(y);
  call.what = "GEMM " + std::to_string(gs.m) + "x" + std::to_string(gs.n) + "x" +
              std::to_string(gs.k) + " A.B^T";
  c.pl.calls.push_back(std::move(call));
  if (c.l.params.size() > 1) {
    const int bias = c.param(1);
    const std::vector<int64_t> mn{gs.m, gs.n};
    c.pl.calls.push_back(c.b.pointwise("add", {{y, 0, {gs.n, 1}}, {bias, 0, {0, 1}}},
                                       {y, 0, {gs.n, 1}}, mn, "add (bias)"));
  }
}

void plan_matmul(Ctx &c) {
  const std::vector<int> ops = c.operands();
  if (ops.size() != 2)
    throw Unsupported("matmul takes two operands");
  const int a = ops[0], bt = ops[1];
  c.need_float(a), c.need_float(bt);
  const std::vector<int64_t> as = c.t(a).shape, bs = c.t(bt).shape, os = c.out_shape();
  if (as.size() < 2 || bs.size() < 2 || os.size() < 2)
    throw Unsupported("matmul of a vector (rank 1)");
  if (!c.b.row_major(a) || !c.b.row_major(bt))
    throw Unsupported("operands not in row-major order");
  GemmShape gs;
  gs.m = as[as.size() - 2], gs.k = as.back(), gs.n = bs.back();
  if (bs[bs.size() - 2] != gs.k)
    throw Unsupported("inner dimensions differ");
  gs.batch = prod(os, 0, os.size() - 2);
  const auto batch_stride = [&](const std::vector<int64_t> &s, int64_t mat) -> int64_t {
    const int64_t nb = prod(s, 0, s.size() - 2);
    if (nb == gs.batch)
      return mat;
    if (nb == 1)
      return 0;
    throw Unsupported("batch dimensions broadcast in part (cuBLAS strides are one per operand)");
  };
  gs.stride_a = batch_stride(as, gs.m * gs.k), gs.stride_b = batch_stride(bs, gs.k * gs.n);
  gs.stride_c = gs.m * gs.n;
  gs.lda = gs.k, gs.ldb = gs.n, gs.ldc = gs.n;
  const int y = c.out(0, row_major_strides(os));
  PlanCall call;
  call.kind = CallKind::gemm;
  call.library = "cuBLAS";
  call.gemm = gs;
  call.in = {c.b.whole(a), c.b.whole(bt)};
  call.out = c.b.whole(y);
  call.flops = 2.0 * double(gs.batch) * double(gs.m) * double(gs.n) * double(gs.k);
  call.bytes = c.b.bytes(a) + c.b.bytes(bt) + c.b.bytes(y);
  call.what = (gs.batch > 1 ? "strided batched GEMM " + std::to_string(gs.batch) + "x " : "GEMM ") +
              std::to_string(gs.m) + "x" + std::to_string(gs.n) + "x" + std::to_string(gs.k) +
              " A.B";
  c.pl.calls.push_back(std::move(call));
}

void plan_activation(Ctx &c) {
  const std::string f = c.function();
  if (pointwise_arity(f) != 1 || f == "copy")
    throw Unsupported("activation '" + f + "' has no GPU kernel");
  const int x = c.in(0);
  c.need_float(x);
  const int y = c.out(0, c.t(x).strides);
  PlanCall call = c.b.pointwise(f, {c.b.whole(x)}, c.b.whole(y), c.t(x).shape);
  c.set_params(call, f);
  c.pl.calls.push_back(std::move(call));
}

void plan_elementwise(Ctx &c) {
  const std::string f = c.function();
  const int arity = pointwise_arity(f);
  if (arity < 1 || arity > 2 || f == "copy")
    throw Unsupported("element-wise '" + f + "' has no GPU kernel");
  std::vector<int> ops = c.operands();
  // An importer may drop a scalar constant operand (ONNX `x / 8.0`): a scalar stands in.
  if (ops.size() == 1 && arity == 2)
    ops.push_back(c.own("scalar", {1}));
  if (int(ops.size()) != arity)
    throw Unsupported("'" + f + "' takes " + std::to_string(arity) + " operands, got " +
                      std::to_string(ops.size()));
  for (int o : ops)
    c.need_float(o);
  const std::vector<int64_t> os = c.out_shape();
  // The output keeps the layout of an operand of its shape (a residual add in NHWC stays NHWC).
  std::vector<int64_t> strides;
  for (int o : ops)
    if (c.t(o).shape == os && c.t(o).role == TensorRole::activation) {
      strides = c.t(o).strides;
      break;
    }
  const int y = c.out(0, strides);
  std::vector<StridedView> in;
  for (int o : ops)
    in.push_back(c.b.broadcast_view(o, os));
  c.pl.calls.push_back(c.b.pointwise(f, std::move(in), c.b.whole(y), os));
}

void plan_batch_norm(Ctx &c) {
  const int x = c.in(0);
  c.need_float(x);
  const std::vector<int64_t> xs = c.t(x).shape;
  if (xs.size() < 2)
    throw Unsupported("batch norm needs [N, C, ...]");
  // Inference: gamma, beta, mean and variance folded into one scale and shift per channel.
  const int scale = c.own("scale", {xs[1]}), shift = c.own("shift", {xs[1]});
  const int y = c.out(0, c.t(x).strides);
  c.pl.calls.push_back(c.b.pointwise(
      "scale_shift", {c.b.whole(x), c.per_channel(scale, xs, 1), c.per_channel(shift, xs, 1)},
      c.b.whole(y), xs, "scale_shift (inference batch norm, folded)"));
}

void plan_rows(Ctx &c, CallKind kind) {
  const int x = c.in(0);
  c.need_float(x);
  const std::vector<int64_t> xs = c.t(x).shape;
  const bool norm = kind == CallKind::layer_norm;
  const int64_t axis = c.axis("axis", -1, xs.size());
  if (!norm && axis != int64_t(xs.size()) - 1)
    throw Unsupported("softmax over axis " + std::to_string(axis) + " (the kernel: the last)");
  if (!c.b.row_major(x))
    throw Unsupported("input not in row-major order");
  PlanCall call;
  call.kind = kind;
  call.library = "own";
  call.rows.cols = prod(xs, size_t(axis));
  call.rows.rows = c.b.numel(x) / std::max<int64_t>(call.rows.cols, 1);
  call.in = {c.b.whole(x)};
  if (norm) {
    call.alpha = float(c.l.attrs.get_float("epsilon", 1e-5));
    if (c.l.attrs.get_int("elementwise_affine", 1) != 0) {
      call.in.push_back(c.b.whole(c.own("gamma", {call.rows.cols})));
      call.in.push_back(c.b.whole(c.own("beta", {call.rows.cols})));
    }
  }
  const int y = c.out(0, row_major_strides(c.out_shape()));
  call.out = c.b.whole(y);
  call.bytes = c.b.bytes(x) + c.b.bytes(y);
  call.what = std::string(norm ? "layer norm " : "softmax ") + std::to_string(call.rows.rows) +
              " rows of " + std::to_string(call.rows.cols);
  c.pl.calls.push_back(std::move(call));
}

void plan_pool(Ctx &c) {
  const int x = c.in(0);
  c.need_float(x);
  const std::vector<int64_t> xs = c.t(x).shape, os = c.out_shape();
  if (xs.size() != 4)
    throw Unsupported("pooling of rank " + std::to_string(xs.size()) + " (NCHW only)");
  const bool max = c.l.op == OpKind::max_pool || c.l.op == OpKind::global_max_pool;
  const int y = c.out();
  PlanCall call;
  call.library = "own";
  call.in = {c.b.whole(x)};
  call.out = c.b.whole(y);
  call.bytes = c.b.bytes(x) + c.b.bytes(y);
  PoolShape &ps = call.pool;
  ps.n = xs[0], ps.c = xs[1], ps.h = xs[2], ps.w = xs[3], ps.p = os[2], ps.q = os[3];
  ps.max = max;
  const std::string kind = max ? "max" : "average";
  if (c.l.op == OpKind::global_avg_pool || c.l.op == OpKind::global_max_pool) {
    call.kind = CallKind::global_pool;
    call.what = "global " + kind + " pool " + dims(xs);
    c.pl.calls.push_back(std::move(call));
    return;
  }
  const PoolWindow pw = pool_window(xs, os, c.l.attrs);
  if (pool_is_identity(pw)) { // every element maps to itself: a copy
    c.pl.calls.push_back(
        c.b.pointwise("copy", {c.b.whole(x)}, c.b.whole(y), xs, "copy (1x1 pool at stride 1)"));
    return;
  }
  if (pool_covers_plane(pw)) {
    call.kind = CallKind::global_pool;
    call.what = "global " + kind + " pool " + dims(xs) + " (the window covers the plane)";
    c.pl.calls.push_back(std::move(call));
    return;
  }
  call.kind = CallKind::pool;
  ps.kh = pw.kh, ps.kw = pw.kw, ps.stride_h = pw.sh, ps.stride_w = pw.sw;
  ps.pad_h = pw.pad_top, ps.pad_w = pw.pad_left, ps.dil_h = pw.dh, ps.dil_w = pw.dw;
  ps.count_include_pad = c.l.attrs.get_int("count_include_pad", 0) != 0;
  call.what = kind + " pool " + std::to_string(pw.kh) + "x" + std::to_string(pw.kw) + "/" +
              std::to_string(pw.sh) + " " + dims(xs) + " -> " + dims(os);
  c.pl.calls.push_back(std::move(call));
}

void plan_concat(Ctx &c) {
  const std::vector<int64_t> os = c.out_shape();
  const int64_t axis = c.axis("axis", 1, os.size());
  const int y = c.out();
  int64_t at = 0;
  for (size_t i = 0; i < c.l.inputs.size(); ++i) {
    const int x = c.in(i);
    const std::vector<int64_t> xs = c.t(x).shape;
    if (xs.size() != os.size())
      throw Unsupported("concat inputs must have the output's rank");
    StridedView dst = c.b.whole(y);
    dst.offset = at * c.t(y).strides[size_t(axis)];
    at += xs[size_t(axis)];
    c.pl.calls.push_back(c.b.pointwise("copy", {c.b.whole(x)}, dst, xs, "copy (concat)"));
  }
}

void plan_split(Ctx &c) {
  const int x = c.in(0);
  const std::vector<int64_t> xs = c.t(x).shape;
  const int64_t axis = c.axis("axis", 0, xs.size());
  int64_t at = 0;
  for (size_t i = 0; i < c.l.outputs.size(); ++i) {
    const std::vector<int64_t> os = c.out_shape(i);
    if (os.size() != xs.size())
      throw Unsupported("split outputs must have the input's rank");
    const int y = c.out(i);
    StridedView src = c.b.whole(x);
    src.offset = at * c.t(x).strides[size_t(axis)];
    at += os[size_t(axis)];
    c.pl.calls.push_back(c.b.pointwise("copy", {src}, c.b.whole(y), os, "copy (split)"));
  }
  if (at > xs[size_t(axis)])
    throw Unsupported("split sizes exceed the input");
}

void plan_slice(Ctx &c) {
  const int x = c.in(0);
  const std::vector<int64_t> xs = c.t(x).shape, os = c.out_shape();
  if (os.size() != xs.size())
    throw Unsupported("slice output must have the input's rank");
  const auto st = c.l.attrs.get_ints("starts", {}), ax = c.l.attrs.get_ints("axes", {});
  const auto sp = c.l.attrs.get_ints("steps", {});
  StridedView src = c.b.whole(x);
  for (size_t i = 0; i < st.size(); ++i) {
    int64_t a = i < ax.size() ? ax[i] : int64_t(i);
    if (a < 0)
      a += int64_t(xs.size());
    if (a < 0 || a >= int64_t(xs.size()))
      throw Unsupported("slice axis out of range");
    const int64_t step = i < sp.size() ? sp[i] : 1, dim = xs[size_t(a)];
    if (step == 0)
      throw Unsupported("slice step 0");
    int64_t first = st[i] < 0 ? st[i] + dim : st[i];
    first = step > 0 ? std::clamp<int64_t>(first, 0, dim) : std::clamp<int64_t>(first, 0, dim - 1);
    src.offset += first * c.t(x).strides[size_t(a)];
    src.strides[size_t(a)] *= step;
    const int64_t last = first + (os[size_t(a)] - 1) * step;
    if (os[size_t(a)] > 0 && (last < 0 || last >= dim))
      throw Unsupported("slice reads outside its input");
  }
  const int y = c.out();
  c.pl.calls.push_back(c.b.pointwise("copy", {src}, c.b.whole(y), os, "copy (slice)"));
}

void plan_transpose(Ctx &c) {
  const int x = c.in(0);
  const std::vector<int64_t> xs = c.t(x).shape;
  std::vector<int64_t> perm(xs.size());
  for (size_t d = 0; d < xs.size(); ++d)
    perm[d] = int64_t(xs.size() - 1 - d);
  perm = c.l.attrs.get_ints("perm", perm);
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (size_t d = 0; d < sorted.size(); ++d)
    if (sorted[d] != int64_t(d) || sorted.size() != xs.size())
      throw Unsupported("perm is not a permutation of the input dims");
  StridedView src{x, 0, {}};
  for (int64_t p : perm)
    src.strides.push_back(c.t(x).strides[size_t(p)]);
  const int y = c.out();
  c.pl.calls.push_back(
      c.b.pointwise("copy", {src}, c.b.whole(y), c.out_shape(), "copy (transpose)"));
}

/// out[i, :] = table[indices[i], :]; the indices are a graph input or constant, drawn below
/// the table's rows.
void gather_call(Ctx &c, int table, int indices) {
  PlanTensor &it = c.b.plan.tensors[size_t(indices)];
  if (it.dtype != DType::int64 || (it.role != TensorRole::input && it.role != TensorRole::constant))
    throw Unsupported("indices " + it.name + " are not an integer graph input or constant");
  const std::vector<int64_t> ts = c.t(table).shape;
  it.index_bound = it.index_bound ? std::min(it.index_bound, ts[0]) : ts[0];
  const int y = c.out(0, row_major_strides(c.out_shape()));
  PlanCall call;
  call.kind = CallKind::gather_rows;
  call.library = "own";
  call.rows.rows = c.b.numel(indices);
  call.rows.cols = prod(ts, 1);
  if (c.b.numel(y) != call.rows.rows * call.rows.cols)
    throw Unsupported("output shape does not match indices x row length");
  call.in = {c.b.whole(table), c.b.whole(indices)};
  call.out = c.b.whole(y);
  call.bytes = 2.0 * c.b.bytes(y) + c.b.bytes(indices);
  call.what = "gather " + std::to_string(call.rows.rows) + " rows of " +
              std::to_string(call.rows.cols) + " from " + dims(ts);
  c.pl.calls.push_back(std::move(call));
}

void plan_gather(Ctx &c) {
  const std::vector<int> ops = c.operands();
  if (ops.size() != 2)
    throw Unsupported("gather takes data and indices");
  // As the shape rule reads it: data then indices as inputs, or indices as the input and the
  // data a parameter.
  const size_t data = c.l.inputs.size() >= 2 ? 0 : 1;
  if (c.axis("axis", 0, c.t(ops[data]).shape.size()) != 0)
    throw Unsupported("gather along an axis other than 0");
  gather_call(c, ops[data], ops[1 - data]);
}

void plan_embedding(Ctx &c) {
  if (c.l.params.empty() || c.l.params[0].shape.size() != 2)
    throw Unsupported("embedding without a [num_embeddings, embedding_dim] table");
  const int indices = c.in(0);
  gather_call(c, c.param(0), indices);
}

void plan_view(Ctx &c) {
  const int x = c.in(0);
  const std::vector<int64_t> os = c.out_shape();
  if (c.b.numel(x) != prod(os)) { // a shape-only op (ONNX Shape): a buffer, no work
    c.out();
    return;
  }
  if (c.t(x).shape == os) { // identity, dropout: the same tensor
    c.b.plan.tensors[size_t(c.out(0, c.t(x).strides))].alias = x;
    return;
  }
  if (c.b.row_major(x)) {
    c.b.plan.tensors[size_t(c.out(0, row_major_strides(os)))].alias = x;
    return;
  }
  // A reshape of a channels-last tensor reads its elements in another order: a copy to
  // row-major (as PyTorch's reshape of a channels-last tensor copies).
  const int y = c.out(0, row_major_strides(os));
  const std::vector<int64_t> xs = c.t(x).shape;
  c.pl.calls.push_back(c.b.pointwise("copy", {c.b.whole(x)}, {y, 0, row_major_strides(xs)}, xs,
                                     "copy (channels-last to row-major)"));
}

} // namespace

void plan_layer(Builder &b, const Layer &l, PlannedLayer &pl) {
  Ctx c{b, l, pl};
  if (!l.fused.empty())
    throw Unsupported("a fused layer (--fusion): the GPU executor runs layers as written");
  if (l.inputs.empty() && l.params.empty() && l.op != OpKind::generic) {
    // Nothing to read (an importer's folded constant): its output is a constant, never run.
    for (size_t i = 0; i < l.outputs.size(); ++i)
      b.plan.tensors[size_t(c.out(i))].role = TensorRole::constant;
    pl.path = "constant";
    return;
  }
  switch (l.op) {
  case OpKind::conv2d:
    plan_conv(c);
    break;
  case OpKind::linear:
    plan_linear(c);
    break;
  case OpKind::matmul:
    plan_matmul(c);
    break;
  case OpKind::activation:
    plan_activation(c);
    return; // its own function is the layer's activation
  case OpKind::elementwise:
    plan_elementwise(c);
    break;
  case OpKind::batch_norm:
    plan_batch_norm(c);
    break;
  case OpKind::layer_norm:
    plan_rows(c, CallKind::layer_norm);
    break;
  case OpKind::softmax:
    plan_rows(c, CallKind::softmax);
    break;
  case OpKind::max_pool:
  case OpKind::avg_pool:
  case OpKind::global_avg_pool:
  case OpKind::global_max_pool:
    plan_pool(c);
    break;
  case OpKind::concat:
    plan_concat(c);
    break;
  case OpKind::split:
    plan_split(c);
    break;
  case OpKind::slice:
    plan_slice(c);
    break;
  case OpKind::transpose:
    plan_transpose(c);
    break;
  case OpKind::gather:
    plan_gather(c);
    break;
  case OpKind::embedding:
    plan_embedding(c);
    break;
  case OpKind::flatten:
  case OpKind::reshape:
  case OpKind::dropout:
  case OpKind::identity:
    plan_view(c);
    break;
  case OpKind::conv_transpose2d:
    throw Unsupported("transposed convolution (cuDNN backward data) is not in the GPU executor");
  case OpKind::reduce:
    throw Unsupported("reductions have no kernel in the GPU executor");
  case OpKind::generic:
    throw Unsupported("op '" + l.op_name + "' has no GPU kernel");
  }
  if (!l.activation.empty() && !l.outputs.empty())
    c.activation_in_place(l.activation, b.find(l.outputs[0]));
}

} // namespace perfmodel::kernels::gpu_plan::detail
