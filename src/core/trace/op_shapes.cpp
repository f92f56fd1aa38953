// Rules from aten operator names + "Input Dims" to one-layer graphs (see op_shapes.hpp).
#include "perfmodel/trace/op_shapes.hpp"

#include <functional>
#include <unordered_map>

#include "perfmodel/error.hpp"

namespace perfmodel::trace {
namespace {

using Args = std::vector<Dims>;

const Dims &arg(const Args &a, size_t i) {
  static const Dims none;
  return i < a.size() ? a[i] : none;
}

DType dtype_of(const TraceEvent &e) {
  std::string s = e.input_types.empty() ? "" : e.input_types[0];
  if (s == "c10::Half" || s == "Half")
    return DType::fp16;
  if (s == "c10::BFloat16" || s == "BFloat16")
    return DType::bf16;
  if (s == "double")
    return DType::fp64;
  return DType::fp32; // "float", or not recorded (traces without record_shapes types)
}

// Builds graph inputs x0, x1, ... and one layer "op" reading them; infers shapes.
struct LayerSpec {
  OpKind op;
  std::string op_name;
  std::vector<Dims> inputs;
  Attributes attrs;
  std::optional<Dims> output; // checked against the shape rule when given
};

OpModel build(const LayerSpec &s, DType dt, OpPart part) {
  OpModel m;
  m.part = part;
  Graph &g = m.graph;
  const std::string op_name = s.op_name.empty() ? std::string(to_string(s.op)) : s.op_name;
  g.name = op_name;
  g.dtype = dt;
  Layer l;
  l.name = "op";
  l.op = s.op;
  l.op_name = op_name;
  l.attrs = s.attrs;
  l.dtype = dt;
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    std::string n = "x" + std::to_string(i);
    g.inputs.push_back(TensorDesc{n, s.inputs[i], dt});
    l.inputs.push_back(n);
  }
  l.outputs = {"y"};
  g.layers.push_back(std::move(l));
  infer_shapes(g);
  if (s.output && g.tensor("y").shape != *s.output)
    throw InputError("the rule gives " + shape_str(g.tensor("y").shape, 'x') +
                     ", the trace records " + shape_str(*s.output, 'x'));
  return m;
}

// Smallest stride s >= 1 with n / s == q (integer division), if any: s = n / (q + 1) + 1.
std::optional<int64_t> smallest_divisor_for(int64_t n, int64_t q) {
  if (n < 0 || q < 0)
    return std::nullopt;
  const int64_t s = n / (q + 1) + 1;
  return n / s == q ? std::optional<int64_t>(s) : std::nullopt;
}

// Smallest (stride, pad), by stride then pad, with out == (in + 2 pad - k) / stride + 1,
// dilation 1, stride <= max(in, 1) and pad < k. O(k): for each pad the valid strides form an
// interval whose first element is computed, so huge recorded shapes cannot make this loop for
// ever; kernels wider than 2^20 (none real) are not searched.
std::optional<std::pair<int64_t, int64_t>> window_for(int64_t in, int64_t k, int64_t out) {
  if (k > (int64_t{1} << 20) || in > (int64_t{1} << 50))
    return std::nullopt;
  std::optional<std::pair<int64_t, int64_t>> best;
  for (int64_t p = 0; p < std::max<int64_t>(k, 1); ++p) {
    const auto s = smallest_divisor_for(in + 2 * p - k, out - 1);
    if (s && *s <= std::max<int64_t>(in, 1) && (!best || *s < best->first))
      best = std::make_pair(*s, p);
  }
  return best;
}

struct Ctx {
  const Trace &t;
  const OpTree &tree;
  int node;
  const ShapeHints &hints;
  const TraceEvent &e;
  std::string *why;

