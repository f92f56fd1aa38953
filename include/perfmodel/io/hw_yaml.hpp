// Reads the hardware YAML format (version 1, docs/formats.md) into an HwSpec.
#pragma once

#include <string>

#include "perfmodel/hw_spec.hpp"

namespace perfmodel::io {

/// Parses and validates; errors carry file:line:col. `file` names the text in messages.
HwSpec parse_hw_yaml(const std::string &text, const std::string &file);
HwSpec read_hw_yaml(const std::string &path);
/// Resolves a bare name ("v100") or a path, then reads it.
HwSpec load_hw(const std::string &spec);

} // namespace perfmodel::io
