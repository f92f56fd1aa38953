// Small yaml-cpp helpers shared by the YAML readers: locations and typed, checked access.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "perfmodel/error.hpp"
#include "perfmodel/hw_spec.hpp"

namespace perfmodel::io {

/// The node's position as a 1-based SourceLoc in `file`.
SourceLoc loc_of(const std::string &file, const YAML::Node &node);
/// Loads YAML text (text that is not UTF-8 is an error at its first bad byte: perfmodel's
/// require_utf8); syntax errors become InputError at their position.
YAML::Node load_yaml(const std::string &text, const std::string &file);
/// Checks `version: 1` on a top-level map.
void check_version(const YAML::Node &root, const std::string &file, const char *format);

/// Typed access: a missing or ill-typed value is an InputError naming the key and position.
std::string get_string(const YAML::Node &map, const char *key, const std::string &file);
double get_number(const YAML::Node &node, const char *what, const std::string &file);
int64_t get_int(const YAML::Node &node, const char *what, const std::string &file);
std::vector<int64_t> get_int_list(const YAML::Node &node, const char *what,
                                  const std::string &file);
/// A quantity with a unit (see quantity.hpp); the node may be a number or a string.
double get_quantity(const YAML::Node &node, const char *unit, const std::string &file);
/// Keys of `map` that are not in `allowed` are an error (catches typos).
void check_keys(const YAML::Node &map, const std::vector<std::string> &allowed,
                const std::string &file, const char *where);

/// A `cpu_id: {vendor, family, model}` mapping (a CPU hw spec's, a calibration's device's).
CpuId read_cpu_id(const YAML::Node &n, const std::string &file);

} // namespace perfmodel::io
