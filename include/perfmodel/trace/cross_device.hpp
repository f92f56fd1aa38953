// Cross-device prediction from a trace: what the device time a trace measured on one GPU (the
// source) becomes on another (the target), operator by operator, as Habitat (Yu et al.,
// USENIX ATC'21) predicts from a trace: measured time x the model's ratio between the devices.
//
// For every modelled operator signature of the source's attainment view:
//   predicted = measured x model(target) / model(source)
// where model() is the kernel's roofline time, max(compute, memory) without launch overhead, on
// each device, or, when a calibration is given for both devices, the calibrated time on each.
// The measured time carries what the model does not know about this kernel (its algorithm,
// its efficiency); the ratio carries what changes with the device. Device activity with no
// model (kernels of operators without a shape rule, memory copies and sets) is scaled by the
// ratio of the devices' DRAM bandwidths, source / target: such activity is mostly
// element-wise and bound by memory. Every scaled entry says which ratio it used.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/trace/attainment.hpp"
#include "perfmodel/trace/overview.hpp"

namespace perfmodel::trace {

/// One operator signature of the source trace, on both devices.
struct CrossDeviceRow {
  std::string name, op, shapes; // as in AttainmentRow
  int64_t calls = 0;
  double source_seconds = 0;    // measured, all calls
  double source_model = 0;      // model time on the source, all calls
  double target_model = 0;      // model time on the target, all calls
  double predicted_seconds = 0; // on the target, all calls
  double ratio() const { return source_seconds > 0 ? predicted_seconds / source_seconds : 0; }
};

/// Rows of one layer kind and pass part together.
struct CrossDeviceSummary {
  std::string op;
  int64_t calls = 0;
  double source_seconds = 0, predicted_seconds = 0;
  double ratio() const { return source_seconds > 0 ? predicted_seconds / source_seconds : 0; }
};

/// Device activity without a model, scaled by the DRAM bandwidth ratio.
struct CrossDeviceUnmapped {
  std::string name, op, reason; // as in UnattributedRow
  int64_t calls = 0;
  double source_seconds = 0, predicted_seconds = 0;
};

struct CrossDeviceView {
  std::string source, target; // hardware names
  bool calibrated = false;      // ratios of calibrated times (else of rooflines)
  double bandwidth_ratio = 0;   // source DRAM bandwidth / target's: the unmapped activity's scale
  std::vector<CrossDeviceRow> rows;             // by predicted time, largest first
  std::vector<CrossDeviceSummary> summary;      // by predicted time, largest first
  std::vector<CrossDeviceUnmapped> unmapped;    // by predicted time, largest first
  double source_seconds = 0, predicted_seconds = 0; // all device activity of the trace
  double ratio() const { return source_seconds > 0 ? predicted_seconds / source_seconds : 0; }
  /// With the trace's overview: its steps and the average step's GPU time (Kernel + Memcpy +
  /// Memset); the prediction per step is that time x ratio(). 0 steps: no overview.
  size_t steps = 0;
  double source_step_seconds = 0;
  double predicted_step_seconds() const { return source_step_seconds * ratio(); }
};

/// `source_view`: the trace's attainment view on `source` (its rows' models are re-evaluated on
/// `target`). Calibrations: both or neither (InputError otherwise), each for its own device.
/// `overview` (optional): the trace's steps, for the prediction per step.
CrossDeviceView cross_device_view(const AttainmentView &source_view, const HwSpec &source,
                                  const HwSpec &target, const Calibration *source_cal = nullptr,
                                  const Calibration *target_cal = nullptr,
                                  const Overview *overview = nullptr);

} // namespace perfmodel::trace