  std::nullopt_t no(const std::string &reason) const {
    if (why)
      *why = reason;
    return std::nullopt;
  }
  const TraceEvent *parent() const {
    int p = tree.nodes[node].parent;
    if (p < 0 || tree.nodes[p].event == OpTree::npos)
      return nullptr;
    return &t.events[tree.nodes[p].event];
  }
  bool has_child(const std::string &name) const {
    for (int c : tree.nodes[node].children)
      if (t.events[tree.nodes[c].event].name == name)
        return true;
    return false;
  }
};

std::optional<OpModel> conv(const Ctx &c, const Dims &x, const Dims &w, const Dims &y, bool bias,
                            OpPart part) {
  if (x.size() != 4 || w.size() != 4 || y.size() != 4)
    return c.no("convolution input, weight or output shape not recorded");
  if (w[1] <= 0 || x[1] % w[1] != 0)
    return c.no("weight channels do not divide input channels");
  auto sh = window_for(x[2], w[2], y[2]), sw = window_for(x[3], w[3], y[3]);
  if (!sh || !sw)
    return c.no("no stride/padding gives the recorded output shape");
  LayerSpec s{OpKind::conv2d, "", {x}, {}, y};
  s.attrs.set("out_channels", w[0]);
  s.attrs.set("kernel", std::vector<int64_t>{w[2], w[3]});
  s.attrs.set("stride", std::vector<int64_t>{sh->first, sw->first});
  s.attrs.set("pad", std::vector<int64_t>{sh->second, sw->second});
  s.attrs.set("groups", x[1] / w[1]);
  s.attrs.set("bias", int64_t{bias ? 1 : 0});
  return build(s, dtype_of(c.e), part);
}

// Argument `i` of "Concrete Inputs" (PyTorch >= 2.1) as `n` integers: "[2, 2]" or "2" (broadcast);
// nullopt for "", "same", "False", ...
std::optional<std::vector<int64_t>> concrete_ints(const TraceEvent &e, int i, size_t n) {
  if (i < 0 || static_cast<size_t>(i) >= e.concrete_inputs.size())
    return std::nullopt;
  std::string s = e.concrete_inputs[i];
  std::vector<int64_t> v;
  std::string cur;
  for (char ch : s + ",") {
    if (ch == '[' || ch == ']' || ch == ' ')
      continue;
    if (ch != ',') {
      cur += ch;
      continue;
    }
    if (cur.empty())
      continue;
    size_t used = 0;
    try {
      v.push_back(std::stoll(cur, &used));
    } catch (const std::exception &) {
      return std::nullopt;
    }
    if (used != cur.size())
      return std::nullopt;
    cur.clear();
  }
  if (v.size() == 1 && n > 1)
    v.assign(n, v[0]);
  if (v.size() != n)
    return std::nullopt;
  return v;
}

// Positions of stride, padding, dilation, groups and transposed in each op's signature.
struct ConvArgPos {
  int stride, pad, dilation, groups, transposed;
};
std::optional<ConvArgPos> conv_arg_positions(const std::string &name) {
  if (name == "aten::convolution" || name == "aten::_convolution")
    return ConvArgPos{3, 4, 5, 8, 6};
  if (name == "aten::conv2d")
    return ConvArgPos{3, 4, 5, 6, -1};
  if (name == "aten::cudnn_convolution")
    return ConvArgPos{3, 2, 4, 5, -1}; // PyTorch 2 order
  return std::nullopt;
}

// A forward convolution whose stride, padding, dilation and groups the trace records.
std::optional<OpModel> conv_concrete(const Ctx &c, const Dims &x, const Dims &w, bool bias) {
  auto pos = conv_arg_positions(c.e.name);
  if (!pos || x.size() != 4 || w.size() != 4)
    return std::nullopt;
  auto stride = concrete_ints(c.e, pos->stride, 2), pad = concrete_ints(c.e, pos->pad, 2),
       dil = concrete_ints(c.e, pos->dilation, 2), groups = concrete_ints(c.e, pos->groups, 1);
  if (!stride || !pad || !dil || !groups)
    return std::nullopt;
  if (pos->transposed >= 0 && c.e.concrete_inputs.at(pos->transposed) != "False")
    return std::nullopt;
  LayerSpec s{OpKind::conv2d, "", {x}, {}, std::nullopt};
  s.attrs.set("out_channels", w[0]);
  s.attrs.set("kernel", std::vector<int64_t>{w[2], w[3]});
  s.attrs.set("stride", *stride);
  s.attrs.set("pad", *pad);
  s.attrs.set("dilation", *dil);
  s.attrs.set("groups", (*groups)[0]);
  s.attrs.set("bias", int64_t{bias ? 1 : 0});
  return build(s, dtype_of(c.e), OpPart::fwd);
}

std::optional<OpModel> conv_fwd(const Ctx &c, const Args &a) {
  const Dims &x = arg(a, 0), &w = arg(a, 1), &b = arg(a, 2);
  if (auto m = conv_concrete(c, x, w, b.size() == 1 && !w.empty() && b[0] == w[0]))
    return m;
  auto it = c.hints.conv_out.find({x, w});
  if (it == c.hints.conv_out.end())
    return c.no("output shape not recorded (no backward convolution with these shapes)");
  if (it->second.size() != 1)
    return c.no("ambiguous output shape for these input shapes");
  return conv(c, x, w, *it->second.begin(), b.size() == 1 && !w.empty() && b[0] == w[0],
              OpPart::fwd);
}

std::optional<OpModel> conv_bwd_part(const Ctx &c, OpPart part) {
  const TraceEvent *p = c.parent();
  if (!p || p->name != "aten::cudnn_convolution_backward")
    return c.no("input shape not recorded (no parent convolution_backward)");
  const Args &a = p->input_dims;
  return conv(c, arg(a, 0), arg(a, 2), arg(a, 1), false, part);
}

std::optional<OpModel> unary(const Ctx &c, OpKind op, const char *fn, const Dims &x, OpPart part) {
  if (x.empty())
    return c.no("tensor shape not recorded");
  LayerSpec s{op, fn, {x}, {}, std::nullopt};
  if (*fn)
    s.attrs.set("function", std::string(fn));
  return build(s, dtype_of(c.e), part);
}

std::optional<OpModel> binary(const Ctx &c, const char *fn, const Args &a) {
  const Dims &x = arg(a, 0), &y = arg(a, 1);
  if (x.empty())
    return c.no("tensor shape not recorded");
  // An empty second shape is a Python scalar: one tensor read, one written.
  LayerSpec s{OpKind::elementwise, fn, {x}, {}, std::nullopt};
  if (!y.empty())
    s.inputs.push_back(y);
  s.attrs.set("function", std::string(fn));
  return build(s, dtype_of(c.e), OpPart::fwd);
}

// A pooling op whose window the trace records: (self, kernel, stride, padding, ...). For
// avg_pool2d ceil_mode is argument 4, for max_pool2d argument 5 (after dilation).
std::optional<OpModel> pool_concrete(const Ctx &c, OpKind op, const Dims &x, OpPart part) {
  auto kernel = concrete_ints(c.e, 1, 2), pad = concrete_ints(c.e, 3, 2);
  if (x.size() != 4 || !kernel || !pad)
    return std::nullopt;
  auto stride = concrete_ints(c.e, 2, 2);
  LayerSpec s{op, "", {x}, {}, std::nullopt};
  s.attrs.set("kernel", *kernel);
  s.attrs.set("stride", stride ? *stride : *kernel); // an empty stride means the kernel
  s.attrs.set("pad", *pad);
  const int ceil_at = op == OpKind::max_pool ? 5 : 4;
  if (op == OpKind::max_pool) {
    auto dil = concrete_ints(c.e, 4, 2);
    if (dil)
      s.attrs.set("dilation", *dil);
  }
  if (static_cast<size_t>(ceil_at) < c.e.concrete_inputs.size())
    s.attrs.set("ceil_mode", int64_t{c.e.concrete_inputs[ceil_at] == "True" ? 1 : 0});
  return build(s, dtype_of(c.e), part);
}

std::optional<OpModel> max_pool(const Ctx &c, const Dims &x, const Dims *y_known, OpPart part) {
  if (x.size() != 4)
    return c.no("pooling input shape not recorded");
  if (part == OpPart::fwd)
    if (auto m = pool_concrete(c, OpKind::max_pool, x, part))
      return m;
  Dims y;
  if (y_known && y_known->size() == 4) {
    y = *y_known;
  } else {
    auto it = c.hints.max_pool_out.find(x);
    if (it == c.hints.max_pool_out.end() || it->second.size() != 1)
      return c.no("output shape not recorded (no max_pool backward with this input)");
    y = *it->second.begin();
  }
  int64_t k[2] = {0, 0};
  for (int i = 0; i < 2; ++i) { // smallest window with kernel = stride, no padding:
    // (x - s) / s + 1 == x / s == y
    const auto s = smallest_divisor_for(x[2 + i], y[2 + i]);
    if (!s || *s > x[2 + i])
      return c.no("no pooling window gives the recorded output shape");
    k[i] = *s;
  }
  LayerSpec s{OpKind::max_pool, "", {x}, {}, y};
  s.attrs.set("kernel", std::vector<int64_t>{k[0], k[1]});
  s.attrs.set("stride", std::vector<int64_t>{k[0], k[1]});
  return build(s, dtype_of(c.e), part);
}

std::optional<OpModel> gemm(const Ctx &c, const Dims &a, const Dims &b, const Dims *bias) {
  if (a.size() < 2 || b.size() < 2)
    return c.no("matrix shapes not recorded");
  if (bias) { // addmm(bias, a, b) = linear layer with a [K x N] weight
    if (a.size() != 2 || b.size() != 2)
      return c.no("addmm needs 2-D matrices");
    LayerSpec s{OpKind::linear, "", {a}, {}, Dims{a[0], b[1]}};
    s.attrs.set("out_features", b[1]);
    s.attrs.set("bias", int64_t{bias->empty() ? 0 : 1});
    return build(s, dtype_of(c.e), OpPart::fwd);
  }
  LayerSpec s{OpKind::matmul, "", {a, b}, {}, std::nullopt};
  return build(s, dtype_of(c.e), OpPart::fwd);
}

using Rule = std::function<std::optional<OpModel>(const Ctx &, const Args &)>;

const std::unordered_map<std::string, Rule> &rules() {
  static const std::unordered_map<std::string, Rule> r = [] {
    std::unordered_map<std::string, Rule> m;
    for (const char *n : {"aten::cudnn_convolution", "aten::convolution", "aten::_convolution",
                          "aten::conv2d", "aten::mkldnn_convolution", "aten::thnn_conv2d"})
      m[n] = conv_fwd;
    m["aten::cudnn_convolution_backward"] = [](const Ctx &c, const Args &a) {
      return conv(c, arg(a, 0), arg(a, 2), arg(a, 1), false, OpPart::bwd);
    };
    m["aten::convolution_backward"] = [](const Ctx &c, const Args &a) {
      return conv(c, arg(a, 1), arg(a, 2), arg(a, 0), false, OpPart::bwd);
    };
    m["aten::cudnn_convolution_backward_input"] = [](const Ctx &c, const Args &) {
      return conv_bwd_part(c, OpPart::bwd_data);
    };
    m["aten::cudnn_convolution_backward_weight"] = [](const Ctx &c, const Args &) {
      return conv_bwd_part(c, OpPart::bwd_weight);
    };
    for (const char *n : {"aten::cudnn_batch_norm", "aten::native_batch_norm", "aten::batch_norm",
                          "aten::_batch_norm_impl_index"})
      m[n] = [](const Ctx &c, const Args &a) {
        return unary(c, OpKind::batch_norm, "", arg(a, 0), OpPart::fwd);
      };
    m["aten::cudnn_batch_norm_backward"] = [](const Ctx &c, const Args &a) {
      return unary(c, OpKind::batch_norm, "", arg(a, 0), OpPart::bwd);
    };
    m["aten::native_batch_norm_backward"] = [](const Ctx &c, const Args &a) {
      return unary(c, OpKind::batch_norm, "", arg(a, 1), OpPart::bwd);
    };
    for (const char *n : {"aten::relu", "aten::relu_", "aten::threshold", "aten::threshold_"})
      m[n] = [](const Ctx &c, const Args &a) {
        return unary(c, OpKind::activation, "relu", arg(a, 0), OpPart::fwd);
      };
    m["aten::threshold_backward"] = [](const Ctx &c, const Args &a) {
      return unary(c, OpKind::activation, "relu", arg(a, 1), OpPart::bwd_data);
    };
    for (const char *n : {"aten::add", "aten::add_"})
      m[n] = [](const Ctx &c, const Args &a) { return binary(c, "add", a); };
    for (const char *n : {"aten::mul", "aten::mul_"})
      m[n] = [](const Ctx &c, const Args &a) { return binary(c, "mul", a); };
    for (const char *n : {"aten::max_pool2d_with_indices", "aten::max_pool2d"})
      m[n] = [](const Ctx &c, const Args &a) {
        return max_pool(c, arg(a, 0), nullptr, OpPart::fwd);
      };
    m["aten::max_pool2d_with_indices_backward"] = [](const Ctx &c, const Args &a) {
      return max_pool(c, arg(a, 1), &arg(a, 0), OpPart::bwd_data);
    };
    m["aten::avg_pool2d"] = [](const Ctx &c, const Args &a) -> std::optional<OpModel> {
      if (auto m = pool_concrete(c, OpKind::avg_pool, arg(a, 0), OpPart::fwd))
        return m;
      return c.no("pooling window not recorded (no Concrete Inputs)");
    };
    for (const char *n : {"aten::adaptive_avg_pool2d", "aten::_adaptive_avg_pool2d"})
      m[n] = [](const Ctx &c, const Args &a) -> std::optional<OpModel> {
        if (!c.has_child("aten::mean"))
          return c.no("output size not recorded");
        return unary(c, OpKind::global_avg_pool, "", arg(a, 0), OpPart::fwd);
      };
    for (const char *n :
         {"aten::softmax", "aten::_softmax", "aten::log_softmax", "aten::_log_softmax"})
      m[n] = [](const Ctx &c, const Args &a) {
        return unary(c, OpKind::softmax, "", arg(a, 0), OpPart::fwd);
      };
    for (const char *n : {"aten::_softmax_backward_data", "aten::_log_softmax_backward_data"})
      m[n] = [](const Ctx &c, const Args &a) {
        return unary(c, OpKind::softmax, "", arg(a, 0), OpPart::bwd_data);
      };
    for (const char *n : {"aten::layer_norm", "aten::native_layer_norm"})
      m[n] = [](const Ctx &c, const Args &a) -> std::optional<OpModel> {
        const Dims &x = arg(a, 0), &w = arg(a, 2);
        if (x.empty())
          return c.no("tensor shape not recorded");
        LayerSpec s{OpKind::layer_norm, "", {x}, {}, std::nullopt};
        s.attrs.set("axis", static_cast<int64_t>(x.size() - std::max<size_t>(w.size(), 1)));
        s.attrs.set("elementwise_affine", int64_t{w.empty() ? 0 : 1});
        return build(s, dtype_of(c.e), OpPart::fwd);
      };
    m["aten::addmm"] = [](const Ctx &c, const Args &a) {
      return gemm(c, arg(a, 1), arg(a, 2), &arg(a, 0));
    };
    for (const char *n : {"aten::mm", "aten::bmm", "aten::matmul"})
      m[n] = [](const Ctx &c, const Args &a) { return gemm(c, arg(a, 0), arg(a, 1), nullptr); };
    m["aten::linear"] = [](const Ctx &c, const Args &a) -> std::optional<OpModel> {
      const Dims &x = arg(a, 0), &w = arg(a, 1), &b = arg(a, 2);
      if (x.empty() || w.size() != 2)
        return c.no("linear shapes not recorded");
      LayerSpec s{OpKind::linear, "", {x}, {}, std::nullopt};
      s.attrs.set("out_features", w[0]);
      s.attrs.set("bias", int64_t{b.empty() ? 0 : 1});
      return build(s, dtype_of(c.e), OpPart::fwd);
    };
    return m;
  }();
  return r;
}

} // namespace

