// How the weight matrices of a language model's decoder blocks are stored (--weight-dtype,
// --group-size): their bytes in memory and in each layer's traffic, the math unchanged
// (docs/llm.md, "Weight data types").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "perfmodel/cost.hpp"
#include "perfmodel/graph.hpp"

namespace perfmodel::llm {

enum class WeightType { fp32, fp16, bf16, fp8, int8, int4 };
std::string_view to_string(WeightType t);
/// "fp32", "fp16", "bf16", "fp8", "int8", "int4" (and parse_dtype's spellings of the first
/// five); nullopt otherwise.
std::optional<WeightType> parse_weight_type(std::string_view s);
/// Bits per stored weight: 32, 16, 16, 8, 8, 4.
int bits_of(WeightType t);
/// int8 and int4 carry one fp16 scale per group of `group_size` consecutive input weights of
/// each output row; fp8 one fp32 scale per matrix (per-tensor scaling); the others none.
bool has_group_scales(WeightType t);

struct WeightFormat {
  WeightType type = WeightType::fp16;
  int64_t group_size = 128; // int8 and int4 only
};

/// Bytes of `count` weight matrices of `rows` x `in` stored in `f`: count x rows x in x bits / 8
/// (rounded up to whole bytes per matrix), plus count x rows x ceil(in / group_size) x 2 for
/// group scales or count x 4 for a per-tensor scale.
int64_t matrix_bytes(const WeightFormat &f, int64_t count, int64_t rows, int64_t in);

/// Whether a layer's weight is stored in the weight format: a `linear` of a decoder block
/// (named "layers.N....") other than a MoE router (named "...router"). Embeddings, the LM head,
/// norms, biases and routers stay in the activations' type, as AWQ, GPTQ and FP8 checkpoints
/// keep them.
bool quantized_layer(const Layer &l);

/// The bytes of every parameter of a graph of llm::build_graph with its block weights in `f`
/// and everything else in `dtype` (each tensor once: a tied LM head is the embedding table).
int64_t weight_bytes(const Graph &g, DType dtype, const WeightFormat &f);
/// One layer's share of weight_bytes (weight_bytes is the sum over the graph's layers).
int64_t layer_weight_bytes(const Layer &l, DType dtype, const WeightFormat &f);

/// Rescales the weight bytes of the quantized layers of `costs` (pass_costs of `g`, built in
/// `dtype`) to the format: a dense layer's weight bytes become matrix_bytes exactly; a MoE
/// expert layer's, already the touched share of its experts, keep that share. FLOPs and the
/// layer's data type (the unit that runs the math) are unchanged: weights are dequantised to
/// `dtype` on the way in.
void apply_weight_format(const Graph &g, DType dtype, const WeightFormat &f,
                         std::vector<LayerCost> &costs);

} // namespace perfmodel::llm
