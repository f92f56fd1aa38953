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
  // Load every input before the work, so that a bad --hw fails fast.
  std::optional<HwSpec> hw;
  if (!a.hw.empty())
    hw = io::load_hw(a.hw);
  std::optional<Calibration> cal;
  if (!a.calibration.empty())
    cal = load_calibration_for(a.calibration, *hw, a.calibration_other_hardware);
  const trace::Trace t = io::read_trace(a.file);
  const trace::Links links = trace::link_events(t);

  report::TraceReport r;
  r.file = a.file;
  if (all || a.view == "overview")
    r.overview = trace::compute_overview(t, links);
  const bool need_tree = all || a.view == "operators" || a.view == "attainment";
  trace::OpTree tree;
  if (need_tree)
    tree = trace::build_op_tree(t, links);
  if (all || a.view == "operators")
    r.operators = trace::operator_table(t, tree);
  if (all || a.view == "kernels")
    r.kernels = trace::kernel_table(t);
  if (hw && (all || a.view == "attainment"))
    r.attainment = trace::attainment_view(t, links, tree, *hw, cal ? &*cal : nullptr);
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
      "Sort keys: operators " +
      join(report::operator_sort_keys()) + "; kernels " + join(report::kernel_sort_keys()) +
      "; attainment " + join(report::attainment_sort_keys()) +
      ".\nThe first key of each view is its default. See docs/trace.md.");
  cmd->add_option("file", a->file, "Trace file written by torch.profiler (Chrome trace JSON)")
      ->required();
  cmd->add_option("--hw", a->hw, "Hardware for the attainment view: a .yaml path or a name");
  cmd->add_option("--calibration", a->calibration,
                  "Calibration (.yaml or name): adds the calibrated time to the attainment view");
  add_other_hardware_flag(cmd, a->calibration_other_hardware);
  // `efficiency`: the attainment view's earlier name (the word now means the calibrated
  // efficiency model only): still accepted.
  cmd->add_option("--view", a->view,
                  "overview, operators, kernels, attainment (or efficiency) or all")
      ->transform(one_of(
          "view",
          {{"overview"}, {"operators"}, {"kernels"}, {"attainment", {"efficiency"}}, {"all"}}))
      ->capture_default_str();
  cmd->add_option("--sort", a->sort, "Sort key of the tables (see below)");
  cmd->add_option("--top", a->top, "Rows per table (0 = all)")
      ->check(non_negative())
      ->capture_default_str();
  add_output_options(cmd, a->out);
  cmd->callback([a, &run] { run = [a] { return run_trace(*a); }; });
}

} // namespace perfmodel::cli
