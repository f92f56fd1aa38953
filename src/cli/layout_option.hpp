// `--layout nchw|nhwc`: the activations' layout a prediction runs in (docs/gpu_model.md,
// "Layouts"); shared by the commands that predict layer times (predict, sweep, report).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "perfmodel/layout.hpp"

namespace perfmodel::cli {

/// Adds --layout to `cmd`, stored canonical (nchw or nhwc; channels-last is read as nhwc).
void add_layout_option(CLI::App *cmd, std::string &layout);

/// The layout --layout names ("" = nchw, the default); an unknown name is an InputError that
/// names the option.
Layout layout_option(const std::string &layout);

} // namespace perfmodel::cli
