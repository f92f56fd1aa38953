// The config.json reader and the exact counts: parameters against the published totals, KV
// bytes per token, the graph's own parameter count.
#include <doctest/doctest.h>

#include "perfmodel/llm/config.hpp"
#include "perfmodel/llm/graph.hpp"

using namespace perfmodel;
using namespace perfmodel::llm;

namespace {

LlmConfig shipped(const std::string &name) { return read_llm_config(resolve_llm_config(name)); }

std::string error_of(const std::string &text) {
  try {
    parse_llm_config(text, "cfg.json");
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("llm config: every shipped config gives its published parameter count") {
  const std::pair<const char *, int64_t> published[] = {
      {"llama-2-7b", 6738415616},    {"llama-2-13b", 13015864320}, {"llama-2-70b", 68976648192},
      {"llama-3-8b", 8030261248},    {"llama-3-70b", 70553706496}, {"mistral-7b-v0.1", 7241732096},
      {"mixtral-8x7b", 46702792704}, {"qwen2.5-7b", 7615616512},   {"gpt2", 124439808},
      {"opt-13b", 12853473280},      {"deepseek-v3", 671026419200}, {"gpt-j-6b", 6050882784}};
  for (const auto &entry : published) {
    const char *name = entry.first; // not a structured binding: clang 14's CAPTURE cannot take one
    const int64_t count = entry.second;
    CAPTURE(name);
    const LlmConfig c = shipped(name);
    CHECK(parameter_count(c) == count);
    // the graph holds the same parameters, each shared tensor once
    const Graph g = build_graph(c, PassShape{Phase::decode, 1, 1, 3}, DType::fp16);
    CHECK(g.param_count() == count);
  }
}

TEST_CASE("llm config: KV bytes per token (fp16 cache)") {
  CHECK(kv_bytes_per_token(shipped("llama-3-8b"), DType::fp16) == 131072);
  CHECK(kv_bytes_per_token(shipped("llama-2-70b"), DType::fp16) == 327680);
  CHECK(kv_bytes_per_token(shipped("llama-2-7b"), DType::fp16) == 524288);
  CHECK(kv_bytes_per_token(shipped("llama-3-8b"), DType::fp8) == 65536);
}

TEST_CASE("llm config: fields by model type") {
  const LlmConfig q = shipped("qwen2.5-7b");
  CHECK(q.qkv_bias);
  CHECK_FALSE(q.o_bias);
  CHECK(q.sliding_window == 0); // use_sliding_window false
  CHECK(q.head_dim == 128);
  const LlmConfig m = shipped("mistral-7b-v0.1");
  CHECK(m.sliding_window == 4096);
  CHECK(cached_entries(m, 10000) == 4096);
  const LlmConfig x = shipped("mixtral-8x7b");
  CHECK(x.experts == 8);
  CHECK(x.experts_per_token == 2);
  CHECK(x.sliding_window == 0); // null
  // 2 of 8 experts per token: Mistral AI's "12.9B active parameters"
  CHECK(active_parameter_count(x) == 12879925248);
  CHECK(active_parameter_count(m) == parameter_count(m));
  // head_dim given explicitly wins over hidden / heads; text_config is read in place
  const LlmConfig n = parse_llm_config(
      R"({"model_type": "x-vl", "text_config": {"model_type": "llama", "hidden_size": 64,
          "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
          "num_key_value_heads": 1, "head_dim": 32, "vocab_size": 100,
          "max_position_embeddings": 64, "tie_word_embeddings": true}})",
      "vl.json");
  CHECK(n.head_dim == 32);
  CHECK(n.kv_heads == 1);
  CHECK(n.tied_embeddings);
  CHECK(parameter_count(n) ==
        100 * 64 + 2 * (64 * 128 + 2 * 64 * 32 + 128 * 64 + 3 * 64 * 128 + 2 * 64) + 64);
}

TEST_CASE("llm config: bad input names the file and the key") {
  const std::string base = R"("hidden_size": 64, "intermediate_size": 128,
      "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
      "max_position_embeddings": 64)";
  CHECK(error_of(R"({"model_type": "llama", )" + base + "}") == "");
  CHECK(error_of(R"({"model_type": "bloom", )" + base + "}") ==
        "cfg.json:1:2: error: unknown model_type 'bloom' (known: llama, mistral, mixtral, qwen2, "
        "deepseek_v2, deepseek_v3, gpt2, gptj, opt)");
  CHECK(error_of(R"({"model_type": "llama", "hidden_size": 64})") ==
        "cfg.json: error: missing required field 'intermediate_size' (model_type llama)");
  CHECK(error_of("{\"model_type\": \"llama\",\n \"num_key_value_heads\": -2, " + base + "}") ==
        "cfg.json:2:2: error: 'num_key_value_heads' must be positive, not -2");
  CHECK(error_of("{\"model_type\": \"llama\", \"num_key_value_heads\": 3, " + base + "}")
            .find("num_key_value_heads (3) does not divide num_attention_heads (4)") !=
        std::string::npos);
  const std::string odd = R"({"model_type": "llama", "hidden_size": 66, "intermediate_size": 128,
      "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
      "max_position_embeddings": 64})";
  CHECK(error_of(odd).find("num_attention_heads (4) does not divide hidden_size (66)") !=
        std::string::npos);
  CHECK(error_of("[1]") == "cfg.json: error: a config.json holds one JSON object");
  CHECK(error_of("{").rfind("cfg.json:1:2: error: not a JSON file: syntax error", 0) == 0);
}

