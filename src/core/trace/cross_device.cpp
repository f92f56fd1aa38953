// Cross-device prediction from a trace (see the header for the rule).
#include "perfmodel/trace/cross_device.hpp"

#include <algorithm>
#include <unordered_map>

#include "perfmodel/error.hpp"

namespace perfmodel::trace {
namespace {

template <class R> void by_predicted(std::vector<R> &rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const R &a, const R &b) {
    return a.predicted_seconds > b.predicted_seconds;
  });
}

} // namespace

CrossDeviceView cross_device_view(const AttainmentView &src_view, const HwSpec &source,
                                  const HwSpec &target, const Calibration *source_cal,
                                  const Calibration *target_cal, const Overview *overview) {
  if ((source_cal == nullptr) != (target_cal == nullptr))
    throw InputError("a cross-device prediction takes a calibration for both devices or for "
                     "neither: the ratio must compare like with like");
  if (source.memory.empty() || target.memory.empty() ||
      target.dram().bytes_per_second <= 0 || source.dram().bytes_per_second <= 0)
    throw InputError("a cross-device prediction needs the DRAM bandwidth of both devices");
  CrossDeviceView v;
  v.source = source.name;
  v.target = target.name;
  v.calibrated = source_cal != nullptr;
  v.bandwidth_ratio = source.dram().bytes_per_second / target.dram().bytes_per_second;
  std::unordered_map<std::string, size_t> sum_at;
  for (const AttainmentRow &a : src_view.rows) {
    CrossDeviceRow r{a.name, a.op, a.shapes, a.calls, a.device_seconds};
    const OpModelTime s = op_model_time(a.model, source, source_cal);
    const OpModelTime t = op_model_time(a.model, target, target_cal);
    const double per_call_source = v.calibrated ? s.calibrated : s.roofline;
    const double per_call_target = v.calibrated ? t.calibrated : t.roofline;
    r.source_model = per_call_source * static_cast<double>(a.calls);
    r.target_model = per_call_target * static_cast<double>(a.calls);
    // An operator the model gives no time (no FLOPs, no bytes) scales as unmodelled activity.
    const double ratio = per_call_source > 0 ? per_call_target / per_call_source : v.bandwidth_ratio;
    r.predicted_seconds = a.device_seconds * ratio;
    auto [it, fresh] = sum_at.emplace(r.op, v.summary.size());
    if (fresh)
      v.summary.push_back(CrossDeviceSummary{r.op});
    CrossDeviceSummary &sum = v.summary[it->second];
    sum.calls += r.calls;
    sum.source_seconds += r.source_seconds;
    sum.predicted_seconds += r.predicted_seconds;
    v.source_seconds += r.source_seconds;
    v.predicted_seconds += r.predicted_seconds;
    v.rows.push_back(std::move(r));
  }
  for (const UnattributedRow &u : src_view.unattributed) {
    CrossDeviceUnmapped m{u.name, u.op, u.reason, u.calls, u.seconds,
                          u.seconds * v.bandwidth_ratio};
    v.source_seconds += m.source_seconds;
    v.predicted_seconds += m.predicted_seconds;
    v.unmapped.push_back(std::move(m));
  }
  if (overview && !overview->steps.empty()) {
    v.steps = overview->steps.size();
    const StepTimes &a = overview->average;
    v.source_step_seconds = a.kernel + a.memcpy + a.memset;
  }
  by_predicted(v.rows);
  by_predicted(v.summary);
  by_predicted(v.unmapped);
  return v;
}

} // namespace perfmodel::trace
