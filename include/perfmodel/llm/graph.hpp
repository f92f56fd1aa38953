// The graph of one pass of a decoder-only model (prefill of T tokens, or one decode step at KV
// length L) in perfmodel's IR, and the cost of each layer under the attention rules of
// docs/llm.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "perfmodel/cost.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/llm/config.hpp"

namespace perfmodel::llm {

enum class Phase { prefill, decode };
std::string_view to_string(Phase p);

/// flash: QK^T, softmax and AV run as one kernel: the score matrix never reaches memory and
/// masked (future, or outside the sliding window) query-key pairs are skipped.
/// eager: three kernels; the scores are written and read, the whole rectangle is computed.
enum class Attention { flash, eager };
std::string_view to_string(Attention a);

/// One pass: `tokens` new tokens per sequence for `batch` sequences, after `context` tokens
/// already in the KV cache. Prefill of a prompt of T: {prefill, B, T, 0}; the decode step at
/// KV length L: {decode, B, 1, L} (reads the L cached entries, appends one, attends L + 1).
struct PassShape {
  Phase phase = Phase::prefill;
  int64_t batch = 1;
  int64_t tokens = 1;
  int64_t context = 0;
};

/// The query-key pairs one (sequence, query head) computes: for query i (0-based, at position
/// context + i) the keys at positions max(0, context + i + 1 - window) ... context + i, window 0
/// meaning none. With context 0 and no window: T (T + 1) / 2.
int64_t attended_pairs(int64_t tokens, int64_t context, int64_t window);

/// KV-cache entries a sequence of `length` tokens keeps: length, or the window when it is set
/// and shorter (Mistral's rolling buffer).
int64_t cached_entries(const LlmConfig &c, int64_t length);

/// Bytes of K and V one token adds to the cache over all layers: 2 x layers x kv_heads x
/// head_dim x bytes(dtype).
int64_t kv_bytes_per_token(const LlmConfig &c, DType kv_dtype);

/// Parameters of the model from its config (each shared tensor once): what the graph's
/// param_count() gives too.
int64_t parameter_count(const LlmConfig &c);

/// Parameters one token's forward pass uses: all but the experts it is not routed to (MoE:
/// E - k experts per layer); the total for a dense model.
int64_t active_parameter_count(const LlmConfig &c);

/// The shape-inferred graph of one pass, every float tensor in `dtype` but the KV cache, in
/// `kv_dtype` (default: `dtype`): the entries the pass appends and those it reads back. Layer
/// names follow HuggingFace's modules ("layers.3.self_attn.q_proj"). Throws InputError for a
/// pass beyond the model (no tokens, a batch below 1).
Graph build_graph(const LlmConfig &c, const PassShape &s, DType dtype,
                  std::optional<DType> kv_dtype = std::nullopt);

/// Moves a decode graph of build_graph (tokens 1, context >= 1) to KV length `context`: the K
/// and V cache inputs and the score tensors take the new key count, nothing else changes, so
/// the graph equals build_graph's at that context (test/llm/graph_test.cpp) without being
/// built again. Decode steps differ only there.
void set_decode_context(Graph &g, const LlmConfig &c, int64_t context);

/// The tensors of a decode graph of build_graph(c, ...) whose shapes follow the KV length,
/// found once: set(context) does what set_decode_context does without looking a name up (the
/// decode steps of one request). Holds pointers into `g`: valid while g lives, uncopied, with
/// its tensors neither erased nor rebuilt.
class DecodeContext {
public:
  /// Throws std::invalid_argument for a graph that is not a decode graph of `c`.
  DecodeContext(Graph &g, const LlmConfig &c);
  void set(int64_t context);
  /// A tensor set() changes and the dimension it sets (the key count).
  struct Resized {
    TensorDesc *tensor;
    size_t dim;
  };
  const std::vector<Resized> &resized() const { return resized_; }

private:
  Graph *g_;
  LlmConfig c_;
  std::vector<Resized> resized_;
  std::vector<std::pair<size_t, const TensorDesc *>> inputs_; // g.inputs[i] mirrors the tensor
};

/// The cost of each layer of build_graph(c, s, dtype): graph_cost() of the forward pass with
/// the rules the IR's ops do not know (docs/llm.md, "Counting"): RoPE at 3 FLOPs per element
/// reading its cos and sin tables; attention's scores, softmax and AV counted over the
/// attended pairs with no score bytes (flash), or over the whole rectangle (eager).
std::vector<LayerCost> pass_costs(const Graph &g, const LlmConfig &c, const PassShape &s,
                                  Attention mode);

/// pass_costs(g, c, s, mode)[i], alone.
LayerCost pass_layer_cost(const Graph &g, size_t i, const LlmConfig &c, const PassShape &s,
                          Attention mode);

} // namespace perfmodel::llm
