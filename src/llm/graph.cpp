// Builds a decoder-only model's pass as a graph of the IR's ops (docs/llm.md, "The graph").
#include "perfmodel/llm/graph.hpp"

#include "llm/blocks.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace perfmodel::llm {

std::string_view to_string(Phase p) { return p == Phase::prefill ? "prefill" : "decode"; }
std::string_view to_string(Attention a) { return a == Attention::flash ? "flash" : "eager"; }

int64_t attended_pairs(int64_t tokens, int64_t context, int64_t window) {
  int64_t pairs = 0;
  if (window <= 0) // sum over i of (context + i + 1)
    return tokens * context + tokens * (tokens + 1) / 2;
  for (int64_t i = 0; i < tokens; ++i)
    pairs += std::min(context + i + 1, window);
  return pairs;
}

int64_t cached_entries(const LlmConfig &c, int64_t length) {
  return c.sliding_window > 0 ? std::min(length, c.sliding_window) : length;
}

int64_t kv_bytes_per_token(const LlmConfig &c, DType kv_dtype) {
  if (c.mla()) // the latent and the shared rope key, once per layer
    return c.layers * (c.kv_lora_rank + c.qk_rope_head_dim) * bytes_of(kv_dtype);
  return 2 * c.layers * c.kv_width() * bytes_of(kv_dtype);
}

namespace {

int64_t norm_params(const LlmConfig &c) { return c.norm == Norm::rms ? c.hidden : 2 * c.hidden; }

// One MLP of width f: gated (gate, up, down) or plain (fc1, fc2), with the config's biases.
int64_t mlp_params(const LlmConfig &c, int64_t f) {
  const int64_t d = c.hidden;
  if (c.mlp == Mlp::gated)
    return 3 * d * f + (c.mlp_bias ? 2 * f + d : 0);
  return 2 * d * f + (c.mlp_bias ? f + d : 0);
}

int64_t attention_params(const LlmConfig &c) {
  const int64_t d = c.hidden, H = c.heads;
  if (c.mla()) {
    const int64_t qk = c.qk_nope_head_dim + c.qk_rope_head_dim;
    const int64_t q = c.q_lora_rank ? d * c.q_lora_rank + c.q_lora_rank + c.q_lora_rank * H * qk
                                    : d * H * qk; // q_a, its norm, q_b; or q_proj
    return q + d * (c.kv_lora_rank + c.qk_rope_head_dim) + c.kv_lora_rank +
           c.kv_lora_rank * H * (c.qk_nope_head_dim + c.v_head_dim) + H * c.v_head_dim * d;
  }
  int64_t attn = d * c.q_width() + 2 * d * c.kv_width() + c.q_width() * d;
  if (c.qkv_bias)
    attn += c.q_width() + 2 * c.kv_width();
  if (c.o_bias)
    attn += d;
  return attn;
}

// A MoE MLP: E routed experts, the shared experts (one MLP), the router and its biases.
int64_t moe_params(const LlmConfig &c) {
  const int64_t f = c.expert_intermediate();
  return c.experts * mlp_params(c, f) + (c.shared_experts ? mlp_params(c, c.shared_experts * f) : 0) +
         c.experts * c.hidden + (c.router_bias ? c.experts : 0);
}

} // namespace

int64_t parameter_count(const LlmConfig &c) {
  const int64_t d = c.hidden;
  int64_t n = c.vocab * d + norm_params(c);
  for (int64_t i = 0; i < c.layers; ++i)
    n += attention_params(c) + (c.parallel_block ? 1 : 2) * norm_params(c) +
         (c.moe_layer(i) ? moe_params(c) : mlp_params(c, c.intermediate));
  if (c.positions == Positions::learned)
    n += (c.max_positions + c.position_offset) * d;
  if (!c.tied_embeddings)
    n += c.vocab * d + (c.lm_head_bias ? c.vocab : 0);
  return n;
}

int64_t active_parameter_count(const LlmConfig &c) {
  int64_t n = parameter_count(c);
  for (int64_t i = 0; i < c.layers; ++i)
    if (c.moe_layer(i))
      n -= (c.experts - c.experts_per_token) * mlp_params(c, c.expert_intermediate());
  return n;
}

