// The serving plan search: every (tp, pp, ep, dp) split of a serving deployment over a number
// of devices, those that do not fit dropped (counted by reason), the rest ranked by tokens/s
// per device (docs/parallel.md, "Plan: serving").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "perfmodel/llm/parallel_serve.hpp"

namespace perfmodel::llm {

struct InferPlanOptions {
  int64_t gpus = 8;
  int64_t batch = 1; // sequences in flight on all the devices together
  int64_t prompt = 1, generate = 1;
  DType dtype = DType::bf16;
  std::optional<DType> kv_dtype; // default: dtype
  Attention attention = Attention::flash;
  const Calibration *calibration = nullptr;
  const CommCalibration *comm = nullptr;
  int threads = 2;
};

struct InferCandidate {
  ParallelSplit split;          // dp = the replicas
  int64_t replica_batch = 0;    // batch / dp: the sequences one replica serves
  int64_t microbatch = 0;       // replica_batch / pp: the sequences of one pass through the stages
  double ttft = 0, tpot = 0;    // one microbatch's (seconds)
  double e2e = 0;               // one microbatch's request: ttft + (generate - 1) steps
  double tokens_per_second = 0; // every replica together (pp microbatches in flight)
  double tokens_per_second_per_device = 0; // the above / gpus
  double memory = 0;     // bytes per device: weights + the KV cache of pp microbatches
  double comm = 0;       // seconds of communication in one request (prefill + every step)
  bool frontier = false; // no other fitting split has both more tokens/s per device and a
                         // lower TPOT
};

struct InferPlanResult {
  int64_t enumerated = 0;                 // splits tried
  std::map<std::string, int64_t> dropped; // reason -> count
  std::vector<InferCandidate> ranked;     // the fitting ones, most tokens/s per device first
  int64_t device_shapes = 0;              // distinct device passes evaluated (tp, ep, batch)
  double capacity = 0;
  double seconds = 0; // wall time of the search
};

/// Enumerates (tp, pp, ep, dp) with tp x pp x ep x dp = gpus (ep only for a MoE model): each
/// of the dp replicas serves batch / dp sequences as pp microbatches in flight (one per stage)
/// of batch / (dp pp) sequences, each ep rank batch / (dp pp ep) of them (serve_parallel on the
/// microbatch). The device's passes (llm::serve of the tp-sharded model) are evaluated once per
/// (tp, ep, microbatch) on `threads` threads; every split is then serve_parallel_from's
/// closed-form communication and memory. Splits the model does not allow, batches dp x pp x
/// ep do not divide, groups the interconnect cannot reach and splits whose weights and KV
/// cache exceed the device's memory are dropped, counted by reason. The rest are ranked by
/// tokens/s per device (ties: lower TPOT, then less memory). Throws InputError naming the
/// option for --gpus, --batch, --prompt or --generate below 1, and for a request beyond the
/// model's positions; a model no split fits gives an empty ranking.
InferPlanResult plan_inference(const LlmConfig &c, const HwSpec &hw, const InferPlanOptions &o);

} // namespace perfmodel::llm
