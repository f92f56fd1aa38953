// `perfmodel trace`: reads a PyTorch profiler trace and prints its overview, operator, kernel
// and roofline attainment views.
#include <memory>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/nearest_name.hpp"
#include "perfmodel/report/trace/trace_report.hpp"
#include "perfmodel/trace/attainment.hpp"
#include "perfmodel/trace/op_table.hpp"
#include "perfmodel/trace/overview.hpp"
#include "perfmodel/trace/read_trace.hpp"

namespace perfmodel::cli {

namespace {

struct TraceArgs {
  std::string file;
  std::string hw;
  std::string calibration;
  std::string predict_on;         // --predict-on: the target hardware
  std::string target_calibration; // --target-calibration: the target's calibration
  bool calibration_other_hardware = false; // --calibration-for-other-hardware
  std::string view = "all";
  std::string sort;
  int top = 10;
  OutputOptions out;
};

std::string join(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v)
    s += (s.empty() ? "" : ", ") + x;
  return s;
}

int run_trace(const TraceArgs &a) {
  const bool all = a.view == "all";
  if (a.view == "attainment" && a.hw.empty())
    throw InputError("--view attainment needs --hw (the hardware to compare against)");
  if (!a.calibration.empty() && a.hw.empty())
    throw InputError("--calibration needs --hw (the hardware the calibration refines)");
  if (a.view == "none" && a.predict_on.empty())
    throw InputError("--view none prints nothing without --predict-on");
  if (!a.predict_on.empty() && a.hw.empty())
    throw InputError("--predict-on needs --hw (the hardware the trace was recorded on)");
  if (!a.target_calibration.empty() && a.predict_on.empty())
    throw InputError("--target-calibration needs --predict-on (the hardware it refines)");
  if (!a.predict_on.empty() && a.calibration.empty() != a.target_calibration.empty())
    throw InputError("--predict-on takes --calibration and --target-calibration together or "
                     "neither: the ratio between the devices must compare like with like");
  // Load every input before the work, so that a bad --hw fails fast.
  std::optional<HwSpec> hw;
  if (!a.hw.empty())
    hw = io::load_hw(a.hw);
  std::optional<Calibration> cal;
  if (!a.calibration.empty())
    cal = load_calibration_for(a.calibration, *hw, a.calibration_other_hardware);
  std::optional<HwSpec> target;
  std::optional<Calibration> target_cal;
  if (!a.predict_on.empty())
    target = io::load_hw(a.predict_on);
  if (!a.target_calibration.empty())
    target_cal = load_calibration_for(a.target_calibration, *target, a.calibration_other_hardware);
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
      r.cross_device =
          trace::cross_device_view(v, *hw, *target, cal ? &*cal : nullptr,
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
  emit(a.out, report::render_trace(r, output_format(a.out)));
  return 0;
}

} // namespace

void register_trace(CLI::App &app, Runner &run) {
  auto a = std::make_shared<TraceArgs>();
  CLI::App *cmd = app.add_subcommand(
      "trace",
      "Read a PyTorch profiler trace (.json or .json.gz): step overview (TensorBoard plugin "
      "rules), operator and kernel tables, and with --hw the roofline attainment of each "
      "operator");
  cmd->footer(
      "Examples:\n"
      "  perfmodel trace run.pt.trace.json.gz --view overview\n"
      "  perfmodel trace run.pt.trace.json.gz --hw v100 --view attainment --top 10\n"
      "  perfmodel trace run.pt.trace.json.gz --view kernels --sort mean --format csv -o k.csv\n"
      "  perfmodel trace run.pt.trace.json.gz --hw v100 --predict-on h100 --view none\n"
      "Sort keys: operators " +
      join(report::operator_sort_keys()) + "; kernels " + join(report::kernel_sort_keys()) +
      "; attainment " + join(report::attainment_sort_keys()) +
      ".\nThe first key of each view is its default. See docs/trace.md.");
  cmd->add_option("file", a->file, "Trace file written by torch.profiler (Chrome trace JSON)")
      ->required();
  cmd->add_option("--hw", a->hw, "Hardware for the attainment view: a .yaml path or a name");
  cmd->add_option("--calibration", a->calibration,
                  "Calibration (.yaml or name): adds the calibrated time to the attainment view");
  cmd->add_option("--predict-on", a->predict_on,
                  "Hardware to predict the trace's device time on (needs --hw, the hardware the "
                  "trace was recorded on): each operator's measured time x the model's ratio");
  cmd->add_option("--target-calibration", a->target_calibration,
                  "Calibration of the --predict-on hardware (with --calibration for --hw): "
                  "ratios of calibrated times instead of rooflines");
  add_other_hardware_flag(cmd, a->calibration_other_hardware);
  // `efficiency`: the attainment view's earlier name (the word now means the calibrated
  // efficiency model only): still accepted.
  cmd->add_option("--view", a->view,
                  "overview, operators, kernels, attainment (or efficiency), all, or none (with "
                  "--predict-on: only the prediction)")
      ->transform(one_of("view", {{"overview"},
                                  {"operators"},
                                  {"kernels"},
                                  {"attainment", {"efficiency"}},
                                  {"all"},
                                  {"none"}}))
      ->capture_default_str();
  cmd->add_option("--sort", a->sort, "Sort key of the tables (see below)");
  cmd->add_option("--top", a->top, "Rows per table (0 = all)")
      ->check(non_negative(true))
      ->capture_default_str();
  add_output_options(cmd, a->out);
  cmd->callback([a, &run] { run = [a] { return run_trace(*a); }; });
}

} // namespace perfmodel::cli
