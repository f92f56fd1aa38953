// ONNX operator -> IR layer rules (the table is in docs/onnx.md). Nodes reach here only when
// at least one input is an activation; shape-only nodes were dropped before.
#include <algorithm>
#include <map>

#include "io/onnx/onnx_context.hpp"

namespace perfmodel::io::onnx_import {

namespace {

std::vector<std::string> first_output(const onnx::NodeProto &n) { return {n.output(0)}; }

std::string input(const onnx::NodeProto &n, int i) { return i < n.input_size() ? n.input(i) : ""; }

// Window geometry shared by Conv, ConvTranspose and the pools: kernel, stride, dilation and
// pads ([top, left] when symmetric, [top, left, bottom, right] otherwise); auto_pad resolved
// from the inferred output size.
void window(Context &c, const onnx::NodeProto &n, Layer &l, const Shape &kernel, bool dilations) {
  auto stride = attr_ints(n, "strides").value_or(std::vector<int64_t>{1, 1});
  auto dil = attr_ints(n, "dilations").value_or(std::vector<int64_t>{1, 1});
  std::vector<int64_t> pads = attr_ints(n, "pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
  const std::string autopad = attr_string(n, "auto_pad", "NOTSET");
  if (autopad == "SAME_UPPER" || autopad == "SAME_LOWER") {
    const Shape &in = c.info(n.input(0)).shape;
    const Shape &out = c.info(n.output(0)).shape;
    for (int i = 0; i < 2; ++i) {
      const int64_t total = std::max<int64_t>(0, (out[2 + i] - 1) * stride[i] +
                                                     dil[i] * (kernel[i] - 1) + 1 - in[2 + i]);
      const int64_t small = total / 2, big = total - small;
      pads[i] = autopad == "SAME_UPPER" ? small : big;
      pads[2 + i] = autopad == "SAME_UPPER" ? big : small;
    }
  } else if (autopad == "VALID") {
    pads = {0, 0, 0, 0};
  }
  l.attrs.set("kernel", std::vector<int64_t>(kernel.begin(), kernel.end()));
  l.attrs.set("stride", stride);
  if (dilations)
    l.attrs.set("dilation", dil);
  if (pads.size() == 4 && pads[0] == pads[2] && pads[1] == pads[3])
    l.attrs.set("pad", std::vector<int64_t>{pads[0], pads[1]});
  else
    l.attrs.set("pad", pads);
}

void conv(Context &c, const onnx::NodeProto &n, int index, bool transposed) {
  const std::string x = n.input(0), w = input(n, 1), b = input(n, 2);
  if (!c.is_act(x) || w.empty() || c.is_act(w))
    return c.add_generic(n, index, n.op_type() + " (computed weights)");
  const Shape &ws = c.info(w).shape;
  if (ws.size() != 4 || c.info(x).shape.size() != 4)
    return c.add_generic(n, index, n.op_type() + " (not 2-D)");
  const int64_t groups = attr_int(n, "group", 1);
  Layer l = c.new_layer(n, index, transposed ? OpKind::conv_transpose2d : OpKind::conv2d);
  l.inputs = {x};
  l.attrs.set("out_channels", transposed ? ws[1] * groups : ws[0]);
  l.attrs.set("groups", groups);
  l.attrs.set("bias", int64_t{b.empty() ? 0 : 1});
  Shape kernel{ws[2], ws[3]};
  if (auto k = attr_ints(n, "kernel_shape"))
    kernel = Shape(k->begin(), k->end());
  window(c, n, l, kernel, true);
  if (transposed) {
    auto op = attr_ints(n, "output_padding").value_or(std::vector<int64_t>{0, 0});
    l.attrs.set("output_padding", op);
    if (attr_ints(n, "output_shape")) { // pads follow from the requested output size
      const Shape &in = c.info(x).shape;
      const Shape &out = c.info(n.output(0)).shape;
      auto st = l.attrs.get_ints("stride", {1, 1}, 2), d = l.attrs.get_ints("dilation", {1, 1}, 2);
      std::vector<int64_t> pads(4);
      for (int i = 0; i < 2; ++i) {
        const int64_t total =
            (in[2 + i] - 1) * st[i] + d[i] * (kernel[i] - 1) + op[i] + 1 - out[2 + i];
        pads[i] = total / 2;
        pads[2 + i] = total - total / 2;
      }
      l.attrs.set("pad", pads);
    }
  }
  l.params.push_back(c.param_desc(w, l.name + ".weight", false));
  if (!b.empty())
    l.params.push_back(c.param_desc(b, l.name + ".bias", false));
  c.finish(l, first_output(n));
}

// A constant B ([in, out], or [out, in] with transB) makes a linear layer; its weight is
// described as [out, in] like the IR's linear rule (same elements, same bytes).
void linear(Context &c, const onnx::NodeProto &n, int index, const std::string &a,
            const std::string &b, bool trans_b, const std::string &bias,
            const std::vector<std::string> &outputs) {
  const Shape &bs = c.info(b).shape;
  const int64_t out = trans_b ? bs[0] : bs[1], in = trans_b ? bs[1] : bs[0];
  Layer l = c.new_layer(n, index, OpKind::linear);
  l.inputs = {a};
  l.attrs.set("out_features", out);
  l.attrs.set("bias", int64_t{bias.empty() ? 0 : 1});
  TensorDesc w = c.param_desc(b, l.name + ".weight", !c.is_weight(b));
  w.shape = {out, in};
  l.params.push_back(w);
  if (!bias.empty()) {
    TensorDesc bd = c.param_desc(bias, l.name + ".bias", !c.is_weight(bias));
    bd.shape = {numel(bd.shape)};
    l.params.push_back(bd);
  }
  c.finish(l, outputs);
}

void matmul(Context &c, const onnx::NodeProto &n, int index) {
  const std::string a = n.input(0), b = n.input(1);
  if (!c.is_act(a))
    return c.add_generic(n, index, "MatMul (constant first operand)");
  if (c.is_act(b)) {
    Layer l = c.new_layer(n, index, OpKind::matmul);
    l.inputs = {a, b};
    return c.finish(l, first_output(n));
  }
  const Shape &bs = c.info(b).shape;
  if (bs.size() != 2) {
    Layer l = c.new_layer(n, index, OpKind::matmul);
    l.inputs = {a};
    l.params.push_back(c.param_desc(b, l.name + ".weight", !c.is_weight(b)));
    return c.finish(l, first_output(n));
  }
  // MatMul + Add(bias vector) as exported for nn.Linear on 3-D inputs: one linear layer.
  std::string bias, out = n.output(0);
  const auto &users = c.users(out);
  if (users.size() == 1) {
    const auto &add = c.g.node(users[0]);
    if (add.op_type() == "Add" && add.input_size() == 2) {
      const std::string other = add.input(0) == out ? add.input(1) : add.input(0);
      if (!c.is_act(other) && c.is_weight(other) && numel(c.info(other).shape) == bs[1] &&
          c.info(other).shape.back() == bs[1]) {
        bias = other;
        out = add.output(0);
        c.skip[users[0]] = true;
      }
    }
  }
  linear(c, n, index, a, b, false, bias, {out});
}

void gemm(Context &c, const onnx::NodeProto &n, int index) {
  const std::string a = n.input(0), b = n.input(1), bias = input(n, 2);
  const bool trans_b = attr_int(n, "transB", 0) != 0;
  if (attr_int(n, "transA", 0) || !c.is_act(a) || c.is_act(b) || (!bias.empty() && c.is_act(bias)))
    return c.add_generic(n, index, "Gemm (transA or computed B/C)");
  const int64_t out = trans_b ? c.info(b).shape[0] : c.info(b).shape[1];
  if (!bias.empty() && numel(c.info(bias).shape) != out)
    return c.add_generic(n, index, "Gemm (C is not a bias vector)");
  linear(c, n, index, a, b, trans_b, bias, first_output(n));
}

void batch_norm(Context &c, const onnx::NodeProto &n, int index) {
  for (int i = 1; i < 5; ++i)
    if (c.is_act(input(n, i)) || input(n, i).empty())
      return c.add_generic(n, index, "BatchNormalization (computed statistics)");
  Layer l = c.new_layer(n, index, OpKind::batch_norm);
  l.inputs = {n.input(0)};
  const char *roles[] = {"weight", "bias", "running_mean", "running_var"};
  for (int i = 1; i < 5; ++i)
    l.params.push_back(c.param_desc(n.input(i), l.name + "." + roles[i - 1], i >= 3));
  c.finish(l, first_output(n));
}

void unary(Context &c, const onnx::NodeProto &n, int index, OpKind op, const std::string &fn) {
  Layer l = c.new_layer(n, index, op);
  l.attrs.set("function", fn);
  l.inputs = {n.input(0)};
  if (op == OpKind::activation && fn == "leaky_relu")
    l.attrs.set("alpha", attr_float(n, "alpha", 0.01));
  c.finish(l, first_output(n));
}

void clip(Context &c, const onnx::NodeProto &n, int index) {
  double lo = attr_float(n, "min", -1e300), hi = attr_float(n, "max", 1e300);
  if (auto v = c.values(input(n, 1)); v && v->size() == 1)
    lo = (*v)[0];
  if (auto v = c.values(input(n, 2)); v && v->size() == 1)
    hi = (*v)[0];
  unary(c, n, index, OpKind::activation, lo == 0.0 && hi == 6.0 ? "relu6" : "clip");
}

void elementwise(Context &c, const onnx::NodeProto &n, int index, const std::string &fn) {
  Layer l = c.new_layer(n, index, OpKind::elementwise);
  l.attrs.set("function", fn);
  for (const auto &in : n.input())
    c.add_operand(l, in);
  c.finish(l, first_output(n));
}

void reduce(Context &c, const onnx::NodeProto &n, int index, const std::string &fn) {
  Layer l = c.new_layer(n, index, OpKind::reduce);
  l.attrs.set("function", fn);
  l.inputs = {n.input(0)};
  std::optional<std::vector<int64_t>> axes = attr_ints(n, "axes");
  if (!axes && n.input_size() > 1) {
    auto v = c.values(n.input(1));
    if (!v)
      return c.add_generic(n, index, n.op_type() + " (computed axes)");
    axes = std::vector<int64_t>(v->begin(), v->end());
  }
  if (axes && !axes->empty())
    l.attrs.set("axes", *axes);
  l.attrs.set("keepdims", attr_int(n, "keepdims", 1));
  c.finish(l, first_output(n));
}

void pool(Context &c, const onnx::NodeProto &n, int index, OpKind op) {
  if (c.info(n.input(0)).shape.size() != 4)
    return c.add_generic(n, index, n.op_type() + " (not 2-D)");
  auto k = attr_ints(n, "kernel_shape").value_or(std::vector<int64_t>{});
  if (k.size() != 2)
    return c.add_generic(n, index, n.op_type() + " (not 2-D)");
  Layer l = c.new_layer(n, index, op);
  l.inputs = {n.input(0)};
  window(c, n, l, Shape(k.begin(), k.end()), op == OpKind::max_pool);
  l.attrs.set("ceil_mode", attr_int(n, "ceil_mode", 0));
  if (op == OpKind::avg_pool)
    l.attrs.set("count_include_pad", attr_int(n, "count_include_pad", 0));
  c.finish(l, first_output(n));
}

// Reshape-like views (Reshape, Squeeze, Unsqueeze): the target is the inferred output shape.
void view(Context &c, const onnx::NodeProto &n, int index, const std::string &out,
          const std::string &suffix = "", const std::string &in = "") {
  Layer l = c.new_layer(n, index, OpKind::reshape, suffix);
  l.inputs = {in.empty() ? n.input(0) : in};
  l.attrs.set("shape", c.info(out).shape);
  c.finish(l, {out});
}

void slice_layer(Context &c, const onnx::NodeProto &n, int index, const std::string &in,
                 const std::string &out, std::vector<int64_t> starts, std::vector<int64_t> ends,
                 std::vector<int64_t> axes, std::vector<int64_t> steps, const Shape &out_shape) {
  Layer l = c.new_layer(n, index, OpKind::slice);
  l.inputs = {in};
  l.attrs.set("starts", starts);
  l.attrs.set("ends", ends);
  l.attrs.set("axes", axes);
  if (!steps.empty())
    l.attrs.set("steps", steps);
  l.outputs = {out};
  l.output_shapes = {declared(out_shape)};
  c.activations.insert(out);
  l.dtype = c.dtype_of(in);
  c.graph.layers.push_back(std::move(l));
}

// Slice: the constant starts/ends/axes/steps when known, else the extent of the inferred output.
void slice(Context &c, const onnx::NodeProto &n, int index) {
  const Shape &in = c.info(n.input(0)).shape;
  const Shape &out = c.info(n.output(0)).shape;
  std::vector<int64_t> s, e, a, st;
  auto starts = c.values(input(n, 1)), ends = c.values(input(n, 2));
  auto axes = c.values(input(n, 3)), steps = c.values(input(n, 4));
  const bool known =
      starts && ends && (input(n, 3).empty() || axes) && (input(n, 4).empty() || steps);
  auto clamp64 = [](double v) { return v > 9e18 ? INT64_MAX : v < -9e18 ? INT64_MIN : int64_t(v); };
  if (known) {
    for (size_t i = 0; i < starts->size(); ++i) {
      s.push_back(clamp64((*starts)[i]));
      e.push_back(clamp64((*ends)[i]));
      a.push_back(axes ? clamp64((*axes)[i]) : int64_t(i));
      if (steps)
        st.push_back(clamp64((*steps)[i]));
    }
  } else {
    for (size_t d = 0; d < in.size(); ++d)
      if (in[d] != out[d])
        s.push_back(0), e.push_back(out[d]), a.push_back(int64_t(d));
  }
  slice_layer(c, n, index, n.input(0), n.output(0), s, e, a, st, out);
}

// Gather of constant indices from an activation: a slice (plus a view dropping the axis for a
// scalar index), so it reads only the picked rows. Embedding lookups read rows of a weight.
void gather(Context &c, const onnx::NodeProto &n, int index) {
  const std::string data = n.input(0), idx = n.input(1);
  const int64_t axis = attr_int(n, "axis", 0);
  if (!c.is_act(data)) {
    Layer l = c.new_layer(n, index, OpKind::gather);
    l.attrs.set("axis", axis);
    l.inputs = {idx};
    l.params.push_back(c.param_desc(data, l.name + ".weight", !c.is_weight(data)));
    return c.finish(l, first_output(n));
  }
  if (c.is_act(idx)) {
    Layer l = c.new_layer(n, index, OpKind::gather);
    l.attrs.set("axis", axis);
    l.inputs = {data, idx};
    return c.finish(l, first_output(n));
  }
  const Shape &ds = c.info(data).shape;
  const int64_t ax = axis < 0 ? axis + int64_t(ds.size()) : axis;
  auto v = c.values(idx);
  const Shape &is = c.info(idx).shape;
  if (!v || v->empty() || is.size() > 1)
    return c.add_generic(n, index, "Gather (computed indices)");
  std::vector<int64_t> k;
  for (double x : *v)
    k.push_back(int64_t(x) < 0 ? int64_t(x) + ds[ax] : int64_t(x));
  for (size_t i = 1; i < k.size(); ++i)
    if (k[i] != k[i - 1] + 1)
      return c.add_generic(n, index, "Gather (non-contiguous indices)");
  Shape sliced = ds;
  sliced[ax] = int64_t(k.size());
  if (!is.empty())
    return slice_layer(c, n, index, data, n.output(0), {k[0]}, {k.back() + 1}, {ax}, {}, sliced);
  const std::string mid = n.output(0) + "/slice";
  slice_layer(c, n, index, data, mid, {k[0]}, {k[0] + 1}, {ax}, {}, sliced);
  view(c, n, index, n.output(0), "/squeeze", mid);
}

void split(Context &c, const onnx::NodeProto &n, int index) {
  Layer l = c.new_layer(n, index, OpKind::split);
  l.inputs = {n.input(0)};
  const int64_t axis = attr_int(n, "axis", 0);
  const Shape &in = c.info(n.input(0)).shape;
  const int64_t ax = axis < 0 ? axis + int64_t(in.size()) : axis;
  std::vector<int64_t> sizes;
  std::vector<std::string> outs(n.output().begin(), n.output().end());
  for (const auto &o : outs)
    sizes.push_back(c.info(o).shape.at(ax));
  l.attrs.set("axis", axis);
  l.attrs.set("split", sizes);
  c.finish(l, outs);
}

void simple(Context &c, const onnx::NodeProto &n, int index, OpKind op) {
  Layer l = c.new_layer(n, index, op);
  l.inputs = {n.input(0)};
  if (op == OpKind::softmax)
    l.attrs.set("axis", attr_int(n, "axis", c.opset >= 13 ? -1 : 1));
  if (op == OpKind::flatten)
    l.attrs.set("axis", attr_int(n, "axis", 1));
  if (op == OpKind::transpose) {
    auto perm = attr_ints(n, "perm");
    if (!perm) {
      perm.emplace();
      for (size_t i = c.info(n.input(0)).shape.size(); i-- > 0;)
        perm->push_back(int64_t(i));
    }
    l.attrs.set("perm", *perm);
  }
  c.finish(l, first_output(n));
}

const std::map<std::string, std::string> &activation_ops() {
  static const std::map<std::string, std::string> m = {
      {"Relu", "relu"},           {"Sigmoid", "sigmoid"},         {"Tanh", "tanh"},
      {"Gelu", "gelu"},           {"HardSigmoid", "hardsigmoid"}, {"HardSwish", "hardswish"},
      {"LeakyRelu", "leaky_relu"}};
  return m;
}

const std::map<std::string, std::string> &elementwise_ops() {
  static const std::map<std::string, std::string> m = {
      {"Add", "add"}, {"Sub", "sub"},     {"Mul", "mul"},
      {"Div", "div"}, {"Pow", "pow"},     {"Max", "max"},
      {"Min", "min"}, {"Where", "where"}, {"Sqrt", "sqrt"},
      {"Erf", "erf"}, {"Exp", "exp"},     {"Log", "log"},
      {"Neg", "neg"}, {"Abs", "abs"},     {"Reciprocal", "reciprocal"}};
  return m;
}

} // namespace

void map_node(Context &c, const onnx::NodeProto &n, int index) {
  const std::string &op = n.op_type();
  if (!n.domain().empty() && n.domain() != "ai.onnx")
    return c.add_generic(n, index, n.domain() + "." + op);
  if (op == "Conv")
    return conv(c, n, index, false);
  if (op == "ConvTranspose")
    return conv(c, n, index, true);
  if (op == "Gemm")
    return gemm(c, n, index);
  if (op == "MatMul")
    return matmul(c, n, index);
  if (op == "BatchNormalization")
    return batch_norm(c, n, index);
  if (op == "LayerNormalization") {
    Layer l = c.new_layer(n, index, OpKind::layer_norm);
    l.inputs = {n.input(0)};
    l.attrs.set("axis", attr_int(n, "axis", -1));
    c.add_operand(l, input(n, 1), "weight");
    c.add_operand(l, input(n, 2), "bias");
    return c.finish(l, first_output(n));
  }
  if (auto it = activation_ops().find(op); it != activation_ops().end())
    return unary(c, n, index, OpKind::activation, it->second);
  if (op == "Clip")
    return clip(c, n, index);
  if (auto it = elementwise_ops().find(op); it != elementwise_ops().end())
    return elementwise(c, n, index, it->second);
  if (op == "MaxPool")
    return pool(c, n, index, OpKind::max_pool);
  if (op == "AveragePool")
    return pool(c, n, index, OpKind::avg_pool);
  if (op == "GlobalAveragePool")
    return simple(c, n, index, OpKind::global_avg_pool);
  if (op == "GlobalMaxPool")
    return simple(c, n, index, OpKind::global_max_pool);
  if (op == "ReduceMean")
    return reduce(c, n, index, "mean");
  if (op == "ReduceSum")
    return reduce(c, n, index, "sum");
  if (op == "ReduceMax")
    return reduce(c, n, index, "max");
  if (op == "Softmax")
    return simple(c, n, index, OpKind::softmax);
  if (op == "Flatten")
    return simple(c, n, index, OpKind::flatten);
  if (op == "Transpose")
    return simple(c, n, index, OpKind::transpose);
  if (op == "Dropout")
    return simple(c, n, index, OpKind::dropout);
  if (op == "Identity")
    return simple(c, n, index, OpKind::identity);
  if (op == "Reshape" || op == "Squeeze" || op == "Unsqueeze")
    return view(c, n, index, n.output(0));
  if (op == "Concat") {
    for (const auto &in : n.input())
      if (!c.is_act(in))
        return c.add_generic(n, index, "Concat (constant input)");
    Layer l = c.new_layer(n, index, OpKind::concat);
    l.inputs.assign(n.input().begin(), n.input().end());
    l.attrs.set("axis", attr_int(n, "axis", 1));
    return c.finish(l, first_output(n));
  }
  if (op == "Gather")
    return gather(c, n, index);
  if (op == "Slice")
    return slice(c, n, index);
  if (op == "Split")
    return split(c, n, index);
  // Copies with no arithmetic: counted by the bytes they read and write (a rule, no warning).
  if (op == "Cast" || op == "Expand")
    return c.add_generic(n, index, "", 1);
  c.add_generic(n, index, op);
}

} // namespace perfmodel::io::onnx_import