std::string_view to_string(OpPart p) {
  switch (p) {
  case OpPart::fwd:
    return "fwd";
  case OpPart::bwd_data:
    return "bwd_data";
  case OpPart::bwd_weight:
    return "bwd_weight";
  case OpPart::bwd:
    return "bwd";
  }
  return "?";
}

ShapeHints collect_shape_hints(const Trace &t) {
  ShapeHints h;
  for (const TraceEvent &e : t.events) {
    if (e.kind != EventKind::op)
      continue;
    const Args &a = e.input_dims;
    if (e.name == "aten::cudnn_convolution_backward" && arg(a, 1).size() == 4)
      h.conv_out[{arg(a, 0), arg(a, 2)}].insert(arg(a, 1));
    else if (e.name == "aten::convolution_backward" && arg(a, 0).size() == 4)
      h.conv_out[{arg(a, 1), arg(a, 2)}].insert(arg(a, 0));
    else if (e.name == "aten::max_pool2d_with_indices_backward" && arg(a, 0).size() == 4)
      h.max_pool_out[arg(a, 1)].insert(arg(a, 0));
  }
  return h;
}

bool has_shape_rule(const std::string &name) { return rules().count(name) != 0; }

Layout recorded_layout(const TraceEvent &e) {
  for (size_t i = 0; i < e.input_dims.size() && i < e.input_strides.size(); ++i) {
    const Dims &d = e.input_dims[i], &st = e.input_strides[i];
    if (d.size() != 4 || st.size() != 4)
      continue;
    // Channels-last: the channels adjacent (stride 1) and a pixel C elements on. With one
    // channel, or one pixel and stride C along W as NCHW has too, both layouts are the same.
    return d[1] > 1 && st[1] == 1 && st[3] == d[1] && d[2] * d[3] > 1 ? Layout::nhwc
                                                                      : Layout::nchw;
  }
  return Layout::nchw;
}

std::optional<OpModel> model_op(const Trace &t, const OpTree &tree, int n, const ShapeHints &hints,
                                std::string *why) {
  const TraceEvent &e = t.events[tree.nodes[n].event];
  auto it = rules().find(e.name);
  if (it == rules().end()) {
    if (why)
      *why = "no shape rule for this operator";
    return std::nullopt;
  }
  Ctx c{t, tree, n, hints, e, why};
  try {
    std::optional<OpModel> m = it->second(c, e.input_dims);
    if (m)
      m->graph.layout = recorded_layout(e);
    return m;
  } catch (const InputError &err) { // shapes that contradict the op's rule
    return c.no("shapes rejected: " + err.message());
  }
}

std::string dims_label(const TraceEvent &e) {
  std::string s;
  for (const Dims &d : e.input_dims) {
    if (d.empty())
      continue;
    if (!s.empty())
      s += ", ";
    s += shape_str(d, 'x');
  }
  return s;
}

} // namespace perfmodel::trace
