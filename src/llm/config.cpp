// HuggingFace config.json reader for decoder-only models (docs/llm.md, "Input").
#include "perfmodel/llm/config.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "perfmodel/io/resources.hpp"

namespace perfmodel::llm {

namespace {

using nlohmann::json;

// The largest value of a size field: far above any released model (hidden sizes are below
// 2^16, vocabularies below 2^20, context lengths below 2^24), and small enough that the graph
// builder's products of two sizes stay exact in int64.
constexpr int64_t kMaxField = (int64_t{1} << 31) - 1;

// 1-based line and column of byte `at` of `text` (clamped to its end).
SourceLoc location_of(const std::string &text, size_t at, const std::string &path) {
  SourceLoc loc{path, 1, 1};
  at = std::min(at, text.size());
  size_t line_start = 0;
  for (size_t i = 0; i < at; ++i)
    if (text[i] == '\n') {
      loc.line++;
      line_start = i + 1;
    }
  loc.column = int(at - line_start) + 1;
  return loc;
}

// Reads one config object; `text` and `base` (the offset of the object's text) locate keys.
class Reader {
public:
  Reader(const json &j, const std::string &text, size_t base, const std::string &path)
      : j_(j), text_(text), base_(base), path_(path) {}

  // Where `"key"` first appears at or after the object's start: the key's line and column, or
  // the file alone when the text does not hold it.
  SourceLoc where(const std::string &key) const {
    const size_t at = text_.find("\"" + key + "\"", base_);
    if (at == std::string::npos)
      return SourceLoc{path_, 0, 0};
    return location_of(text_, at, path_);
  }

  [[noreturn]] void fail(const std::string &key, const std::string &msg) const {
    throw InputError(where(key), msg);
  }

  bool has(const std::string &key) const { return j_.contains(key) && !j_.at(key).is_null(); }

  // A required positive integer.
  int64_t positive(const std::string &key) const {
    if (!has(key))
      fail(key, "missing required field '" + key + "' (model_type " + type() + ")");
    return checked(key);
  }
  // An optional positive integer: `fallback` when absent or null.
  int64_t positive_or(const std::string &key, int64_t fallback) const {
    return has(key) ? checked(key) : fallback;
  }
  // An optional integer >= 0: `fallback` when absent or null.
  int64_t non_negative_or(const std::string &key, int64_t fallback) const {
    if (!has(key))
      return fallback;
    const json &v = j_.at(key);
    if (v.is_number_integer() && v.get<int64_t>() == 0)
      return 0;
    return checked(key);
  }
  bool flag(const std::string &key, bool fallback) const {
    if (!has(key))
      return fallback;
    if (!j_.at(key).is_boolean())
      fail(key, "'" + key + "' must be true or false");
    return j_.at(key).get<bool>();
  }
  std::string string_or(const std::string &key, const std::string &fallback) const {
    if (!has(key))
      return fallback;
    if (!j_.at(key).is_string())
      fail(key, "'" + key + "' must be a string");
    return j_.at(key).get<std::string>();
  }
  std::string type() const { return j_.value("model_type", std::string("?")); }

private:
  int64_t checked(const std::string &key) const {
    const json &v = j_.at(key);
    if (!v.is_number_integer())
      fail(key, "'" + key + "' must be an integer, not " + v.dump());
    const int64_t n = v.get<int64_t>();
    if (n <= 0)
      fail(key, "'" + key + "' must be positive, not " + std::to_string(n));
    if (n > kMaxField)
      fail(key, "'" + key + "' must be at most " + std::to_string(kMaxField) + ", not " +
                    std::to_string(n));
    return n;
  }

