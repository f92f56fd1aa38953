// The hardware YAML's optional `interconnect:` list (docs/formats.md#hardware).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "perfmodel/interconnect.hpp"

namespace perfmodel::io {

/// Reads `interconnect:` (a list of {name, devices, bandwidth, latency}, innermost first).
/// Throws InputError at the entry or value that is wrong, including the rules of
/// is_valid(Interconnect).
Interconnect read_interconnect(const YAML::Node &n, const std::string &file);

} // namespace perfmodel::io
