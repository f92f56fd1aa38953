// A decoder-only language model as its HuggingFace config.json describes it: the fields the
// graph builder (llm/graph.hpp) needs, read and checked once.
#pragma once

#include <cstdint>
#include <string>

#include "perfmodel/error.hpp"

namespace perfmodel::llm {

enum class Norm { rms, layer };         // RMSNorm (weight only) or LayerNorm (weight and bias)
enum class Mlp { gated, plain };        // gate, up, act(gate) x up, down (SwiGLU) or fc1, act, fc2
enum class Positions { rope, learned }; // rotary (no parameters) or a learned position table

struct LlmConfig {
  std::string name;              // the file's stem ("llama-3-8b")
  std::string model_type; // "llama", "mistral", "qwen2", "gpt2", "opt", "mixtral", "deepseek_v3"
  SourceLoc loc;                 // the file
  int64_t hidden = 0;            // hidden_size (d)
  int64_t intermediate = 0;      // intermediate_size (F): the MLP's (or each expert's) width
  int64_t layers = 0;            // num_hidden_layers
  int64_t heads = 0;             // num_attention_heads (H)
  int64_t kv_heads = 0;          // num_key_value_heads (KV; = H when absent: MHA)
  int64_t head_dim = 0;          // head_dim, or hidden / heads
  int64_t vocab = 0;             // vocab_size (V)
  int64_t max_positions = 0;     // max_position_embeddings
  int64_t sliding_window = 0;    // 0 = every key attended (Mistral: 4096)
  int64_t experts = 0;           // num_local_experts (0 = dense MLP)
  int64_t experts_per_token = 0; // num_experts_per_tok
  Norm norm = Norm::rms;
  Mlp mlp = Mlp::gated;
  std::string activation = "silu"; // the MLP's activation: silu, gelu, relu
  Positions positions = Positions::rope;
  bool qkv_bias = false;        // biases on q, k, v (attention_bias; Qwen2 always)
  bool o_bias = false;          // bias on the output projection (attention_bias; GPT-2/OPT)
  bool mlp_bias = false;        // biases on the MLP projections (GPT-2/OPT/GPT-J)
  bool lm_head_bias = false;    // GPT-J's LM head
  bool tied_embeddings = false; // tie_word_embeddings: the LM head reuses the embedding table
  bool parallel_block = false;  // GPT-J: attention and MLP read the same normed input
  int64_t position_offset = 0;  // OPT's learned table has 2 extra rows
  int64_t rotary_dim = 0;       // GPT-J: RoPE on the first rotary_dim of each head (0: all)

  // DeepSeek (model_type deepseek_v2, deepseek_v3): experts of their own width, shared
  // experts, dense first layers, and multi-head latent attention (MLA).
  int64_t moe_intermediate = 0;   // moe_intermediate_size (0: intermediate)
  int64_t shared_experts = 0;     // n_shared_experts: one SwiGLU of this many experts' width
  int64_t first_dense_layers = 0; // first_k_dense_replace: layers 0 ... k-1 have a dense MLP
  int64_t moe_layer_freq = 1;     // moe_layer_freq: a MoE MLP in every n-th layer after those
  bool router_bias = false;       // topk_method noaux_tc: E routing biases per MoE layer
  int64_t kv_lora_rank = 0;       // MLA's cached latent width (0: no MLA)
  int64_t q_lora_rank = 0;        // the query's low-rank width (0: a full q projection)
  int64_t qk_rope_head_dim = 0;   // rotary part of each query and key head (the key's is shared)
  int64_t qk_nope_head_dim = 0;   // the rest of each query and key head
  int64_t v_head_dim = 0;         // each value head

  bool mla() const { return kv_lora_rank > 0; }
  int64_t expert_intermediate() const { return moe_intermediate ? moe_intermediate : intermediate; }
  /// Whether layer i's MLP is a mixture of experts.
  bool moe_layer(int64_t i) const {
    return experts > 0 && i >= first_dense_layers && i % moe_layer_freq == 0;
  }

  int64_t q_width() const { return heads * head_dim; }
  int64_t kv_width() const { return kv_heads * head_dim; }
};

/// Reads a config.json. The keys follow the model_type (docs/llm.md, "Input"); a nested
/// `text_config` (multimodal wrappers) is read in place of the top level. Throws InputError at
/// the file (and the key's line where it is present) for: a file that is not JSON, an unknown
/// model_type, a missing, non-integer or non-positive required field, heads not dividing the
/// hidden size (without head_dim), query heads not a multiple of the KV heads, more experts per
/// token than experts.
LlmConfig read_llm_config(const std::string &path);

/// The same from text (`path` names it in messages).
LlmConfig parse_llm_config(const std::string &text, const std::string &path);

/// `spec` is a path to a config.json or a bare name in models/llm/ ("llama-3-8b").
std::string resolve_llm_config(const std::string &spec);

} // namespace perfmodel::llm
