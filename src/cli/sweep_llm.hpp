// `perfmodel sweep` of a language model (a config.json): its options and its run
// (docs/cli/sweep.md, "Language models").
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.hpp"

namespace perfmodel::cli {

/// The options only a language model's sweep takes ("" = not given).
struct SweepLlmArgs {
  std::string prompt, generate, tp, pp, gpus; // axes, as --batch
  std::string kv_dtype, attention, weight_dtype, comm_calibration;
  std::optional<int64_t> group_size;
  /// Whether any of them was given.
  bool given() const;
};
void add_sweep_llm_options(CLI::App *cmd, SweepLlmArgs &a);

/// What a language model's sweep takes from the sweep's own options.
struct SweepCommon {
  std::string model, hw, batch, dtype, pass, fusion;
  std::vector<std::string> dims;
  std::string calibration;
  bool calibration_other_hardware = false;
  std::string sort, plot;
  bool keep_script = false, print_script = false;
  OutputOptions out;
};

/// Whether --model names a language model: a .json path, or a bare name in models/llm/.
bool names_llm_config(const std::string &model);

/// Runs the sweep of a language model and prints it (and its plot). InputError (exit 2) for an
/// option that does not apply (--pass train, --fusion, --dim, the LLM options with a graph
/// model), a missing --prompt or --generate, a length, --tp, --pp or --gpus below 1.
int run_sweep_llm(const SweepCommon &c, const SweepLlmArgs &a);

} // namespace perfmodel::cli
