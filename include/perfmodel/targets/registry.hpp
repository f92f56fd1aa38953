// The execution targets by name (a calibration file's `target:`) and by hardware kind.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "perfmodel/target.hpp"

namespace perfmodel::targets {

/// Every target: generic, cpu_eigen, gpu.
const std::vector<const ExecutionTarget *> &all();

/// The target named `name`, or null.
const ExecutionTarget *find(std::string_view name);

/// The target that runs a model on hardware of `kind` (a hw spec's `kind`: cpu or gpu): the
/// CPU Eigen executor for cpu, the GPU target for gpu, else the generic one.
const ExecutionTarget &for_hardware_kind(std::string_view kind);

/// "generic, cpu_eigen, gpu": the names, for error messages.
std::string names();

} // namespace perfmodel::targets
