// Weight storage formats (--weight-dtype, --group-size) against hand-computed bytes.
#include <doctest/doctest.h>

#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/quant.hpp"
#include "perfmodel/llm/serve.hpp"

using namespace perfmodel;
using namespace perfmodel::llm;

namespace {

// d 64, F 160, 2 layers, 4 heads of 16, 2 KV heads, vocab 256, untied: 119,104 parameters, of
// which 86,016 in the blocks' matrices (per layer q 64x64, k and v 32x64, o 64x64, gate and up
// 160x64, down 64x160) and 33,088 elsewhere (embedding, head, norms).
LlmConfig tiny() {
  return parse_llm_config(R"({"model_type": "llama", "hidden_size": 64,
      "intermediate_size": 160, "num_hidden_layers": 2, "num_attention_heads": 4,
      "num_key_value_heads": 2, "vocab_size": 256, "max_position_embeddings": 64})",
                          "tiny.json");
}

const LayerCost &cost_of(const Graph &g, const std::vector<LayerCost> &costs,
                         const std::string &name) {
  for (size_t i = 0; i < g.layers.size(); ++i)
    if (g.layers[i].name == name)
      return costs[i];
  FAIL("no layer " << name);
  return costs[0];
}

const Layer &layer(const Graph &g, const std::string &name) {
  for (const auto &l : g.layers)
    if (l.name == name)
      return l;
  FAIL("no layer " << name);
  return g.layers[0];
}

} // namespace

TEST_CASE("llm quant: bytes of one matrix in each format") {
  // a 64 x 160 matrix (rows x input features): 10,240 weights
  CHECK(matrix_bytes({WeightType::fp16, 128}, 1, 64, 160) == 20480);
  CHECK(matrix_bytes({WeightType::fp8, 128}, 1, 64, 160) == 10240 + 4);    // + one fp32 scale
  CHECK(matrix_bytes({WeightType::int8, 128}, 1, 64, 160) == 10240 + 256); // 64 x 2 groups x 2 B
  CHECK(matrix_bytes({WeightType::int4, 128}, 1, 64, 160) == 5120 + 256);  // 4 bits each
  CHECK(matrix_bytes({WeightType::int4, 32}, 1, 64, 160) == 5120 + 640);   // 64 x 5 x 2 B
  CHECK(matrix_bytes({WeightType::int4, 32}, 8, 64, 160) == 8 * (5120 + 640)); // 8 experts
  CHECK(parse_weight_type("int4") == WeightType::int4);
  CHECK(parse_weight_type("half") == WeightType::fp16);
  CHECK_FALSE(parse_weight_type("int32"));
  CHECK_FALSE(parse_weight_type("int3"));
}

TEST_CASE("llm quant: weight memory of a model with int4 blocks, group 32") {
  const LlmConfig c = tiny();
  const Graph g = build_graph(c, PassShape{Phase::prefill, 1, 4, 0}, DType::fp16);
  // per layer: q 2048 + 64x2x2 = 2304; k, v 1024 + 32x2x2 = 1152 each; o 2304; gate, up 5120 +
  // 160x2x2 = 5760 each; down 5120 + 64x5x2 = 5760: 24,192. Two layers 48,384 + 33,088 x 2 B.
  CHECK(weight_bytes(g, DType::fp16, {WeightType::int4, 32}) == 48384 + 66176);
  // fp16 storage is the parameters at 2 bytes
  CHECK(weight_bytes(g, DType::fp16, {WeightType::fp16, 128}) == 2 * 119104);
  CHECK(quantized_layer(layer(g, "layers.0.mlp.down_proj")));
  CHECK_FALSE(quantized_layer(layer(g, "lm_head")));
  CHECK_FALSE(quantized_layer(layer(g, "layers.1.input_layernorm")));
}

TEST_CASE("llm quant: a layer's traffic takes the stored bytes, its FLOPs and unit do not change") {
  const LlmConfig c = tiny();
  const PassShape s{Phase::decode, 1, 1, 8};
  const Graph g = build_graph(c, s, DType::fp16);
  std::vector<LayerCost> costs = pass_costs(g, c, s, Attention::flash);
  const LayerCost before = cost_of(g, costs, "layers.0.self_attn.q_proj");
  apply_weight_format(g, DType::fp16, {WeightType::int4, 32}, costs);
  const LayerCost &q = cost_of(g, costs, "layers.0.self_attn.q_proj");
  CHECK(before.fwd.bytes_weights == 8192);
  CHECK(q.fwd.bytes_weights == 2304);
  CHECK(q.total.bytes_weights == 2304);
  CHECK(q.fwd.flops == before.fwd.flops);
  CHECK(q.fwd.bytes_input == before.fwd.bytes_input);
  CHECK(cost_of(g, costs, "lm_head").fwd.bytes_weights == 256 * 64 * 2);
}

TEST_CASE("llm quant: int4 weights make a memory-bound decode faster and the weights smaller") {
  const LlmConfig c = read_llm_config(resolve_llm_config("llama-3-8b"));
  const HwSpec hw = io::load_hw("h100");
  ServeOptions o;
  o.prompt = 512;
  o.generate = 2;
  const ServeResult fp16 = serve(c, hw, o);
  o.weights = WeightFormat{WeightType::int4, 128};
  const ServeResult int4 = serve(c, hw, o);
  // blocks: 32 x (4096x4096 x 2 + 1024x4096 x 2 + 3 x 14336x4096) = 6,979,321,856 weights
  const int64_t block = int64_t(32) * (2 * 4096 * 4096 + 2 * 1024 * 4096 + 3 * 14336 * 4096);
  // scales: rows x (in / 128) x 2 B; every matrix but down has in = 4096 (32 groups)
  const int64_t scales =
      int64_t(32) * 2 * ((2 * 4096 + 2 * 1024 + 2 * 14336) * 32 + 4096 * (14336 / 128));
  CHECK(int4.weight_bytes == (8030261248 - block) * 2 + block / 2 + scales);
  // a decode step reads the weights but the embedding table (one row): 15.0 GB in fp16,
  // 4.65 GB in int4; the launch overheads stay
  const double fp16_bytes = double(fp16.last_decode.prediction.totals.cost.bytes());
  const double int4_bytes = double(int4.last_decode.prediction.totals.cost.bytes());
  CHECK(int4_bytes < 0.32 * fp16_bytes);
  CHECK(int4_bytes > 0.30 * fp16_bytes);
  CHECK(int4.tpot_mean < 0.6 * fp16.tpot_mean);
  CHECK(int4.max_batch > fp16.max_batch);
}
