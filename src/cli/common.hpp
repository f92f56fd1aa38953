// Shared pieces of the subcommands: output format, output file, model/hardware loading options.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/fusion.hpp"
#include "perfmodel/extrapolation.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/io/calibration_for.hpp"
#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/report/format.hpp"

namespace perfmodel::cli {

/// The action of the chosen subcommand, set by its parse callback; returns the exit status.
using Runner = std::function<int()>;

/// --format table|csv|json|md and -o FILE, shared by every subcommand.
struct OutputOptions {
  std::string format; // "" = from -o's extension, else table
  std::string output; // "" = stdout
  bool output_is_formatted = true; // -o receives the --format output (convert: the YAML)
};
/// Adds --format and -o to `cmd`. When `output_is_formatted`, -o's extension names the format
/// (.txt table, .csv, .json, .md) unless --format is given, and a --format that contradicts
/// it stops the parse with an InputError (exit status 2).
void add_output_options(CLI::App *cmd, OutputOptions &o, bool output_is_formatted = true);
/// The --format name -o's extension names: .txt table, .csv, .json, .md or .markdown md (any
/// case); "" for any other.
std::string format_of_extension(const std::string &path);
/// --format if given, else the format of -o's extension, else table; InputError on a conflict.
report::Format output_format(const OutputOptions &o);
/// Writes to stdout or atomically to the -o file.
void emit(const OutputOptions &o, const std::string &text);

/// --batch N, --dtype D, --dim name=value: how a model is loaded.
struct ModelOptions {
  std::string model;
  std::optional<int64_t> batch;
  std::string dtype; // "" = the model's own
  std::vector<std::string> dims;
};
void add_model_options(CLI::App *cmd, ModelOptions &o, bool with_batch = true);
io::ModelLoadOptions load_options(const ModelOptions &o);

/// --fusion none|inference: how the model's layers are assumed to run (docs/ops.md, "Fusion").
void add_fusion_option(CLI::App *cmd, std::string &fusion);
/// The mode --fusion names (CLI11 has checked it is one).
Fusion fusion_mode(const std::string &fusion);

/// --calibration-for-other-hardware: lets a calibration fitted for another hardware spec drive
/// the prediction for this one (by default that is an input error: its rates describe the
/// hardware it was fitted on, not this one).
void add_other_hardware_flag(CLI::App *cmd, bool &allow);
/// The calibration for predictions on a hardware spec (perfmodel/io/calibration_for.hpp).
using io::load_calibration_for;

/// Warns on stderr, one line per class ("<command>: warning: calibration extrapolates: ..."),
/// about the layers a calibration prices far outside the sizes it was fitted on
/// (perfmodel/extrapolation.hpp); says nothing when there are none.
void warn_extrapolation(const std::string &command, const std::vector<ExtrapolatedCall> &calls);

} // namespace perfmodel::cli