  const json &j_;
  const std::string &text_;
  size_t base_;
  std::string path_;
};

void read_llama_like(const Reader &r, LlmConfig &c) {
  c.hidden = r.positive("hidden_size");
  c.intermediate = r.positive("intermediate_size");
  c.layers = r.positive("num_hidden_layers");
  c.heads = r.positive("num_attention_heads");
  c.kv_heads = r.positive_or("num_key_value_heads", c.heads);
  c.vocab = r.positive("vocab_size");
  c.max_positions = r.positive("max_position_embeddings");
  c.tied_embeddings = r.flag("tie_word_embeddings", false);
  if (r.has("head_dim"))
    c.head_dim = r.positive("head_dim");
  const std::string act = r.string_or("hidden_act", "silu");
  if (act != "silu" && act != "swish")
    r.fail("hidden_act", "hidden_act '" + act + "' is not supported for model_type " +
                             c.model_type + " (silu: a SwiGLU MLP)");
  c.norm = Norm::rms;
  c.mlp = Mlp::gated;
  c.activation = "silu";
  c.positions = Positions::rope;
  if (c.model_type == "qwen2") {
    c.qkv_bias = true; // Qwen2's q/k/v projections always carry a bias; o_proj has none
    if (r.flag("use_sliding_window", false))
      c.sliding_window = r.positive("sliding_window");
  } else {
    const bool bias = r.flag("attention_bias", false);
    c.qkv_bias = c.o_bias = bias;
    c.mlp_bias = r.flag("mlp_bias", false);
    if (c.model_type == "mistral" || c.model_type == "mixtral")
      c.sliding_window = r.positive_or("sliding_window", 0);
  }
  if (c.model_type == "mixtral") {
    c.experts = r.positive("num_local_experts");
    c.experts_per_token = r.positive("num_experts_per_tok");
    if (c.experts_per_token > c.experts)
      r.fail("num_experts_per_tok", "num_experts_per_tok (" + std::to_string(c.experts_per_token) +
                                        ") exceeds num_local_experts (" +
                                        std::to_string(c.experts) + ")");
  }
}

// DeepSeek-V2/V3: RMSNorm, RoPE, SwiGLU; MLA attention; MoE with shared experts after
// first_k_dense_replace dense layers.
void read_deepseek(const Reader &r, LlmConfig &c) {
  c.hidden = r.positive("hidden_size");
  c.intermediate = r.positive("intermediate_size");
  c.layers = r.positive("num_hidden_layers");
  c.heads = r.positive("num_attention_heads");
  c.kv_heads = c.heads; // MLA: every query head has its own key and value (from the latent)
  c.vocab = r.positive("vocab_size");
  c.max_positions = r.positive("max_position_embeddings");
  c.tied_embeddings = r.flag("tie_word_embeddings", false);
  const std::string act = r.string_or("hidden_act", "silu");
  if (act != "silu" && act != "swish")
    r.fail("hidden_act", "hidden_act '" + act + "' is not supported for model_type " +
                             c.model_type + " (silu: a SwiGLU MLP)");
  if (r.flag("attention_bias", false))
    r.fail("attention_bias", "attention_bias true is not supported for model_type " + c.model_type);
  c.norm = Norm::rms;
  c.mlp = Mlp::gated;
  c.activation = "silu";
  c.positions = Positions::rope;
  c.kv_lora_rank = r.positive("kv_lora_rank");
  c.q_lora_rank = r.non_negative_or("q_lora_rank", 0);
  c.qk_rope_head_dim = r.positive("qk_rope_head_dim");
  c.qk_nope_head_dim = r.positive("qk_nope_head_dim");
  c.v_head_dim = r.positive("v_head_dim");
  c.head_dim = c.qk_nope_head_dim + c.qk_rope_head_dim; // a query head's width
  if (r.has("n_routed_experts")) {
    c.experts = r.positive("n_routed_experts");
    c.experts_per_token = r.positive("num_experts_per_tok");
    if (c.experts_per_token > c.experts)
      r.fail("num_experts_per_tok", "num_experts_per_tok (" + std::to_string(c.experts_per_token) +
                                        ") exceeds n_routed_experts (" +
                                        std::to_string(c.experts) + ")");
    c.moe_intermediate = r.positive("moe_intermediate_size");
    c.shared_experts = r.non_negative_or("n_shared_experts", 0);
    c.first_dense_layers = r.non_negative_or("first_k_dense_replace", 0);
    c.moe_layer_freq = r.positive_or("moe_layer_freq", 1);
    c.router_bias = r.string_or("topk_method", "greedy") == "noaux_tc";
  }
}

// The sizes GPT-2-style configs name alike (GPT-2, GPT-J): n_embd, n_layer, n_head (MHA),
// vocab_size, n_positions and n_inner (default 4 x n_embd), read in that order.
void read_gpt2_sizes(const Reader &r, LlmConfig &c) {
  c.hidden = r.positive("n_embd");
  c.layers = r.positive("n_layer");
  c.heads = r.positive("n_head");
  c.kv_heads = c.heads;
  c.vocab = r.positive("vocab_size");
  c.max_positions = r.positive("n_positions");
  c.intermediate = r.positive_or("n_inner", 4 * c.hidden);
}

void read_gpt2(const Reader &r, LlmConfig &c) {
  read_gpt2_sizes(r, c);
  c.tied_embeddings = r.flag("tie_word_embeddings", true);
  c.norm = Norm::layer;
  c.mlp = Mlp::plain;
  c.activation = "gelu"; // gelu_new, the tanh approximation: counted as gelu
  c.positions = Positions::learned;
  c.qkv_bias = c.o_bias = c.mlp_bias = true;
}

// GPT-J: one LayerNorm per layer read by the attention and the MLP in parallel, RoPE on the
// first rotary_dim of each head, no attention biases, biased MLP and LM head.
void read_gptj(const Reader &r, LlmConfig &c) {
  read_gpt2_sizes(r, c);
  c.tied_embeddings = r.flag("tie_word_embeddings", false);
  c.rotary_dim = r.positive_or("rotary_dim", 0);
  c.norm = Norm::layer;
  c.mlp = Mlp::plain;
  c.activation = "gelu"; // gelu_new, the tanh approximation: counted as gelu
  c.positions = Positions::rope;
  c.mlp_bias = c.lm_head_bias = c.parallel_block = true;
}

void read_opt(const Reader &r, LlmConfig &c) {
  c.hidden = r.positive("hidden_size");
  c.intermediate = r.positive("ffn_dim");
  c.layers = r.positive("num_hidden_layers");
  c.heads = r.positive("num_attention_heads");
  c.kv_heads = c.heads;
  c.vocab = r.positive("vocab_size");
  c.max_positions = r.positive("max_position_embeddings");
  c.tied_embeddings = r.flag("tie_word_embeddings", true);
  if (r.positive_or("word_embed_proj_dim", c.hidden) != c.hidden)
    r.fail("word_embed_proj_dim", "word_embed_proj_dim other than hidden_size (OPT-350M's "
                                  "projections) is not supported");
  if (!r.flag("do_layer_norm_before", true))
    r.fail("do_layer_norm_before", "post-norm OPT (do_layer_norm_before false) is not supported");
  const bool bias = r.flag("enable_bias", true);
  c.qkv_bias = c.o_bias = c.mlp_bias = bias;
  c.norm = Norm::layer;
  c.mlp = Mlp::plain;
  c.activation = "relu";
  c.positions = Positions::learned;
  c.position_offset = 2; // OPTLearnedPositionalEmbedding: max_position_embeddings + 2 rows
}

} // namespace

LlmConfig parse_llm_config(const std::string &text, const std::string &path) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error &e) {
    // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 5: syntax ...";
    // the position goes to the location, the rest stays.
    const std::string what = e.what();
    const size_t at = what.find("syntax error");
    throw InputError(location_of(text, e.byte > 0 ? e.byte - 1 : 0, path),
                     "not a JSON file: " +
                         (text.empty() ? std::string("the file is empty")
                                       : at == std::string::npos ? what : what.substr(at)));
  } catch (const json::exception &e) {
    // Not a syntax error, e.g. out_of_range.406 for a number beyond a double ("1E999999").
    const std::string what = e.what();
    const size_t at = what.find("] ");
    throw InputError(SourceLoc{path},
                     "not a JSON file: " + (at == std::string::npos ? what : what.substr(at + 2)));
  }
  if (!root.is_object())
    throw InputError(SourceLoc{path, 0, 0}, "a config.json holds one JSON object");
  size_t base = 0;
  const json *obj = &root;
  if (root.contains("text_config") && root.at("text_config").is_object()) {
    obj = &root.at("text_config"); // multimodal wrappers: the language model's own config
    base = text.find("\"text_config\"");
  }
  const Reader r(*obj, text, base, path);
  LlmConfig c;
  c.loc = SourceLoc{path, 0, 0};
  c.name = std::filesystem::path(path).stem().string();
  if (!r.has("model_type"))
    r.fail("model_type", "missing required field 'model_type'");
  c.model_type = r.string_or("model_type", "");
  if (c.model_type == "llama" || c.model_type == "mistral" || c.model_type == "qwen2" ||
      c.model_type == "mixtral")
    read_llama_like(r, c);
  else if (c.model_type == "deepseek_v3" || c.model_type == "deepseek_v2")
    read_deepseek(r, c);
  else if (c.model_type == "gpt2")
    read_gpt2(r, c);
  else if (c.model_type == "opt")
    read_opt(r, c);
  else if (c.model_type == "gptj")
    read_gptj(r, c);
  else
    r.fail("model_type", "unknown model_type '" + c.model_type +
                             "' (known: llama, mistral, mixtral, qwen2, deepseek_v2, deepseek_v3, gpt2, gptj, opt)");
  const bool gpt2 = c.model_type == "gpt2";
  const std::string heads_key = gpt2 ? "n_head" : "num_attention_heads";
  if (c.head_dim == 0) {
    if (c.hidden % c.heads != 0)
      r.fail(heads_key, heads_key + " (" + std::to_string(c.heads) + ") does not divide " +
                            (gpt2 ? "n_embd" : "hidden_size") + " (" + std::to_string(c.hidden) +
                            ") and there is no head_dim");
    c.head_dim = c.hidden / c.heads;
  }
  if (c.rotary_dim > c.head_dim)
    r.fail("rotary_dim", "rotary_dim (" + std::to_string(c.rotary_dim) +
                             ") exceeds the head dimension (" + std::to_string(c.head_dim) + ")");
  if (c.heads % c.kv_heads != 0)
    r.fail("num_key_value_heads", "num_key_value_heads (" + std::to_string(c.kv_heads) +
                                      ") does not divide num_attention_heads (" +
                                      std::to_string(c.heads) + ")");
  return c;
}

LlmConfig read_llm_config(const std::string &path) {
  std::ifstream f(path);
  if (!f)
    throw InputError(SourceLoc{path, 0, 0}, "cannot read the file");
  std::ostringstream ss;
  ss << f.rdbuf();
  return parse_llm_config(ss.str(), path);
}

std::string resolve_llm_config(const std::string &spec) {
  return io::resolve_resource(spec, "models/llm", {".json"});
}

} // namespace perfmodel::llm
