// Prefill and decode graphs of a tiny Llama-shaped config against hand-computed counts.
#include <doctest/doctest.h>

#include "perfmodel/llm/config.hpp"
#include "perfmodel/llm/graph.hpp"

using namespace perfmodel;
using namespace perfmodel::llm;

namespace {

// scripts/torch_llm_reference.py's TINY: d 64, F 160, 2 layers, 4 heads of 16, 2 KV heads.
LlmConfig tiny(int64_t window = 0) {
  std::string extra = window ? ", \"sliding_window\": " + std::to_string(window) : "";
  return parse_llm_config(R"({"model_type": "mistral", "hidden_size": 64,
      "intermediate_size": 160, "num_hidden_layers": 2, "num_attention_heads": 4,
      "num_key_value_heads": 2, "vocab_size": 256, "max_position_embeddings": 64)" +
                              extra + "}",
                          "tiny.json");
}

int64_t gemm_flops(const Graph &g, const std::vector<LayerCost> &costs) {
  int64_t f = 0;
  for (const auto &c : costs)
    if (c.gemm_like)
      f += c.total.flops;
  return f;
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

TEST_CASE("llm graph: attended pairs") {
  CHECK(attended_pairs(8, 0, 0) == 36);
  CHECK(attended_pairs(1, 5, 0) == 6);
  CHECK(attended_pairs(4, 0, 2) == 1 + 2 + 2 + 2);
  CHECK(attended_pairs(1, 100, 8) == 8);
  CHECK(attended_pairs(3, 2, 0) == 3 + 4 + 5);
}

TEST_CASE("llm graph: prefill GEMM FLOPs of a tiny config, flash and eager") {
  const LlmConfig c = tiny();
  const PassShape s{Phase::prefill, 2, 8, 0};
  const Graph g = build_graph(c, s, DType::fp16);
  // per layer, 16 rows: q, o 2*16*64*64; k, v 2*16*64*32; gate, up, down 2*16*64*160
  const int64_t proj = 2 * 131072 + 2 * 65536 + 3 * 327680;
  const int64_t head = 2 * 2 * 64 * 256; // the last token of each sequence only
  const auto flash = pass_costs(g, c, s, Attention::flash);
  // causal: 8 * 9 / 2 = 36 pairs per (sequence, head); QK^T and AV 2 * 2 * 4 * 36 * 16 each
  CHECK(gemm_flops(g, flash) == 2 * (proj + 2 * 9216) + head);
  const auto eager = pass_costs(g, c, s, Attention::eager);
  CHECK(gemm_flops(g, eager) == 2 * (proj + 2 * 16384) + head);
  // flash keeps the scores on chip; eager writes them (2 x 4 heads x 8 x 8 fp16)
  CHECK(cost_of(g, flash, "layers.0.self_attn.scores").total.bytes_output == 0);
  CHECK(cost_of(g, eager, "layers.0.self_attn.scores").total.bytes_output == 2 * 4 * 8 * 8 * 2);
  CHECK(cost_of(g, flash, "layers.0.self_attn.softmax").total.bytes() == 0);
  // V read, probabilities not: 2 x 2 KV heads x 8 x 16 fp16
  CHECK(cost_of(g, flash, "layers.0.self_attn.attn_v").total.bytes_input == 2 * 2 * 8 * 16 * 2);
  // embeddings: gathered rows, no FLOPs
  const LayerCost &emb = cost_of(g, flash, "embed_tokens");
  CHECK(emb.total.flops == 0);
  CHECK(emb.total.bytes_weights == 2 * 8 * 64 * 2);
  // RoPE: 3 FLOPs per element of q
  CHECK(cost_of(g, flash, "layers.1.self_attn.rope_q").total.flops == 3 * 2 * 8 * 4 * 16);
}

TEST_CASE("llm graph: a decode step reads the KV cache and appends one entry") {
  const LlmConfig c = tiny();
  const PassShape s{Phase::decode, 2, 1, 5};
  const Graph g = build_graph(c, s, DType::fp16);
  const auto costs = pass_costs(g, c, s, Attention::flash);
  const int64_t proj = (2 * 131072 + 2 * 65536 + 3 * 327680) / 8; // 2 rows instead of 16
  // 6 keys (5 cached + the new one): QK^T and AV 2 * 2 * 4 * 6 * 16 each
  CHECK(gemm_flops(g, costs) == 2 * (proj + 2 * 1536) + 2 * 2 * 64 * 256);
  // K read: batch 2 x 2 KV heads x 16 x 6 entries fp16, and Q
  const LayerCost &sc = cost_of(g, costs, "layers.0.self_attn.scores");
  CHECK(sc.total.bytes_input == 2 * 2 * 16 * 6 * 2 + 2 * 4 * 16 * 2);
  // the append: K and V of one token per sequence, read and written
  const LayerCost &w = cost_of(g, costs, "layers.0.self_attn.kv_cache_write");
  CHECK(w.total.bytes_output == 2 * 2 * 32 * 2);
  CHECK(w.total.bytes_input == 2 * 2 * 32 * 2);
  // no slice in decode: one token already
  for (const auto &l : g.layers)
    CHECK(l.name != "last_token");
}

TEST_CASE("llm graph: a sliding window bounds the keys read") {
  const LlmConfig c = tiny(4);
  const PassShape s{Phase::decode, 1, 1, 20};
  const Graph g = build_graph(c, s, DType::fp16);
  CHECK(g.tensor("layers.0.self_attn.k_cache").shape == Shape{1, 2, 16, 4});
  const auto costs = pass_costs(g, c, s, Attention::flash);
  CHECK(cost_of(g, costs, "layers.0.self_attn.scores").total.flops == 2 * 4 * 4 * 16);
}

TEST_CASE("llm graph: MoE FLOPs for k experts per token, weight bytes for those touched") {
  const LlmConfig c = parse_llm_config(R"({"model_type": "mixtral", "hidden_size": 64,
      "intermediate_size": 160, "num_hidden_layers": 1, "num_attention_heads": 4,
      "num_key_value_heads": 2, "vocab_size": 256, "max_position_embeddings": 64,
      "num_local_experts": 8, "num_experts_per_tok": 2})",
                                       "moe.json");
  const PassShape s{Phase::decode, 1, 1, 3};
  const Graph g = build_graph(c, s, DType::fp16);
  CHECK(g.param_count() == parameter_count(c));
  const auto costs = pass_costs(g, c, s, Attention::flash);
  const LayerCost &w1 = cost_of(g, costs, "layers.0.moe.experts.w1");
  CHECK(w1.total.flops == 2 * 2 * 64 * 160); // 1 token x 2 experts
  // one token touches 8 (1 - (1 - 2/8)^1) = 2 experts of 8: a quarter of the weights
  CHECK(w1.total.bytes_weights == 8 * 160 * 64 * 2 / 4);
}

