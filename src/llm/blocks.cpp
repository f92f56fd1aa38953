// MLA attention and MoE MLPs with shared experts (docs/llm.md, "The graph").
#include "llm/blocks.hpp"

namespace perfmodel::llm {

namespace {

std::string rope(Builder &b, const std::string &name, const std::string &in) {
  Attributes mul;
  mul.set("function", std::string("mul"));
  return b.tag(b.add(name, OpKind::elementwise, "rope", {in, "rope.cos_sin"}, mul), "rope");
}

// A SwiGLU MLP of width f on `in`, its layers named `p` + gate_proj, up_proj, act, mul,
// down_proj.
std::string swiglu(Builder &b, const LlmConfig &c, const std::string &p, const std::string &in,
                   int64_t f) {
  const std::string gt = b.linear(p + "gate_proj", in, f, false);
  const std::string up = b.linear(p + "up_proj", in, f, false);
  Attributes act;
  act.set("function", c.activation);
  const std::string ac = b.add(p + "act", OpKind::activation, c.activation, {gt}, act);
  const std::string pm = b.binary(p + "mul", "mul", ac, up);
  return b.linear(p + "down_proj", pm, c.hidden, false);
}

} // namespace

std::string moe_block(Builder &b, const LlmConfig &c, const PassShape &s, const std::string &p,
                      const std::string &m) {
  const int64_t B = s.batch, T = s.tokens, d = c.hidden;
  const int64_t rows = B * T * c.experts_per_token, E = c.experts, F = c.expert_intermediate();
  const DType dt = b.dt();
  // a router, then each token's k experts (SwiGLU) on the dispatched rows; the expert weights
  // are [E, F, d] tensors of which pass_costs counts the touched share
  std::vector<TensorDesc> router;
  if (c.router_bias) // DeepSeek-V3's e_score_correction_bias beside the gate's weight
    router = {TensorDesc{p + "moe.router.weight", {E, d}, dt, false},
              TensorDesc{p + "moe.router.e_score_correction_bias", {E}, dt, false}};
  b.linear(p + "moe.router", m, E, false, std::move(router));
  const std::string x = b.add(p + "moe.dispatch", OpKind::generic, "moe_dispatch",
                              {m, p + "moe.router"}, {}, {}, {Shape{rows, d}});
  auto experts = [&](const std::string &n, const std::string &in, int64_t out_f, int64_t in_f) {
    return b.tag(b.linear(p + n, in, out_f, false,
                          {TensorDesc{p + n + ".weight", {E, out_f, in_f}, dt, false}}),
                 "moe_experts");
  };
  const std::string gt = experts("moe.experts.w1", x, F, d);
  const std::string up = experts("moe.experts.w3", x, F, d);
  Attributes act;
  act.set("function", c.activation);
  const std::string ac = b.add(p + "moe.experts.act", OpKind::activation, c.activation, {gt}, act);
  const std::string pm = b.binary(p + "moe.experts.mul", "mul", ac, up);
  const std::string dn = experts("moe.experts.w2", pm, d, F);
  const std::string routed =
      b.add(p + "moe.combine", OpKind::generic, "moe_combine", {dn}, {}, {}, {Shape{B, T, d}});
  if (c.shared_experts == 0)
    return routed;
  const std::string shared = swiglu(b, c, p + "moe.shared_experts.", m, c.shared_experts * F);
  return b.binary(p + "moe.shared_add", "add", routed, shared);
}

std::string mla_attention(Builder &b, Graph &g, const LlmConfig &c, const PassShape &s,
                          const std::string &p, const std::string &a, DType kv_dt) {
  const int64_t B = s.batch, T = s.tokens, H = c.heads;
  const int64_t nope = c.qk_nope_head_dim, rp = c.qk_rope_head_dim, vd = c.v_head_dim;
  const int64_t lora = c.kv_lora_rank, keys = s.context + T;
  const DType dt = b.dt();
  const std::string n = p + "self_attn.";
  // The query: q_a_proj, its norm and q_b_proj (or one q_proj). Each projection whose output
  // is split (the query's non-rotary and rotary parts; kv_a_proj_with_mqa's latent and rope
  // key) is two GEMMs: the same weights and FLOPs, the input read twice.
  std::string qin = a;
  if (c.q_lora_rank) {
    qin = b.linear(n + "q_a_proj", a, c.q_lora_rank, false);
    qin = b.norm(n + "q_a_layernorm", qin, c, c.q_lora_rank);
  }
  const std::string qp = n + (c.q_lora_rank ? "q_b_proj" : "q_proj");
  std::string q_nope = b.linear(qp, qin, H * nope, false);
  q_nope = b.reshape(n + "q_nope_heads", q_nope, {B, T, H, nope});
  std::string q_pe = b.linear(qp + ".rope", qin, H * rp, false);
  q_pe = rope(b, n + "rope_q", b.reshape(n + "q_rope_heads", q_pe, {B, T, H, rp}));
  std::string lat = b.linear(n + "kv_a_proj_with_mqa", a, lora, false);
  std::string k_pe = b.linear(n + "kv_a_proj_with_mqa.rope", a, rp, false);
  k_pe = rope(b, n + "rope_k", b.reshape(n + "k_rope_heads", k_pe, {B, T, 1, rp}));
  lat = b.norm(n + "kv_a_layernorm", lat, c, lora);
  // the cache keeps the normed latent and the rotated key of every token
  b.add(n + "kv_cache_write", OpKind::generic, "kv_cache_write", {lat, k_pe}, {}, {},
        {Shape{B, T, lora + rp}});
  g.layers.back().dtype = kv_dt;
  Attributes cat;
  cat.set("axis", int64_t(3));
  std::string qg, kt, vv;
  const bool absorbed = s.context > 0;
  if (!absorbed) { // K and V of every head decompressed from this pass's latents
    const std::string k_nope = b.linear(n + "kv_b_proj", lat, H * nope, false);
    const std::string v = b.linear(n + "kv_b_proj.v", lat, H * vd, false);
    const std::string q = b.add(n + "q_cat", OpKind::concat, "concat", {q_nope, q_pe}, cat);
    const std::string k = b.add(n + "k_cat", OpKind::generic, "mla_key", {k_nope, k_pe}, {}, {},
                                {Shape{B, T, H, nope + rp}}); // the rope key copied to each head
    qg = b.reshape(n + "q_t", q, {B, H, T, nope + rp});
    kt = b.reshape(n + "k_t", k, {B, H, nope + rp, T});
    vv = b.reshape(n + "v_t", v, {B, H, T, vd});
  } else { // kv_b_proj's key half folded into the query: attention over the cache itself
    const std::string q_lat =
        b.linear(n + "kv_b_proj.k_absorbed", q_nope, lora, false,
                 {TensorDesc{n + "kv_b_proj.k_absorbed.weight", {H, nope, lora}, dt, false}});
    const std::string q = b.add(n + "q_cat", OpKind::concat, "concat", {q_lat, q_pe}, cat);
    qg = b.reshape(n + "q_groups", q, {B, 1, H * T, lora + rp});
    kt = n + "k_cache";
    vv = n + "v_cache"; // the latent part of the same entries
    g.inputs.push_back(TensorDesc{kt, {B, 1, lora + rp, keys}, kv_dt, false});
    g.inputs.push_back(TensorDesc{vv, {B, 1, keys, lora}, kv_dt, false});
  }
  const std::string sc =
      b.tag(b.add(n + "scores", OpKind::matmul, "matmul", {qg, kt}), "attn_scores");
  Attributes sm;
  sm.set("axis", int64_t(-1));
  const std::string pr =
      b.tag(b.add(n + "softmax", OpKind::softmax, "softmax", {sc}, sm), "attn_softmax");
  std::string av = b.tag(b.add(n + "attn_v", OpKind::matmul, "matmul", {pr, vv}), "attn_values");
  if (absorbed) {
    g.layers.back().attrs.set("llm_v_in_k", int64_t(1)); // flash: the cache is read once
    av = b.reshape(n + "latent_heads", av, {B, T, H, lora});
    av = b.linear(n + "kv_b_proj.v_absorbed", av, vd, false,
                  {TensorDesc{n + "kv_b_proj.v_absorbed.weight", {H, vd, lora}, dt, false}});
  }
  const std::string ctx = b.reshape(n + "merge_heads", av, {B, T, H * vd});
  return b.linear(n + "o_proj", ctx, c.hidden, false);
}

} // namespace perfmodel::llm
