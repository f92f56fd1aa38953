// `perfmodel report`: one self-contained HTML page of a prediction (summary, profile, roofline,
// layer table), with measured layer times and a profiler trace's overview where given.
#include <cstdio>
#include <memory>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "cli/layout_option.hpp"
#include "perfmodel/app/commands.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/onnx/load_model.hpp"

namespace perfmodel::cli {

namespace {

struct ReportArgs {
  std::string hw;
  ModelOptions model;
  std::string pass = "fwd";
  std::string fusion = "none";
  std::string layout; // "" = nchw
  std::string calibration;
  bool calibration_other_hardware = false;
  std::optional<double> power;
  std::string measured;
  std::string trace;
  int top = 15;
  int trace_top = 10;
  OutputOptions out;
};

int run_report(const ReportArgs &a) {
  const HwSpec hw = io::load_hw(a.hw);
  app::PredictRequest r;
  const auto pass = parse_pass(a.pass);
  if (!pass)
    throw InputError("unknown --pass '" + a.pass + "' (fwd or train)");
  r.pass = *pass;
  r.fusion = fusion_mode(a.fusion);
  r.power_watts = a.power;
  r.calibration = a.calibration;
  r.calibration_other_hardware = a.calibration_other_hardware;
  Graph g = io::load_model(a.model.model, load_options(a.model));
  g.layout = layout_option(a.layout);
  const app::ReportPage page =
      app::report(std::move(g), hw, r, app::ReportRequest{a.measured, a.trace, a.top, a.trace_top});
  warn_extrapolation("report", page.extrapolated);
  if (!page.unmatched_measurements.empty())
    std::fprintf(stderr,
                 "perfmodel: warning: %zu measured layer(s) of %s match no layer of %s "
                 "(first: %s)\n",
                 page.unmatched_measurements.size(), a.measured.c_str(), page.model.c_str(),
                 page.unmatched_measurements.front().c_str());
  emit(a.out, page.html);
  return 0;
}

} // namespace

void register_report(CLI::App &app, Runner &run) {
  auto a = std::make_shared<ReportArgs>();
  CLI::App *cmd = app.add_subcommand(
      "report", "Write one self-contained HTML page of a prediction: summary, profile, roofline, "
                "layer table; measured times and a trace where given");
  cmd->footer(
      "The page needs no network and no other file: styles, a small script that sorts the\n"
      "tables, and SVG plots are inline. Open it as report.html#sort=time to start with the\n"
      "layer table sorted by time (any column key; :asc or :desc).\n"
      "Examples:\n"
      "  perfmodel report --model resnet50 --hw a100 --batch 64 --dtype fp16 -o report.html\n"
      "  perfmodel report --model nin --hw xeon-emr-2c --batch 5 --calibration xeon-emr-2c "
      "--measured m.json -o nin.html\n"
      "  perfmodel report --model resnet50 --hw v100 --batch 32 --trace run.pt.trace.json.gz "
      "-o run.html");
  cmd->add_option("--hw", a->hw, "Hardware: a .yaml path or a name in hw_specs/")->required();
  add_model_options(cmd, a->model);
  cmd->add_option("--pass", a->pass,
                  "fwd (forward, inference) or train (training: fwd + bwd_data + bwd_weight)")
      ->transform(one_of("pass", pass_choices()))
      ->capture_default_str();
  add_fusion_option(cmd, a->fusion);
  add_layout_option(cmd, a->layout);
  cmd->add_option("--calibration", a->calibration,
                  "Calibration (a .yaml path or a name in calibration/): time layers with the "
                  "fitted efficiency model instead of the roofline");
  add_other_hardware_flag(cmd, a->calibration_other_hardware);
  cmd->add_option("--power", a->power, "Power in W for the power x time energy (default: TDP)")
      ->check(positive(false));
  cmd->add_option("--measured", a->measured,
                  "Measured layer times: `perfmodel measure --format json` output, matched to "
                  "the layers by name (predicted against measured)");
  cmd->add_option("--trace", a->trace,
                  "PyTorch profiler trace (.json or .json.gz): its step overview, operators, "
                  "kernels and the roofline attainment of its operators on --hw, as `perfmodel "
                  "trace --hw` computes them");
  cmd->add_option("--top", a->top, "Rows of the profile (0 = every layer with time)")
      ->check(non_negative(true))
      ->capture_default_str();
  cmd->add_option("--trace-top", a->trace_top,
                  "Rows of the trace's operator, kernel and attainment tables (0 = all)")
      ->check(non_negative(true))
      ->capture_default_str();
  cmd->add_option("-o,--output", a->out.output,
                  "Write the page to FILE (atomically: a failed run leaves an earlier file "
                  "intact); - for stdout")
      ->required();
  cmd->callback([a, &run] { run = [a] { return run_report(*a); }; });
}

} // namespace perfmodel::cli
