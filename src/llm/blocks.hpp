// Internal to src/llm: the graph builder's layer appender and the blocks beyond the
// Llama-shaped ones (MLA attention, MoE with shared experts), docs/llm.md "The graph".
#pragma once

#include <string>
#include <vector>

#include "perfmodel/graph.hpp"
#include "perfmodel/llm/config.hpp"
#include "perfmodel/llm/graph.hpp"

namespace perfmodel::llm {

// Appends layers to a graph; each returns the name of the tensor it writes.
class Builder {
public:
  Builder(Graph &g, DType dt) : g_(g), dt_(dt) {}

  std::string add(const std::string &name, OpKind op, std::string op_name,
                  std::vector<std::string> inputs, Attributes attrs = {},
                  std::vector<TensorDesc> params = {}, std::vector<Shape> declared = {}) {
    Layer l;
    l.name = name;
    l.op = op;
    l.op_name = std::move(op_name);
    l.inputs = std::move(inputs);
    l.outputs = {name};
    l.attrs = std::move(attrs);
    l.params = std::move(params);
    for (const auto &s : declared)
      l.output_shapes.push_back(perfmodel::declared(s));
    l.dtype = dt_;
    g_.layers.push_back(std::move(l));
    return name;
  }

  std::string linear(const std::string &name, const std::string &in, int64_t out, bool bias,
                     std::vector<TensorDesc> params = {}) {
    Attributes a;
    a.set("out_features", out);
    a.set("bias", int64_t(bias));
    return add(name, OpKind::linear, "linear", {in}, a, std::move(params));
  }

  // A norm over the last dim, `width` wide (0: the hidden size).
  std::string norm(const std::string &name, const std::string &in, const LlmConfig &c,
                   int64_t width = 0) {
    std::vector<TensorDesc> params;
    if (c.norm == Norm::rms) // RMSNorm: a scale, no shift
      params.push_back(TensorDesc{name + ".weight", {width ? width : c.hidden}, dt_, false});
    return add(name, OpKind::layer_norm, c.norm == Norm::rms ? "rms_norm" : "layer_norm", {in}, {},
               std::move(params));
  }

  std::string reshape(const std::string &name, const std::string &in, Shape to) {
    Attributes a;
    a.set("shape", std::vector<int64_t>(to.begin(), to.end()));
    return add(name, OpKind::reshape, "reshape", {in}, a);
  }

  std::string binary(const std::string &name, const std::string &fn, const std::string &a,
                     const std::string &b) {
    Attributes at;
    at.set("function", fn);
    return add(name, OpKind::elementwise, fn, {a, b}, at);
  }

  std::string tag(const std::string &layer, const std::string &rule) {
    g_.layers.back().attrs.set("llm_rule", rule);
    return layer;
  }

  DType dt() const { return dt_; }

private:
  Graph &g_;
  DType dt_;
};

/// DeepSeek's multi-head latent attention of one layer on the normed input `a` ([B, T, d]):
/// decompressed (K and V of every head from the latent) when the pass has no cache (context 0),
/// absorbed (attention over the cached latent and rope key, kv_b_proj folded into the query
/// and the output) when it reads one. Appends the cache write of kv_lora_rank +
/// qk_rope_head_dim entries per token in `kv_dt`. Returns the output of o_proj ([B, T, d]).
std::string mla_attention(Builder &b, Graph &g, const LlmConfig &c, const PassShape &s,
                          const std::string &p, const std::string &a, DType kv_dt);

/// A mixture-of-experts MLP on the normed input `m` ([B, T, d]): a router, each token's k
/// routed experts (SwiGLU, expert_intermediate() wide) on the B T k dispatched rows, and the
/// shared experts (one SwiGLU of shared_experts x expert_intermediate()) on every token.
/// Returns the combined output ([B, T, d]).
std::string moe_block(Builder &b, const LlmConfig &c, const PassShape &s, const std::string &p,
                      const std::string &m);

} // namespace perfmodel::llm
