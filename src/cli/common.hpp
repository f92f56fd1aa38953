// Shared pieces of the subcommands: output format, output file, model/hardware loading options.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/report/format.hpp"

namespace perfmodel::cli {

/// The action of the chosen subcommand, set by its parse callback; returns the exit status.
using Runner = std::function<int()>;

/// --format table|csv|json|md and -o FILE, shared by every subcommand.
struct OutputOptions {
  std::string format = "table";
  std::string output; // "" = stdout
};
void add_output_options(CLI::App *cmd, OutputOptions &o);
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

} // namespace perfmodel::cli
