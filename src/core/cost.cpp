// Per-layer counting rules (docs/ops.md): FLOPs, MACs, bytes per tensor role, GEMM shape,
// and the backward passes of --pass train.
#include "perfmodel/cost.hpp"

#include "core/shape_rules.hpp"

namespace perfmodel {

std::string_view to_string(Pass p) { return p == Pass::fwd ? "fwd" : "train"; }

std::optional<Pass> parse_pass(std::string_view s) {
  if (s == "fwd" || s == "forward" || s == "inference")
    return Pass::fwd;
  if (s == "train" || s == "training")
    return Pass::train;
  return std::nullopt;
}

PassCost &PassCost::operator+=(const PassCost &o) {
  flops += o.flops;
  macs += o.macs;
  bytes_input += o.bytes_input;
  bytes_weights += o.bytes_weights;
  bytes_bias += o.bytes_bias;
  bytes_output += o.bytes_output;
  return *this;
}

namespace {

bool is_bias(const TensorDesc &p) {
  const auto &n = p.name;
  return n.size() >= 5 && n.compare(n.size() - 5, 5, ".bias") == 0;
}

int64_t sum_inputs(const Graph &g, const Layer &l) {
  int64_t b = 0;
  for (const auto &in : l.inputs)
    b += g.tensor(in).bytes();
  return b;
}

int64_t sum_outputs(const Graph &g, const Layer &l) {
  int64_t b = 0;
  for (const auto &o : l.outputs)
    b += g.tensor(o).bytes();
  return b;
}

int64_t out_elems(const Graph &g, const Layer &l) {
  int64_t n = 0;
  for (const auto &o : l.outputs)
    n += numel(g.tensor(o).shape);
  return n;
}

// Bytes of the compulsory traffic: every input, param and output tensor once.
PassCost traffic(const Graph &g, const Layer &l) {
  PassCost c;
  c.bytes_input = sum_inputs(g, l);
  for (const auto &p : l.params)
    (is_bias(p) ? c.bytes_bias : c.bytes_weights) += p.bytes();
  c.bytes_output = sum_outputs(g, l);
  return c;
}

GemmShape gemm_shape(const Graph &g, const Layer &l) {
  const Shape &in = g.tensor(l.inputs.at(0)).shape;
  const Shape &out = g.tensor(l.outputs.at(0)).shape;
  switch (l.op) {
  case OpKind::conv2d: {
    const int64_t groups = l.attrs.get_int("groups", 1);
    const Window2d w = window_attrs(l.attrs, false);
    return {out[0] * out[2] * out[3], out[1] / groups, in[1] / groups * w.kernel[0] * w.kernel[1],
            groups};
  }
  case OpKind::conv_transpose2d: {
    const int64_t groups = l.attrs.get_int("groups", 1);
    const Window2d w = window_attrs(l.attrs, false);
    return {in[0] * in[2] * in[3], out[1] / groups * w.kernel[0] * w.kernel[1], in[1] / groups,
            groups};
  }
  case OpKind::linear:
    return {numel(in) / in.back(), out.back(), in.back(), 1};
  case OpKind::matmul: {
    Shape a = in;
    Shape b = l.op_input_count() >= 2 ? g.tensor(l.inputs[1]).shape : l.params.at(0).shape;
    if (a.size() == 1)
      a.insert(a.begin(), 1);
    if (b.size() == 1)
      b.push_back(1);
    const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
    const int64_t batch = numel(out) / (m * n);
    return {m, n, k, batch};
  }
  default:
    return {};
  }
}

int64_t per_element_flops(OpKind op, const std::string &fn) {
  switch (op) {
  case OpKind::activation:
    return activation_flops_per_element(fn).value_or(0);
  case OpKind::elementwise:
    return elementwise_flops_per_element(fn).value_or(0);
  case OpKind::batch_norm:
    return 2;
  case OpKind::layer_norm:
    return 8;
  case OpKind::softmax:
    return 5;
  default:
    return 0;
  }
}

PassCost forward(const Graph &g, const Layer &l, Pass pass, std::optional<GemmShape> &gemm) {
  PassCost c = traffic(g, l);
  const int64_t outs = out_elems(g, l);
  switch (l.op) {
  case OpKind::conv2d:
  case OpKind::conv_transpose2d:
  case OpKind::linear:
  case OpKind::matmul: {
    gemm = gemm_shape(g, l);
    c.macs = gemm->m * gemm->n * gemm->k * gemm->groups;
    c.flops = 2 * c.macs; // a constant B of matmul is a param: traffic() counts it as weights
    break;
  }
  case OpKind::max_pool:
  case OpKind::avg_pool: {
    const Window2d w = window_attrs(l.attrs, true);
    c.flops = outs * w.kernel[0] * w.kernel[1];
    break;
  }
  case OpKind::global_avg_pool:
  case OpKind::global_max_pool:
  case OpKind::reduce:
    c.flops = numel(g.tensor(l.inputs.at(0)).shape);
    break;
  case OpKind::activation:
  case OpKind::elementwise:
  case OpKind::batch_norm:
  case OpKind::layer_norm:
  case OpKind::softmax:
    c.flops = outs * per_element_flops(l.op, l.attrs.get_string("function", ""));
    break;
  case OpKind::slice:
    c.bytes_input = c.bytes_output; // reads only the slice
    break;
  case OpKind::gather:
    if (l.inputs.size() >= 2)
      c.bytes_input = g.tensor(l.inputs[1]).bytes() + c.bytes_output;
    else
      c.bytes_weights = c.bytes_output; // rows gathered from a constant table
    break;
  case OpKind::embedding:
    c.bytes_weights = c.bytes_output;
    break; // gathered rows only
  case OpKind::dropout:
    if (pass == Pass::fwd)
      return PassCost{};
    c.flops = outs;
    break;
  case OpKind::flatten:
  case OpKind::reshape:
  case OpKind::identity:
    return PassCost{};
  case OpKind::concat:
  case OpKind::split:
  case OpKind::transpose:
  case OpKind::generic:
    break;
  }
  // A fused activation (l.activation) is applied to the output in registers: not counted,
  // as in boda. So are the epilogue steps inference fusion gave a GEMM-like layer (the bias
  // and activation rule); the parts of an element-wise chain keep their FLOPs, each over the
  // chain's output (every part has its shape). A folded batch norm does no work at run time.
  if (!is_gemm_like(l.op))
    for (const FusedPart &p : l.fused.parts)
      if (!p.folded)
        c.flops += outs * per_element_flops(p.op, p.function);
  return c;
}

} // namespace

LayerCost layer_cost(const Graph &g, const Layer &l, Pass pass) {
  LayerCost lc;
  lc.gemm_like = is_gemm_like(l.op);
  for (const auto &p : l.params)
    if (!p.buffer)
      lc.params += numel(p.shape);
  lc.fwd = forward(g, l, pass, lc.gemm);
  lc.total = lc.fwd;
  if (pass == Pass::fwd)
    return lc;
  if (!l.fused.empty())
    throw InputError(l.loc, "layer '" + l.name +
                                "' was fused for inference: the train pass counts the layers "
                                "as they are (--fusion none)");

  const PassCost &f = lc.fwd;
  if (f.bytes() == 0 && f.flops == 0)
    return lc; // views and no-ops have no backward either
  if (lc.gemm_like) {
    // boda: grad-input 2*M*N*K and grad-filter 2*M*N*K; bytes (2*in + out + 2*filts + 2*bias),
    // split so that grad-output is counted once (in bwd_data).
    lc.bwd_data.flops = f.flops;
    lc.bwd_data.macs = f.macs;
    lc.bwd_data.bytes_output = f.bytes_output; // grad of the output, read
    lc.bwd_data.bytes_weights = f.bytes_weights;
    lc.bwd_data.bytes_input = f.bytes_input; // grad of the input, written
    const bool has_weight_grad = !l.params.empty() || l.op == OpKind::matmul;
    if (has_weight_grad) {
      lc.bwd_weight.flops = f.flops;
      lc.bwd_weight.macs = f.macs;
      lc.bwd_weight.bytes_input = f.bytes_input;     // saved input, read
      lc.bwd_weight.bytes_weights = f.bytes_weights; // grad of the weight, written
      lc.bwd_weight.bytes_bias = 2 * f.bytes_bias;
    }
  } else {
    // Other ops: one backward pass reading grad-output and the saved input, writing
    // grad-input (and reading/writing parameter grads): bytes (2*in + out + 2*params), FLOPs
    // as forward (twice forward for the normalizations).
    lc.bwd_data.flops =
        (l.op == OpKind::batch_norm || l.op == OpKind::layer_norm) ? 2 * f.flops : f.flops;
    lc.bwd_data.bytes_input = 2 * f.bytes_input;
    lc.bwd_data.bytes_output = f.bytes_output;
    lc.bwd_data.bytes_weights = 2 * f.bytes_weights;
    lc.bwd_data.bytes_bias = 2 * f.bytes_bias;
  }
  lc.total += lc.bwd_data;
  lc.total += lc.bwd_weight;
  return lc;
}

std::vector<LayerCost> graph_cost(const Graph &g, Pass pass) {
  std::vector<LayerCost> out;
  out.reserve(g.layers.size());
  for (const auto &l : g.layers)
    out.push_back(layer_cost(g, l, pass));
  return out;
}

} // namespace perfmodel
