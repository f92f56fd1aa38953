// Serving a model split over tp x pp x ep devices: the sharded device's passes, the
// communication each adds and the memory and max batch per device (docs/parallel.md,
// "Inference").
#pragma once

#include <string>
#include <vector>

#include "perfmodel/llm/parallel.hpp"
#include "perfmodel/llm/serve.hpp"

namespace perfmodel::llm {

/// One kind of communication of a pass: `count` collectives of `bytes` each among `group`.
struct CommLine {
  std::string kind; // "tp", "pp", "dp", "ep"
  Collective collective = Collective::all_reduce;
  int64_t count = 0;
  double bytes = 0;
  Group group;
  std::string level;  // the interconnect level of the outermost part
  double seconds = 0; // all `count` of them
  bool calibrated = false;
};

/// Bytes of the weights one device holds, per pipeline stage: the first stage's layers plus the
/// embedding, the last's plus the final norm and LM head (a tied head is a copy of its own when
/// pp > 1, as Megatron keeps it); the larger of the two. Parameters, not bytes.
int64_t stage_parameters(const LlmConfig &c, const ParallelSplit &s);

struct ParallelServeOptions {
  ServeOptions serve; // batch is the whole batch, over the ep ranks
  ParallelSplit split;
  const CommCalibration *comm = nullptr; // null: the spec's interconnect
  std::string comm_name;
};

struct ParallelServeResult {
  ParallelServeOptions options;
  int64_t devices = 0;
  ServeResult device; // one device of a tp group, all the layers, its batch (batch / ep)
  int64_t parameters_device = 0, weight_bytes_device = 0, kv_cache_bytes_device = 0;
  int64_t total_bytes_device = 0;
  bool fits = false;
  int64_t max_batch = 0; // the whole batch (every ep rank) whose weights + KV cache fit
  std::vector<CommLine> prefill_comm, decode_comm; // decode: one step
  double prefill_comm_seconds = 0, decode_comm_seconds = 0;
  double ttft = 0, tpot_mean = 0, e2e = 0;
  double tokens_per_second_batch = 0;     // batch x G / e2e
  double tokens_per_second_pipelined = 0; // pp batches in flight: pp x the above
};

/// Throws InputError for a split the model does not allow (check_split), a batch the ep ranks
/// do not divide, and a group the hardware's interconnect does not reach.
ParallelServeResult serve_parallel(const LlmConfig &c, const HwSpec &hw,
                                   const ParallelServeOptions &o);

/// serve_parallel with the device's passes already evaluated: `device` is serve() of
/// shard_config(c, o.split, c.layers) at batch / ep (only its ttft, tpot_mean and e2e are
/// read), which a search over splits of one device shape computes once. The same checks and
/// errors as serve_parallel.
ParallelServeResult serve_parallel_from(const LlmConfig &c, const HwSpec &hw,
                                        const ParallelServeOptions &o, ServeResult device);

/// collective_seconds for the group of option --`kind` (tp, pp, dp, ep): its errors (a group
/// the interconnect does not reach) name the option.
CommCost group_cost(const std::string &kind, Collective k, double bytes, const Group &g,
                    const HwSpec &hw, const CommCalibration *comm);

/// The communication of one pass of `tokens` tokens (batch x new tokens of one ep rank) on a
/// split: tp all-reduces (or reduce-scatter + all-gather), pp hand-offs, MoE all-to-alls.
std::vector<CommLine> pass_comm(const LlmConfig &c, const HwSpec &hw, const ParallelSplit &s,
                                int64_t tokens, DType dtype, const CommCalibration *comm);

} // namespace perfmodel::llm
