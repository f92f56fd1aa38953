// The plan search: every valid split of a training run over a number of devices, those that do
// not fit dropped (counted by reason), the rest ranked by step time (docs/parallel.md, "Plan").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "perfmodel/llm/parallel_train.hpp"

namespace perfmodel::llm {

struct PlanOptions {
  int64_t gpus = 8;
  int64_t global_batch = 1;
  int64_t seq = 2048;
  DType dtype = DType::bf16;
  Attention attention = Attention::flash;
  const Calibration *calibration = nullptr;
  const CommCalibration *comm = nullptr;
  // the axes searched (empty: all valid values)
  std::vector<Recompute> recompute = {Recompute::none, Recompute::selective, Recompute::full};
  std::vector<int> zero = {0, 1, 2, 3};
  int64_t max_microbatch = 16;
  int64_t max_interleave = 8;
  int threads = 2;
};

struct PlanCandidate {
  TrainOptions options; // calibration pointers left null: the plan's
  double step = 0, mfu = 0, tokens_per_second_per_device = 0;
  double memory = 0; // bytes per device
  double compute = 0, comm = 0, bubble = 0, optimizer = 0, recompute = 0;
  bool fits = false;
  bool frontier = false; // no other fitting candidate is both faster and smaller
};

struct PlanResult {
  int64_t enumerated = 0;                 // splits tried
  std::map<std::string, int64_t> dropped; // reason -> count (invalid splits, not fitting)
  std::vector<PlanCandidate> ranked;      // the fitting ones, fastest first
  double capacity = 0;
  double seconds = 0; // wall time of the search
};

/// The divisors of n >= 1, ascending.
std::vector<int64_t> divisors(int64_t n);

/// A split the model does not allow, as a reason counted by the plan searches (the first
/// check_split would throw for: "tp does not divide the heads", ...); "" for a valid split.
std::string invalid_reason(const LlmConfig &c, const ParallelSplit &s);

/// Enumerates (tp, pp, dp, ep, microbatch, recompute, sequence parallel, interleave, zero)
/// with tp x pp x dp = gpus, evaluates each with train_from_times (layer times computed once
/// per (tp, ep, microbatch) shape) on `threads` threads, and ranks the fitting ones by step
/// time (ties: less memory first). Throws InputError for --gpus or --global-batch below 1
/// and for a sequence beyond the model; a model no split fits gives an empty ranking.
PlanResult plan_training(const LlmConfig &c, const HwSpec &hw, const PlanOptions &o);

} // namespace perfmodel::llm