namespace {

void require(bool ok, const std::string &what) {
  if (!ok)
    throw InputError(what);
}

} // namespace

Graph build_graph(const LlmConfig &c, const PassShape &s, DType dt, std::optional<DType> kv_dtype) {
  const DType kv_dt = kv_dtype.value_or(dt);
  require(s.batch >= 1, "--batch must be at least 1");
  require(s.tokens >= 1, "a pass needs at least one token");
  require(s.context >= 0, "the KV length must not be negative");
  const int64_t B = s.batch, T = s.tokens, d = c.hidden, hd = c.head_dim;
  const int64_t KV = c.kv_heads, group = c.heads / c.kv_heads;
  const int64_t keys = cached_entries(c, s.context + T); // keys the attention reads
  Graph g;
  g.name = c.name + "." + std::string(to_string(s.phase));
  g.dtype = dt;
  g.loc = c.loc;
  g.inputs.push_back(TensorDesc{"input_ids", {B, T}, DType::int64, false});
  Builder b(g, dt);

  Attributes emb;
  emb.set("num_embeddings", c.vocab);
  emb.set("embedding_dim", d);
  std::string h = b.add("embed_tokens", OpKind::embedding, "embedding", {"input_ids"}, emb);
  if (c.positions == Positions::learned) {
    g.inputs.push_back(TensorDesc{"position_ids", {B, T}, DType::int64, false});
    Attributes pos;
    pos.set("num_embeddings", c.max_positions + c.position_offset);
    pos.set("embedding_dim", d);
    const std::string p =
        b.add("embed_positions", OpKind::embedding, "embedding", {"position_ids"}, pos);
    h = b.binary("embed_add", "add", h, p);
  } else {
    // cos and sin of the T positions: one [T, 1, hd] table named here, the second counted by
    // the RoPE rule (pass_costs)
    g.constants.push_back(
        TensorDesc{"rope.cos_sin", {T, 1, c.mla() ? c.qk_rope_head_dim : hd}, dt, false});
  }

  for (int64_t i = 0; i < c.layers; ++i) {
    const std::string p = "layers." + std::to_string(i) + ".";
    const std::string a = b.norm(p + "input_layernorm", h, c);
    std::string o;
    if (c.mla()) {
      o = mla_attention(b, g, c, s, p, a, kv_dt);
    } else {
      std::string q = b.linear(p + "self_attn.q_proj", a, c.q_width(), c.qkv_bias);
      std::string k = b.linear(p + "self_attn.k_proj", a, c.kv_width(), c.qkv_bias);
      const std::string v = b.linear(p + "self_attn.v_proj", a, c.kv_width(), c.qkv_bias);
      if (c.positions == Positions::rope) {
        q = b.reshape(p + "self_attn.q_heads", q, {B, T, c.heads, hd});
        k = b.reshape(p + "self_attn.k_heads", k, {B, T, KV, hd});
        Attributes mul;
        mul.set("function", std::string("mul"));
        q = b.tag(
            b.add(p + "self_attn.rope_q", OpKind::elementwise, "rope", {q, "rope.cos_sin"}, mul),
            "rope");
        k = b.tag(
            b.add(p + "self_attn.rope_k", OpKind::elementwise, "rope", {k, "rope.cos_sin"}, mul),
            "rope");
      }
      // K and V of the new tokens copied into the cache
      b.add(p + "self_attn.kv_cache_write", OpKind::generic, "kv_cache_write", {k, v}, {}, {},
            {Shape{B, T, 2 * c.kv_width()}});
      g.layers.back().dtype = kv_dt; // stored in the cache's type (a copy: no arithmetic)
      // Grouped-query attention: the `group` query heads sharing a KV head form the rows of one
      // product, so K and V are read once per KV head (views of the layouts, no copies).
      const std::string qg = b.reshape(p + "self_attn.q_groups", q, {B, KV, group * T, hd});
      std::string kt, vv;
      if (s.context == 0 && keys == T && kv_dt == dt) {
        kt = b.reshape(p + "self_attn.k_t", k, {B, KV, hd, T});
        vv = b.reshape(p + "self_attn.v_groups", v, {B, KV, T, hd});
      } else { // the cache after this pass's append
        kt = p + "self_attn.k_cache";
        vv = p + "self_attn.v_cache";
        g.inputs.push_back(TensorDesc{kt, {B, KV, hd, keys}, kv_dt, false});
        g.inputs.push_back(TensorDesc{vv, {B, KV, keys, hd}, kv_dt, false});
      }
      const std::string sc =
          b.tag(b.add(p + "self_attn.scores", OpKind::matmul, "matmul", {qg, kt}), "attn_scores");
      Attributes sm;
      sm.set("axis", int64_t(-1));
      const std::string pr = b.tag(
          b.add(p + "self_attn.softmax", OpKind::softmax, "softmax", {sc}, sm), "attn_softmax");
      const std::string av =
          b.tag(b.add(p + "self_attn.attn_v", OpKind::matmul, "matmul", {pr, vv}), "attn_values");
      const std::string ctx = b.reshape(p + "self_attn.merge_heads", av, {B, T, c.q_width()});
      o = b.linear(p + "self_attn.o_proj", ctx, d, c.o_bias);
    }
    h = b.binary(p + "attn_residual", "add", h, o);

    // GPT-J: the MLP reads the attention's normed input (h + attn + mlp)
    const std::string m = c.parallel_block ? a : b.norm(p + "post_attention_layernorm", h, c);
    std::string out;
    if (c.moe_layer(i)) {
      out = moe_block(b, c, s, p, m);
    } else if (c.mlp == Mlp::gated) {
      const std::string gt = b.linear(p + "mlp.gate_proj", m, c.intermediate, c.mlp_bias);
      const std::string up = b.linear(p + "mlp.up_proj", m, c.intermediate, c.mlp_bias);
      Attributes act;
      act.set("function", c.activation);
      const std::string ac = b.add(p + "mlp.act", OpKind::activation, c.activation, {gt}, act);
      const std::string pm = b.binary(p + "mlp.mul", "mul", ac, up);
      out = b.linear(p + "mlp.down_proj", pm, d, c.mlp_bias);
    } else {
      const std::string f1 = b.linear(p + "mlp.fc1", m, c.intermediate, c.mlp_bias);
      Attributes act;
      act.set("function", c.activation);
      const std::string ac = b.add(p + "mlp.act", OpKind::activation, c.activation, {f1}, act);
      out = b.linear(p + "mlp.fc2", ac, d, c.mlp_bias);
    }
    h = b.binary(p + "mlp_residual", "add", h, out);
  }

  if (T > 1) { // the logits of the last token only (serving engines)
    Attributes sl;
    sl.set("starts", std::vector<int64_t>{T - 1});
    sl.set("ends", std::vector<int64_t>{T});
    sl.set("axes", std::vector<int64_t>{1});
    h = b.add("last_token", OpKind::slice, "slice", {h}, sl);
  }
  h = b.norm("norm", h, c);
  std::vector<TensorDesc> head;
  if (c.tied_embeddings) // the embedding table itself: its bytes, not a second set of params
    head.push_back(TensorDesc{"embed_tokens.weight (tied)", {c.vocab, d}, dt, true});
  b.linear("lm_head", h, c.vocab, c.lm_head_bias, std::move(head));
  infer_shapes(g);
  return g;
}

