// A calibration for predictions on a given hardware spec.
#include "perfmodel/io/calibration_for.hpp"

#include "perfmodel/error.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/resources.hpp"

namespace perfmodel::io {

Calibration load_calibration_for(const std::string &spec, const HwSpec &hw, bool other_hardware) {
  const std::string path = resolve_resource(spec, "calibration", {".yaml", ".yml"});
  Calibration cal = read_calibration_yaml(path);
  if (!other_hardware && !cal.hardware.empty() && cal.hardware != hw.name)
    throw InputError(SourceLoc{path, 0, 0},
                     "calibration fitted for hardware '" + cal.hardware + "' (target " +
                         std::string(cal.execution_target().name()) + "), not for '" + hw.name +
                         "': its rates describe that hardware; use a calibration of " + hw.name +
                         " or pass --calibration-for-other-hardware to apply it anyway");
  return cal;
}

} // namespace perfmodel::io
