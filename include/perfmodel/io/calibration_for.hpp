// The calibration a prediction on one hardware spec uses, checked against the spec it was
// fitted for (every command that takes --calibration, and the Python module).
#pragma once

#include <string>

#include "perfmodel/calibration.hpp"
#include "perfmodel/hw_spec.hpp"

namespace perfmodel::io {

/// The calibration `spec` names (a .yaml path or a name in calibration/), for predictions on
/// `hw`. One whose `hardware:` names another spec is an input error at the calibration file that
/// names both, unless `other_hardware`; a calibration that names none is taken as it is.
Calibration load_calibration_for(const std::string &spec, const HwSpec &hw, bool other_hardware);

} // namespace perfmodel::io
