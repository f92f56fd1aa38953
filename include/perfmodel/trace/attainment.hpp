// The roofline attainment view: for every traced operator with a shape rule, the FLOPs and bytes
// of the core's counting rules, the device time of the kernels it launched, the roofline time on
// a given hardware, and how far the two are apart.
//
// Attribution: an operator's device time is everything its runtime calls and those of its
// descendants launched (correlation id -> runtime call, External id -> operator). The modelled
// operator is the innermost one with a rule on each call path (aten::conv2d > ... >
// aten::cudnn_convolution: the last). Device activity reached by no modelled operator is listed
// in `unattributed` with the operator that launched it and the reason, never dropped.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/roofline.hpp"
#include "perfmodel/trace/links.hpp"
#include "perfmodel/trace/op_shapes.hpp"
#include "perfmodel/trace/op_tree.hpp"

namespace perfmodel::trace {

/// One operator signature (name + recorded shapes), summed over its calls.
struct AttainmentRow {
  std::string name;   // aten operator
  std::string op;     // the core layer it was modelled as and the pass part: "conv2d fwd"
  std::string shapes; // recorded input shapes: "32x64x56x56, 64x64x3x3"
  int64_t calls = 0;
  double flops = 0, bytes = 0;    // all calls
  double device_seconds = 0;      // all calls
  double roofline_seconds = 0;    // all calls
  double calibrated_seconds = -1; // all calls, with --calibration; -1 = not computed
  Bound bound = Bound::none;
  std::vector<double> call_seconds; // device time of each call
  OpModel model;                    // the one-layer graph the counts come from

  double fraction_of_roofline() const {
    return device_seconds > 0 ? roofline_seconds / device_seconds : 0;
  }
  double time_lost() const { return device_seconds - roofline_seconds; }
  double achieved_flops_per_second() const {
    return device_seconds > 0 ? flops / device_seconds : 0;
  }
  double achieved_bytes_per_second() const {
    return device_seconds > 0 ? bytes / device_seconds : 0;
  }
};

/// Rows of one layer kind and pass part ("conv2d bwd_weight") together.
struct AttainmentSummary {
  std::string op;
  int64_t calls = 0;
  double flops = 0, bytes = 0, device_seconds = 0, roofline_seconds = 0;
  double fraction_of_roofline() const {
    return device_seconds > 0 ? roofline_seconds / device_seconds : 0;
  }
  double time_lost() const { return device_seconds - roofline_seconds; }
};

/// Device activity no modelled operator accounts for, by activity name and launching operator.
struct UnattributedRow {
  std::string name; // kernel / memcpy / memset name
  std::string op;   // launching operator, "" when none
  std::string reason;
  int64_t calls = 0;
  double seconds = 0;
};

struct AttainmentView {
  std::string hardware;
  std::vector<AttainmentRow> rows;           // sorted by time lost, largest first
  std::vector<AttainmentSummary> summary;    // sorted by time lost, largest first
  std::vector<UnattributedRow> unattributed; // sorted by seconds, largest first
  double device_seconds = 0;                 // all device activity in the trace
  double modelled_seconds = 0;               // device time attributed to modelled operators
};

/// The model's time for one call of a traced operator on `hw`.
struct OpModelTime {
  std::string op; // "conv2d fwd"
  double flops = 0, bytes = 0;
  /// The kernel's roofline: max(compute, memory), without the launch overhead a kernel's device
  /// time does not hold.
  double roofline = 0;
  double calibrated = -1; // with a calibration: its time for the kernel; -1 without
  Bound bound = Bound::none;
};
OpModelTime op_model_time(const OpModel &m, const HwSpec &hw, const Calibration *cal = nullptr);

/// `cal` (optional) adds the calibrated model's time next to the roofline time.
AttainmentView attainment_view(const Trace &t, const Links &links, const OpTree &tree,
                               const HwSpec &hw, const Calibration *cal = nullptr);

} // namespace perfmodel::trace
