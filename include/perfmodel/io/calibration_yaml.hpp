// Reads and writes calibration files (YAML, `version: 1`, docs/calibration.md).
#pragma once

#include <string>

#include "perfmodel/calibration.hpp"

namespace perfmodel::io {

/// Parses and validates a calibration; errors are "file:line:col: error: ...".
Calibration parse_calibration_yaml(const std::string &text, const std::string &file);
Calibration read_calibration_yaml(const std::string &path);
/// Resolves a bare name ("zen5-2c", looked up in calibration/) or a path, then reads it.
Calibration load_calibration(const std::string &spec);

/// The YAML text of a calibration (round-trips through parse_calibration_yaml).
std::string write_calibration_yaml(const Calibration &cal);

} // namespace perfmodel::io
