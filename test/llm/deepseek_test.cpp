// DeepSeek's MLA and MoE with shared experts: parameters, KV bytes, graphs, against
// hand-computed counts and DeepSeek-V3's published figures.
#include <doctest/doctest.h>

#include "perfmodel/llm/config.hpp"
#include "perfmodel/llm/graph.hpp"

using namespace perfmodel;
using namespace perfmodel::llm;

namespace {

// d 32, 2 heads, q_lora 16, kv_lora 8, rope 4, nope 8, v 8; layer 0 dense (F 48), layer 1 MoE
// (4 experts of 16, 2 per token, 1 shared, routing biases); vocab 50, untied.
LlmConfig tiny() {
  return parse_llm_config(R"({"model_type": "deepseek_v3", "hidden_size": 32,
      "intermediate_size": 48, "num_hidden_layers": 2, "num_attention_heads": 2,
      "num_key_value_heads": 2, "vocab_size": 50, "max_position_embeddings": 64,
      "q_lora_rank": 16, "kv_lora_rank": 8, "qk_rope_head_dim": 4, "qk_nope_head_dim": 8,
      "v_head_dim": 8, "n_routed_experts": 4, "num_experts_per_tok": 2,
      "moe_intermediate_size": 16, "n_shared_experts": 1, "first_k_dense_replace": 1,
      "moe_layer_freq": 1, "topk_method": "noaux_tc"})",
                          "tiny-mla.json");
}

const LayerCost &cost_of(const Graph &g, const std::vector<LayerCost> &costs,
                         const std::string &name) {
  for (size_t i = 0; i < g.layers.size(); ++i)
    if (g.layers[i].name == name)
      return costs[i];
  FAIL("no layer " << name);
  return costs[0];
}

} // namespace

TEST_CASE("llm deepseek: a tiny MLA + MoE config against hand-computed counts") {
  const LlmConfig c = tiny();
  CHECK(c.mla());
  CHECK_FALSE(c.moe_layer(0));
  CHECK(c.moe_layer(1));
  // attention per layer: q_a 32x16 + norm 16 + q_b 16x(2x12) + kv_a 32x12 + norm 8 +
  // kv_b 8x(2x16) + o 16x32 = 512 + 16 + 384 + 384 + 8 + 256 + 512 = 2,072; norms 64;
  // layer 0: MLP 3x32x48 = 4,608; layer 1: 4 experts x 1,536 + shared 1,536 + router 128 +
  // biases 4 = 7,812; embedding, head 1,600 each, final norm 32.
  const int64_t total = (2072 + 64 + 4608) + (2072 + 64 + 7812) + 1600 + 1600 + 32;
  CHECK(parameter_count(c) == total);
  CHECK(active_parameter_count(c) == total - 2 * 1536);
  CHECK(kv_bytes_per_token(c, DType::fp16) == 2 * (8 + 4) * 2);
  // both forms of the attention hold the same weights (kv_b_proj split or absorbed)
  CHECK(build_graph(c, PassShape{Phase::prefill, 1, 5, 0}, DType::fp16).param_count() == total);
  CHECK(build_graph(c, PassShape{Phase::decode, 1, 1, 7}, DType::fp16).param_count() == total);
}

TEST_CASE("llm deepseek: decode attends the cached latent and rope key") {
  const LlmConfig c = tiny();
  const PassShape s{Phase::decode, 3, 1, 7}; // 8 keys
  const Graph g = build_graph(c, s, DType::fp16);
  const auto costs = pass_costs(g, c, s, Attention::flash);
  // per (sequence, head) 8 pairs: scores over kv_lora + rope = 12, values over kv_lora = 8
  CHECK(cost_of(g, costs, "layers.0.self_attn.scores").fwd.macs == 3 * 2 * 8 * 12);
  CHECK(cost_of(g, costs, "layers.0.self_attn.attn_v").fwd.macs == 3 * 2 * 8 * 8);
  // the cache (fp16, 8 x 12 per sequence) is read once, by the scores
  CHECK(cost_of(g, costs, "layers.0.self_attn.attn_v").fwd.bytes_input == 0);
  CHECK(g.tensor("layers.0.self_attn.k_cache").bytes() == 3 * 8 * 12 * 2);
  // the cache write: one token's latent and rope key
  CHECK(cost_of(g, costs, "layers.1.self_attn.kv_cache_write").fwd.bytes_output == 3 * 12 * 2);
  // the absorbed query: q_nope (8) to the latent (8) per head, 3 x 2 rows
  CHECK(cost_of(g, costs, "layers.1.self_attn.kv_b_proj.k_absorbed").fwd.macs == 3 * 2 * 8 * 8);
  // prefill decompresses K and V: scores over nope + rope = 12, values over v = 8
  const PassShape pf{Phase::prefill, 1, 5, 0};
  const Graph gp = build_graph(c, pf, DType::fp16);
  const auto pc = pass_costs(gp, c, pf, Attention::flash);
  CHECK(cost_of(gp, pc, "layers.0.self_attn.scores").fwd.macs == 2 * 15 * 12);
  CHECK(cost_of(gp, pc, "layers.0.self_attn.attn_v").fwd.macs == 2 * 15 * 8);
}

TEST_CASE("llm deepseek: DeepSeek-V3's published figures") {
  const LlmConfig c = read_llm_config(resolve_llm_config("deepseek-v3"));
  // the main model (61 layers, embedding and head): 671B in DeepSeek-V3's README and technical
  // report; the MTP module (num_nextn_predict_layers, in the 685B of the HF checkpoint) is not
  // counted (models/llm/README.md)
  CHECK(parameter_count(c) == 671026419200);
  // 37B activated per token (README_WEIGHTS.md: 36.6B without the embedding table)
  CHECK(active_parameter_count(c) == 37552297472);
  CHECK(active_parameter_count(c) - c.vocab * c.hidden == 36625618432);
  CHECK(kv_bytes_per_token(c, DType::fp16) == 70272);
}
