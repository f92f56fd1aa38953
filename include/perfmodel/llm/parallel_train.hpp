// A training step on tp x pp x dp devices (Megatron-LM's scheme): compute, communication per
// kind, pipeline bubble (1F1B or interleaved), optimizer; memory per device after Korthikanti
// et al. 2022; MFU and tokens/s (docs/parallel.md, "Training").
#pragma once

#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/llm/graph.hpp"
#include "perfmodel/llm/parallel_serve.hpp"

namespace perfmodel::llm {

enum class Recompute { none, selective, full };
std::string_view to_string(Recompute r);
std::optional<Recompute> parse_recompute(std::string_view s);

struct TrainOptions {
  ParallelSplit split;
  int64_t global_batch = 1; // sequences per step (B)
  int64_t microbatch = 1;   // sequences per microbatch (b)
  int64_t seq = 2048;       // tokens per sequence (s)
  Recompute recompute = Recompute::selective;
  int zero = 0; // 0: none; 1: optimizer states, 2: + gradients, 3: + weights sharded over dp
  DType dtype = DType::bf16;
  Attention attention = Attention::flash; // eager: the score matrices are stored (5as/h)
  /// Megatron-LM's --overlap-grad-reduce: the dp gradient reduction (the all-reduce, or ZeRO's
  /// reduce-scatter) runs in per-layer buckets during the last microbatch's backward pass
  /// (llm/overlap.hpp); false: all communication exposed (Megatron-LM's default).
  bool overlap_grad_reduce = false;
  const Calibration *calibration = nullptr;
  const CommCalibration *comm = nullptr;
};

/// The times of one transformer layer and of the ends (embedding, final norm, LM head) for one
/// microbatch on one tensor-parallel rank, forward, from the predicted pass of the sharded
/// config: what the training step is built from. `attention_core` is the layer's scores,
/// softmax and attention-over-values (what selective recompute runs again). FLOPs are the
/// unsharded model's, for MFU.
struct LayerTimes {
  double layer_fwd = 0, attention_core_fwd = 0, ends_fwd = 0;
  double layer_flops = 0, ends_flops = 0; // one microbatch, whole model width (not / tp)
};
LayerTimes layer_times(const LlmConfig &c, const HwSpec &hw, const TrainOptions &o);

struct TrainMemory {
  double weights = 0, gradients = 0, optimizer = 0, activations = 0; // bytes, first stage
  double activations_per_layer = 0; // one microbatch, one layer (Korthikanti Table 2)
  double in_flight = 0;             // layer-microbatches the first stage keeps
  double total() const { return weights + gradients + optimizer + activations; }
};

/// Memory per device: mixed precision (2-byte weights, 4-byte main gradients, 12 bytes of fp32
/// master weights and Adam moments per parameter: Megatron's 18), ZeRO sharding over dp, and
/// activations per Korthikanti et al. 2022 Table 2 on the first pipeline stage.
TrainMemory train_memory(const LlmConfig &c, const TrainOptions &o, int64_t microbatches);

struct TrainResult {
  TrainOptions options;
  int64_t devices = 0, microbatches = 0; // microbatches per pipeline per step (m)
  LayerTimes times;
  double compute = 0, recompute = 0, bubble = 0, optimizer = 0; // seconds, the slowest stage
  std::vector<CommLine> comm; // tp, ep per step; pp hand-offs; dp gradients
  double comm_exposed = 0;    // comm less what overlap_grad_reduce hides behind compute
  double comm_overlapped = 0; // the dp reduction hidden behind the backward pass
  double step = 0;            // compute + recompute + comm + bubble + optimizer
  TrainMemory memory;
  double capacity = 0;
  bool fits = false;
  double model_flops = 0, hardware_flops = 0; // per step, all devices
  double mfu = 0, hfu = 0, tokens_per_second = 0, tokens_per_second_per_device = 0;
};

/// The checks of train_parallel: the split (check_split), ep dividing dp, the batches, --zero,
/// --seq. Throws InputError naming the option.
void check_train(const LlmConfig &c, const TrainOptions &o);

/// Throws InputError (naming the option) for a split the model does not allow, a global
/// batch not divisible by dp x microbatch, --zero outside 0-3, a sequence beyond the model's
/// positions, a group the interconnect does not reach.
TrainResult train_parallel(const LlmConfig &c, const HwSpec &hw, const TrainOptions &o);

/// The same from the layer times (the plan search computes those once per shape).
TrainResult train_from_times(const LlmConfig &c, const HwSpec &hw, const TrainOptions &o,
                             const LayerTimes &t);

} // namespace perfmodel::llm