DecodeContext::DecodeContext(Graph &g, const LlmConfig &c) : g_(&g), c_(c) {
  auto find = [&](const std::string &name, size_t dim) {
    auto it = g.tensors.find(name);
    if (it == g.tensors.end() || it->second.shape.size() <= dim)
      throw std::invalid_argument("DecodeContext: not a decode graph ('" + name + "')");
    resized_.push_back(Resized{&it->second, dim});
  };
  resized_.reserve(size_t(4 * c.layers));
  for (int64_t i = 0; i < c.layers; ++i) {
    const std::string p = "layers." + std::to_string(i) + ".self_attn.";
    find(p + "k_cache", 3);
    find(p + "v_cache", 2);
    find(p + "scores", 3);
    find(p + "softmax", 3);
  }
  for (size_t i = 0; i < g.inputs.size(); ++i)
    inputs_.emplace_back(i, &g.tensors.at(g.inputs[i].name));
}

void DecodeContext::set(int64_t context) {
  require(context >= 1, "a decode step needs a KV length of at least 1");
  const int64_t keys = cached_entries(c_, context + 1);
  for (const Resized &r : resized_)
    r.tensor->shape[r.dim] = keys;
  for (const auto &[i, t] : inputs_)
    g_->inputs[i].shape = t->shape;
}