TEST_CASE("llm config: a JSON syntax error is located; absurd sizes are refused at their key") {
  // Found by fuzz/fuzz_llm_config.cpp and the bad-input corpus: the message held nlohmann's
  // "[json.exception...] parse error at line 2, column 3" instead of a location, and a
  // vocab_size of INT64_MAX reached the graph builder, which named no file.
  CHECK(error_of("{\"model_type\": \"llama\",\n  x}")
            .rfind("cfg.json:2:3: error: not a JSON file: syntax error while parsing object key", 0) ==
        0);
  CHECK(error_of("") == "cfg.json:1:1: error: not a JSON file: the file is empty");
  // Found by fuzz/fuzz_llm_config.cpp: a number beyond a double is nlohmann's out_of_range, not
  // a parse_error, and left as an internal error.
  CHECK(error_of(R"({"model_type": "llama", "hidden_size": 9999E999999})") ==
        "cfg.json: error: not a JSON file: number overflow parsing '9999E999999'");
  const std::string big = R"({"model_type": "llama", "hidden_size": 64, "intermediate_size": 128,
      "num_hidden_layers": 2, "num_attention_heads": 4,
      "vocab_size": 9223372036854775807, "max_position_embeddings": 64})";
  CHECK(error_of(big) == "cfg.json:3:7: error: 'vocab_size' must be at most 2147483647, not "
                         "9223372036854775807");
}

TEST_CASE("llm config: GPT-2 and OPT styles") {
  const LlmConfig g = shipped("gpt2");
  CHECK(g.norm == Norm::layer);
  CHECK(g.mlp == Mlp::plain);
  CHECK(g.activation == "gelu");
  CHECK(g.positions == Positions::learned);
  CHECK(g.tied_embeddings);
  CHECK(g.intermediate == 4 * 768);
  // OPT: ReLU, biases, a position table 2 rows longer than max_position_embeddings
  const LlmConfig o = parse_llm_config(R"({"model_type": "opt", "hidden_size": 64,
      "ffn_dim": 256, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
      "max_position_embeddings": 32, "word_embed_proj_dim": 64, "do_layer_norm_before": true})",
                                       "opt.json");
  CHECK(o.activation == "relu");
  CHECK(o.position_offset == 2);
  const int64_t layer = 4 * 64 * 64 + 4 * 64 + 2 * 64 * 256 + 256 + 64 + 4 * 64;
  CHECK(parameter_count(o) == 100 * 64 + 34 * 64 + 2 * layer + 2 * 64);
  const Graph graph = build_graph(o, PassShape{Phase::prefill, 1, 4, 0}, DType::fp16);
  CHECK(graph.param_count() == parameter_count(o));
  CHECK(error_of(R"({"model_type": "opt", "hidden_size": 64, "ffn_dim": 256,
      "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
      "max_position_embeddings": 32, "do_layer_norm_before": false})")
            .find("post-norm OPT") != std::string::npos);
}

TEST_CASE("llm config: GPT-J's parallel block and partial rotary embedding") {
  const LlmConfig c = shipped("gpt-j-6b");
  CHECK(c.parallel_block);
  CHECK(c.head_dim == 256);
  CHECK(c.rotary_dim == 64);
  CHECK(c.intermediate == 4 * 4096); // n_inner null
  // per layer: ln_1 8,192 + q, k, v, out 4 x 4096^2 + fc_in 4096 x 16384 + 16384 + fc_out
  // 16384 x 4096 + 4096 = 201,355,264; embedding 206,438,400, ln_f 8,192, head 206,438,400 +
  // its bias 50,400
  CHECK(parameter_count(c) == 28 * int64_t(201355264) + 206438400 + 8192 + 206438400 + 50400);
  const PassShape s{Phase::prefill, 1, 4, 0};
  const Graph g = build_graph(c, s, DType::fp16);
  const auto costs = pass_costs(g, c, s, Attention::flash);
  for (size_t i = 0; i < g.layers.size(); ++i)
    if (g.layers[i].name == "layers.0.self_attn.rope_q") // 64 of each 256-wide head
      CHECK(costs[i].fwd.flops == 3 * 4 * 16 * 64);
}
