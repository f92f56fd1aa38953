// `perfmodel llm` on many devices: the options that split a model (--tp, --pp, --ep, --dp,
// --sequence-parallel, ...) and training at scale (--pass train, docs/parallel.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cli/common.hpp"
#include "perfmodel/collectives.hpp"
#include "perfmodel/hw_spec.hpp"

namespace perfmodel::cli {

struct LlmParallelArgs {
  std::string pass = "infer"; // infer | train
  int64_t tp = 1, pp = 1, dp = 1, ep = 1, interleave = 1, gpus = 0;
  bool sequence_parallel = false;
  bool overlap_grad_reduce = false;
  int64_t global_batch = 0, microbatch = 1, seq = 2048;
  std::string recompute = "selective";
  int zero = 0;
  std::string comm_calibration;
  /// Whether these options ask for the many-device model (anything beyond one device).
  bool engaged() const;
};

/// Adds the options to `cmd` (the llm subcommand).
void add_llm_parallel_options(CLI::App *cmd, LlmParallelArgs &a);

/// What `llm` needs from its own options to run the many-device model.
struct LlmCommon {
  std::string model, hw, calibration, dtype, kv_dtype, attention;
  bool calibration_other_hardware = false;
  int64_t batch = 1, prompt = 0, generate = 0;
  OutputOptions out;
};

/// Runs inference (tp x pp x ep) or training (tp x pp x dp) and prints the view. InputError
/// (exit 2) for an option that does not fit the model or the others (--gpus not tp x pp x dp,
/// a batch not divisible, a group the interconnect cannot reach).
int run_llm_parallel(const LlmCommon &c, const LlmParallelArgs &a);

/// --comm-calibration: none for an empty path; else the file, which must have been fitted on
/// `hw` (InputError otherwise).
std::optional<CommCalibration> load_comm_calibration_for(const std::string &path,
                                                         const HwSpec &hw);

} // namespace perfmodel::cli