void set_decode_context(Graph &g, const LlmConfig &c, int64_t context) {
  DecodeContext(g, c).set(context);
}

namespace {

int64_t elems(const Graph &g, const std::string &t) { return numel(g.tensor(t).shape); }

} // namespace

namespace {

// Expected distinct experts `rows` tokens touch, each choosing k of E uniformly:
// E (1 - (1 - k/E)^rows) (docs/llm.md, "Mixture of experts").
double touched_experts(const LlmConfig &c, int64_t rows) {
  const double E = double(std::max<int64_t>(c.experts, 1));
  return c.experts > 0 ? E * (1.0 - std::pow(1.0 - double(c.experts_per_token) / E, double(rows)))
                       : 0.0;
}

// Applies the layer's rule (its llm_rule attribute) to `cost`, graph_cost()'s of the layer.
void apply_rule(const Graph &g, const Layer &l, const LlmConfig &c, const PassShape &s,
                Attention mode, LayerCost &cost) {
  const std::string rule = l.attrs.get_string("llm_rule", "");
  if (rule.empty())
    return;
  PassCost &f = cost.fwd;
  if (rule == "rope") {
    // x cos + rotate(x) sin on the rotary part of each head (GPT-J: rotary_dim of head_dim),
    // reading that part of a cos and a sin table
    const int64_t hd = g.tensor(l.outputs[0]).shape.back();
    const int64_t rot = c.rotary_dim > 0 ? c.rotary_dim : hd;
    f.flops = 3 * elems(g, l.outputs[0]) / hd * rot;
    f.bytes_input = g.tensor(l.inputs[0]).bytes() + 2 * g.tensor(l.inputs[1]).bytes() / hd * rot;
  } else if (rule == "moe_experts") {
    const double E = double(std::max<int64_t>(c.experts, 1));
    f.bytes_weights =
        int64_t(double(f.bytes_weights) * touched_experts(c, s.batch * s.tokens) / E + 0.5);
  } else if (mode == Attention::flash) {
    const int64_t pairs = attended_pairs(s.tokens, s.context, c.sliding_window);
    const int64_t heads_rows = s.batch * c.heads; // (sequence, query head) pairs
    if (rule == "attn_scores") {                  // K is [B, KV, dk, S]
      f.macs = heads_rows * pairs * g.tensor(l.inputs[1]).shape[2];
      f.flops = 2 * f.macs;
      f.bytes_output = 0; // scores stay on chip
    } else if (rule == "attn_softmax") {
      f.flops = 5 * heads_rows * pairs;
      f.bytes_input = f.bytes_output = 0;
    } else if (rule == "attn_values") {
      f.macs = heads_rows * pairs * g.tensor(l.outputs[0]).shape.back();
      f.flops = 2 * f.macs;
      // V; the probabilities stay on chip (MLA: V is the latent the scores read already)
      f.bytes_input = l.attrs.get_int("llm_v_in_k", 0) ? 0 : g.tensor(l.inputs[1]).bytes();
    }
  }
  cost.total = f;
}

} // namespace

std::vector<LayerCost> pass_costs(const Graph &g, const LlmConfig &c, const PassShape &s,
                                  Attention mode) {
  std::vector<LayerCost> costs = graph_cost(g, Pass::fwd);
  for (size_t i = 0; i < g.layers.size(); ++i)
    apply_rule(g, g.layers[i], c, s, mode, costs[i]);
  return costs;
}

LayerCost pass_layer_cost(const Graph &g, size_t i, const LlmConfig &c, const PassShape &s,
                          Attention mode) {
  LayerCost cost = layer_cost(g, g.layers.at(i), Pass::fwd);
  apply_rule(g, g.layers[i], c, s, mode, cost);
  return cost;
}

} // namespace perfmodel::llm
