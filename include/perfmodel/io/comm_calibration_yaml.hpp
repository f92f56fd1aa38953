// Reads and writes a communication calibration: per collective, the latency per step and bus
// bandwidth fitted to nccl-tests output for one interconnect level (docs/parallel.md).
#pragma once

#include <string>

#include "perfmodel/collectives.hpp"

namespace perfmodel::io {

/// Parses `kind: collectives` YAML; errors are "file:line:col: error: ...".
CommCalibration parse_comm_calibration_yaml(const std::string &text, const std::string &file);
CommCalibration read_comm_calibration_yaml(const std::string &path);

/// The YAML text (round-trips through parse_comm_calibration_yaml to 6 significant digits).
std::string write_comm_calibration_yaml(const CommCalibration &cal);

} // namespace perfmodel::io
