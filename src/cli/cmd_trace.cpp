// `perfmodel trace`: reads a PyTorch profiler trace and prints its overview, operator, kernel
// and roofline attainment views.
#include <memory>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "perfmodel/app/commands.hpp"
#include "perfmodel/report/trace/trace_report.hpp"

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
  app::TraceRequest r;
  r.file = a.file;
  r.hw = a.hw;
  r.calibration = a.calibration;
  r.predict_on = a.predict_on;
  r.target_calibration = a.target_calibration;
  r.calibration_other_hardware = a.calibration_other_hardware;
  r.view = a.view;
  r.sort = a.sort;
  r.top = a.top;
  emit(a.out, report::render_trace(app::trace(r), output_format(a.out)));
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
