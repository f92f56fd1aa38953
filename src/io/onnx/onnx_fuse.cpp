// Fusions of decomposed exports: LayerNorm below opset 17 (ReduceMean, Sub, Pow, ReduceMean,
// Add, Sqrt, Div, then Mul and Add by the affine weights) into one layer_norm layer, and the
// erf GELU (Div by sqrt 2, Erf, Add 1, Mul by x, Mul by 0.5) into one gelu activation.
#include <cmath>

#include "io/onnx/onnx_context.hpp"

namespace perfmodel::io::onnx_import {

namespace {

// The only node reading `tensor` when it has `op` type, else null.
const onnx::NodeProto *sole_user(const Context &c, const std::string &tensor, const char *op,
                                 int *index = nullptr) {
  const auto &u = c.users(tensor);
  if (u.size() != 1 || c.g.node(u[0]).op_type() != op)
    return nullptr;
  if (index)
    *index = u[0];
  return &c.g.node(u[0]);
}

// The operand of a binary node that is not `tensor` ("" when both are, or arity differs).
std::string other(const onnx::NodeProto &n, const std::string &tensor) {
  if (n.input_size() != 2)
    return "";
  if (n.input(0) == tensor)
    return n.input(1);
  return n.input(1) == tensor ? n.input(0) : "";
}

bool scalar_is(const Context &c, const std::string &name, double value, double tol = 0) {
  auto v = c.values(name);
  return v && v->size() == 1 && std::abs((*v)[0] - value) <= tol;
}

bool last_axis(const Context &c, const onnx::NodeProto &reduce, size_t rank) {
  auto axes = attr_ints(reduce, "axes");
  if (!axes || axes->size() != 1)
    return false;
  return (*axes)[0] == -1 || (*axes)[0] == int64_t(rank) - 1;
}

} // namespace

bool fuse_layer_norm(Context &c, int index) {
  const auto &r1 = c.g.node(index);
  if (r1.op_type() != "ReduceMean" || r1.input_size() < 1)
    return false;
  const std::string x = r1.input(0);
  if (!c.is_act(x) || !last_axis(c, r1, c.info(x).shape.size()))
    return false;
  int i_sub, i_pow, i_r2, i_add, i_sqrt, i_div;
  const auto *sub = sole_user(c, r1.output(0), "Sub", &i_sub);
  if (!sub || sub->input(0) != x || sub->input(1) != r1.output(0))
    return false;
  const auto &su = c.users(sub->output(0));
  if (su.size() != 2)
    return false;
  i_pow = c.g.node(su[0]).op_type() == "Pow" ? su[0] : su[1];
  i_div = i_pow == su[0] ? su[1] : su[0];
  const auto &pw = c.g.node(i_pow);
  const auto &div = c.g.node(i_div);
  if (pw.op_type() != "Pow" || div.op_type() != "Div" || pw.input(0) != sub->output(0) ||
      !scalar_is(c, pw.input(1), 2.0) || div.input(0) != sub->output(0))
    return false;
  const auto *r2 = sole_user(c, pw.output(0), "ReduceMean", &i_r2);
  if (!r2 || !last_axis(c, *r2, c.info(x).shape.size()))
    return false;
  const auto *add = sole_user(c, r2->output(0), "Add", &i_add);
  if (!add)
    return false;
  const std::string eps = other(*add, r2->output(0));
  if (eps.empty() || c.is_act(eps) || numel(c.info(eps).shape) != 1)
    return false;
  const auto *sq = sole_user(c, add->output(0), "Sqrt", &i_sqrt);
  if (!sq || div.input(1) != sq->output(0) || c.users(sq->output(0)).size() != 1)
    return false;

  std::vector<int> group{index, i_sub, i_pow, i_r2, i_add, i_sqrt, i_div};
  std::string out = div.output(0), weight, bias;
  int i_mul, i_bias;
  if (const auto *mul = sole_user(c, out, "Mul", &i_mul)) {
    const std::string w = other(*mul, out);
    const auto *badd = sole_user(c, mul->output(0), "Add", &i_bias);
    const std::string b = badd ? other(*badd, mul->output(0)) : "";
    if (c.is_weight(w) && c.is_weight(b)) {
      weight = w;
      bias = b;
      out = badd->output(0);
      group.push_back(i_mul);
      group.push_back(i_bias);
    }
  }
  // Name the layer after the common node-name prefix ("/encoder/layers.0/norm1").
  std::string prefix = r1.name();
  for (int i : group) {
    const std::string &nm = c.g.node(i).name();
    size_t k = 0;
    while (k < prefix.size() && k < nm.size() && prefix[k] == nm[k])
      ++k;
    prefix.resize(k);
  }
  while (!prefix.empty() && prefix.back() != '/')
    prefix.pop_back();
  if (!prefix.empty())
    prefix.pop_back();
  onnx::NodeProto named = r1;
  named.set_name(prefix.empty() ? "LayerNorm_" + std::to_string(index) : prefix);
  named.set_op_type("LayerNormalization");
  Layer l = c.new_layer(named, index, OpKind::layer_norm);
  l.inputs = {x};
  l.attrs.set("axis", int64_t{-1});
  l.attrs.set("elementwise_affine", int64_t{weight.empty() ? 0 : 1});
  if (!weight.empty()) {
    l.params.push_back(c.param_desc(weight, l.name + ".weight", false));
    l.params.push_back(c.param_desc(bias, l.name + ".bias", false));
  }
  for (int i : group)
    c.skip[i] = true;
  c.finish(l, {out});
  return true;
}

bool fuse_gelu(Context &c, int index) {
  const auto &div = c.g.node(index);
  if (div.op_type() != "Div" || div.input_size() != 2)
    return false;
  const std::string x = div.input(0);
  if (!c.is_act(x) || !scalar_is(c, div.input(1), std::sqrt(2.0), 1e-5))
    return false;
  int i_erf, i_add, i_mul, i_half;
  const auto *erf = sole_user(c, div.output(0), "Erf", &i_erf);
  if (!erf)
    return false;
  const auto *add = sole_user(c, erf->output(0), "Add", &i_add);
  if (!add || !scalar_is(c, other(*add, erf->output(0)), 1.0))
    return false;
  const auto *mul = sole_user(c, add->output(0), "Mul", &i_mul);
  if (!mul || other(*mul, add->output(0)) != x)
    return false;
  const auto *half = sole_user(c, mul->output(0), "Mul", &i_half);
  if (!half || !scalar_is(c, other(*half, mul->output(0)), 0.5))
    return false;
  onnx::NodeProto named = div;
  std::string name = div.name();
  if (const auto slash = name.find_last_of('/'); slash != std::string::npos && slash > 0)
    name = name.substr(0, slash) + "/Gelu";
  named.set_name(name.empty() ? "Gelu_" + std::to_string(index) : name);
  named.set_op_type("Gelu");
  Layer l = c.new_layer(named, index, OpKind::activation);
  l.attrs.set("function", std::string("gelu"));
  l.inputs = {x};
  for (int i : {index, i_erf, i_add, i_mul, i_half})
    c.skip[i] = true;
  c.finish(l, {half->output(0)});
  return true;
}

} // namespace perfmodel::io::onnx_import
