// `trace` as a library function (perfmodel/app/commands.hpp).
#include "perfmodel/app/commands.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/io/calibration_for.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/nearest_name.hpp"
#include "perfmodel/trace/attainment.hpp"
#include "perfmodel/trace/op_table.hpp"
#include "perfmodel/trace/overview.hpp"
#include "perfmodel/trace/read_trace.hpp"

namespace perfmodel::app {

namespace {

std::string join(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v)
    s += (s.empty() ? "" : ", ") + x;
  return s;
}

} // namespace

report::TraceReport trace(const TraceRequest &a) {
  const bool all = a.view == "all";
  const bool has_hw = !a.hw.empty() || a.hw_spec;
  const bool has_target = !a.predict_on.empty() || a.predict_on_spec;
  if (a.view == "attainment" && !has_hw)
    throw InputError("--view attainment needs --hw (the hardware to compare against)");
  if (!a.calibration.empty() && !has_hw)
    throw InputError("--calibration needs --hw (the hardware the calibration refines)");
  if (a.view == "none" && !has_target)
    throw InputError("--view none prints nothing without --predict-on");
  if (has_target && !has_hw)
    throw InputError("--predict-on needs --hw (the hardware the trace was recorded on)");
  if (!a.target_calibration.empty() && !has_target)
    throw InputError("--target-calibration needs --predict-on (the hardware it refines)");
  if (has_target && a.calibration.empty() != a.target_calibration.empty())
    throw InputError("--predict-on takes --calibration and --target-calibration together or "
                     "neither: the ratio between the devices must compare like with like");
  // Load every input before the work, so that a bad --hw fails fast.
  std::optional<HwSpec> hw = a.hw_spec;
  if (!hw && !a.hw.empty())
    hw = io::load_hw(a.hw);
  std::optional<Calibration> cal;
  if (!a.calibration.empty())
    cal = io::load_calibration_for(a.calibration, *hw, a.calibration_other_hardware);
  std::optional<HwSpec> target = a.predict_on_spec;
  std::optional<Calibration> target_cal;
  if (!target && !a.predict_on.empty())
    target = io::load_hw(a.predict_on);
  if (!a.target_calibration.empty())
    target_cal =
        io::load_calibration_for(a.target_calibration, *target, a.calibration_other_hardware);
  const trace::Trace t = io::read_trace(a.file);
  const trace::Links links = trace::link_events(t);

  report::TraceReport r;
  r.file = a.file;
  std::optional<trace::Overview> overview;
  if (all || a.view == "overview" || target)
    overview = trace::compute_overview(t, links);
  const bool need_tree = all || a.view == "operators" || a.view == "attainment" || target;
  trace::OpTree tree;
  if (need_tree)
    tree = trace::build_op_tree(t, links);
  if (all || a.view == "operators")
    r.operators = trace::operator_table(t, tree);
  if (all || a.view == "kernels")
    r.kernels = trace::kernel_table(t);
  if (hw && (all || a.view == "attainment" || target)) {
    trace::AttainmentView v = trace::attainment_view(t, links, tree, *hw, cal ? &*cal : nullptr);
    if (target)
      r.cross_device = trace::cross_device_view(v, *hw, *target, cal ? &*cal : nullptr,
                                                target_cal ? &*target_cal : nullptr, &*overview);
    if (all || a.view == "attainment")
      r.attainment = std::move(v);
  }
  if (all || a.view == "overview")
    r.overview = std::move(overview);
  if (!report::sort_and_limit(r, a.sort, static_cast<size_t>(a.top))) {
    std::vector<std::string> keys;
    for (const auto *list : {&report::operator_sort_keys(), &report::kernel_sort_keys(),
                             &report::attainment_sort_keys()})
      for (const auto &k : *list)
        keys.emplace_back(k);
    throw InputError(
        "--sort " + a.sort + " is not a key of the selected views (operators: " +
        join(report::operator_sort_keys()) + "; kernels: " + join(report::kernel_sort_keys()) +
        "; attainment: " + join(report::attainment_sort_keys()) + ")" + did_you_mean(a.sort, keys));
  }
  return r;
}

} // namespace perfmodel::app
