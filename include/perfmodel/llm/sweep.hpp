// A sweep of a language model served on devices: every combination of hardware, data type,
// split (tensor x pipeline parallel devices), prompt, generate and batch, each point what
// `perfmodel llm` gives for those options (docs/llm.md, "Sweeps"). As in every sweep
// (perfmodel/sweep.hpp), a point that cannot be evaluated (a batch below 1, more positions
// than the model has, a split the model does not allow, no compute unit for the data type) is
// kept with the reason; not fitting in memory is not a reason: the point says fits = false.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/collectives.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/llm/config.hpp"
#include "perfmodel/llm/parallel.hpp"
#include "perfmodel/llm/serve.hpp"

namespace perfmodel::llm {

/// The sweep's axes. ServeOptions' batch, prompt, generate and dtype are the axes' instead.
struct LlmSweepSpec {
  std::vector<HwSpec> hardware;
  std::vector<DType> dtypes = {DType::fp16};
  std::vector<int64_t> batches, prompts, generates;
  /// The splits: every tp x pp of the two axes (empty: {1}); with `gpus`, for each device count
  /// the pairs whose product is that count (an empty axis then stands for every divisor).
  std::vector<int64_t> tps, pps, gpus;
  ServeOptions serve;                    // KV dtype, weight format, attention, calibration
  const CommCalibration *comm = nullptr; // the collectives of a split (null: the interconnect's)
};

struct LlmSweepPoint {
  std::string hw;
  DType dtype = DType::fp16;
  int64_t tp = 1, pp = 1;
  int64_t gpus = 1; // tp x pp
  int64_t prompt = 1, generate = 1, batch = 1;
  std::optional<std::string> skipped; // the reason when the point was not evaluated

  double ttft_seconds = 0;
  std::optional<double> tpot_mean_seconds; // none when generate is 1 (no decode step)
  double e2e_seconds = 0;
  double tokens_per_second_request = 0;
  double tokens_per_second_batch = 0;
  double tokens_per_second_per_gpu = 0; // tokens_per_second_batch / gpus
  int64_t weights_bytes = 0;            // per device
  int64_t kv_cache_bytes = 0;           // per device
  int64_t memory_bytes = 0;             // weights + KV cache, per device
  double memory_capacity_bytes = 0;
  bool fits_in_memory = false;
  int64_t max_batch = 0; // the largest batch that fits at these lengths (the whole batch)
};

struct LlmSweepResult {
  std::string model;
  std::string config;   // the config.json read
  ServeOptions options; // the spec's (what is common to every point; the calibration pointer
                        // is not kept: calibration_name says whether there was one)
  std::vector<LlmSweepPoint> points; // hw-major, then dtype, split, prompt, generate, batch
  int64_t evaluated() const;
  int64_t skipped() const;
};

/// The splits of the spec's tp, pp and gpus axes, in the order the points take them. Throws
/// InputError for a device count that no pair of the axes multiplies to.
std::vector<ParallelSplit> sweep_splits(const LlmSweepSpec &s);

/// Evaluates every point. Throws InputError only for an unusable spec (an empty axis, more
/// than kMaxSweepPoints points, a device count without a split); every per-point problem
/// becomes a skip reason.
LlmSweepResult run_llm_sweep(const LlmConfig &c, const LlmSweepSpec &s);

} // namespace perfmodel::llm
