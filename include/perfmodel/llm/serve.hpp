// One batch of requests served end to end: prefill (TTFT), every decode step (TPOT), memory
// and the largest batch that fits (definitions in docs/llm.md).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/llm/graph.hpp"
#include "perfmodel/llm/quant.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel::llm {

struct ServeOptions {
  int64_t batch = 1;
  int64_t prompt = 1;            // prompt tokens per request (P)
  int64_t generate = 1;          // output tokens per request (G), the first one from the prefill
  DType dtype = DType::fp16;     // weights and activations (and the math)
  std::optional<DType> kv_dtype; // the KV cache (default: dtype)
  std::optional<WeightFormat> weights; // the decoder blocks' weight matrices (default: dtype)
  Attention attention = Attention::flash;
  const Calibration *calibration = nullptr; // null: the roofline
  std::string calibration_name;             // as the user named it (views)
  /// Also predict the whole graphs of the prefill and of the last decode step and keep them
  /// (ServeResult::prefill, last_decode: the layer tables). Without them only the figures are
  /// computed, on one block of each kind (llm/pass_eval.hpp): the same figures, far faster.
  bool layer_tables = true;
};

/// A pass's graph and its prediction (whose layers point into the graph).
struct PassPrediction {
  std::shared_ptr<const Graph> graph;
  Prediction prediction;
  double seconds() const { return prediction.pass_seconds(); }
};

struct ServeResult {
  ServeOptions options;
  int64_t parameters = 0;
  int64_t active_parameters = 0; // per token (MoE: k of E experts)
  int64_t kv_bytes_per_token = 0;
  int64_t weight_bytes = 0;  // every parameter once, the block weights in options.weights
  int64_t kv_cache_bytes = 0; // batch x cached_entries(prompt + generate) x KV bytes per token
                              // (in the KV cache's type)
  int64_t total_bytes = 0;    // weights + KV cache
  double capacity_bytes = 0;  // the device's DRAM
  bool fits = false;
  int64_t max_batch = 0; // the largest batch whose weights + KV cache fit (0: not even the weights)
  Totals prefill_totals; // the prefill's (the whole model's layers)
  PassPrediction prefill;           // with options.layer_tables (else empty)
  PassPrediction last_decode;       // the last decode step, with options.layer_tables (else,
                                    // and when generate is 1, empty)
  std::vector<double> step_seconds; // decode step j = 1 ... G-1 at KV length P + j - 1
  double ttft = 0;                  // prefill time
  double tpot_first = 0, tpot_last = 0, tpot_mean = 0; // over step_seconds; 0 without steps
  double e2e = 0;                                      // ttft + sum of step_seconds
  double tokens_per_second_request = 0;                // G / e2e
  double tokens_per_second_batch = 0;                  // batch x G / e2e
  double energy_joules_request = 0;   // the batch's energy / batch (component model)
  double energy_joules_per_token = 0; // the batch's energy / (batch x G)
  Bound prefill_bound = Bound::none, decode_bound = Bound::none; // most seconds, per phase
};

/// Evaluates the model serving one batch. Throws InputError for a prompt or generate count
/// below 1, more positions (P + G - 1) than max_position_embeddings (naming the limit), or hardware
/// with no unit for the data type.
ServeResult serve(const LlmConfig &c, const HwSpec &hw, const ServeOptions &o);

class PassEval; // llm/pass_eval.hpp

/// One model served on one device under fixed options (data types, weight format, attention,
/// calibration, layer tables) at any batch and lengths: what depends on neither is computed
/// once, and the decode pass of the last batch is kept and moved to the next request's KV
/// length (a sweep asks for its points batch by batch). Holds `c` and `hw` by reference.
class Server {
public:
  /// `o`'s batch, prompt and generate are not used.
  Server(const LlmConfig &c, const HwSpec &hw, const ServeOptions &o);
  ~Server();
  Server(const Server &) = delete;
  Server &operator=(const Server &) = delete;
  /// serve(c, hw, o with this batch, prompt and generate), equal bit for bit (the same errors).
  ServeResult serve(int64_t batch, int64_t prompt, int64_t generate);

private:
  const LlmConfig &c_;
  const HwSpec &hw_;
  ServeOptions o_;
  int64_t parameters_ = 0, active_parameters_ = 0;
  std::optional<int64_t> weight_bytes_; // once known (independent of the batch and lengths)
  std::unique_ptr<PassEval> decode_;    // the decode pass of batch decode_batch_
  int64_t decode_batch_ = 0;
};

/// The mean of the per-step times (the definition of the mean TPOT): 0 for no steps.
double mean_step_seconds(const std::vector<double> &steps);

} // namespace perfmodel::llm