TEST_CASE("llm graph: an fp8 KV cache halves the bytes a decode step reads from it") {
  const LlmConfig c = tiny();
  const PassShape s{Phase::decode, 2, 1, 5};
  const Graph g = build_graph(c, s, DType::fp16, DType::fp8);
  CHECK(g.tensor("layers.0.self_attn.k_cache").dtype == DType::fp8);
  const auto costs = pass_costs(g, c, s, Attention::flash);
  // K: 2 x 2 KV heads x 16 x 6 entries at 1 byte; Q at 2 bytes
  CHECK(cost_of(g, costs, "layers.0.self_attn.scores").total.bytes_input ==
        2 * 2 * 16 * 6 + 2 * 4 * 16 * 2);
  // the append reads fp16 K and V and writes them at 1 byte
  const LayerCost &w = cost_of(g, costs, "layers.0.self_attn.kv_cache_write");
  CHECK(w.total.bytes_output == 2 * 2 * 32);
  CHECK(w.total.bytes_input == 2 * 2 * 32 * 2);
}

TEST_CASE("llm graph: a decode graph moved to another KV length equals one built there") {
  for (int64_t window : {int64_t(0), int64_t(7)}) {
    const LlmConfig c = tiny(window);
    Graph moved = build_graph(c, PassShape{Phase::decode, 3, 1, 2}, DType::fp16);
    for (int64_t L : {3, 6, 11}) {
      CAPTURE(L);
      set_decode_context(moved, c, L);
      const PassShape s{Phase::decode, 3, 1, L};
      const Graph built = build_graph(c, s, DType::fp16);
      REQUIRE(built.inputs.size() == moved.inputs.size());
      for (size_t i = 0; i < built.inputs.size(); ++i)
        CHECK(built.inputs[i].shape == moved.inputs[i].shape);
      for (const auto &[name, t] : built.tensors)
        CHECK(moved.tensor(name).shape == t.shape);
      const auto a = pass_costs(built, c, s, Attention::flash);
      const auto b = pass_costs(moved, c, s, Attention::flash);
      for (size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].total.flops == b[i].total.flops);
        CHECK(a[i].total.bytes() == b[i].total.bytes());
      }
    }
  }
}
