// `perfmodel predict`: per-layer costs, roofline time, bound and energy of a model on hardware,
// with the assumed execution, the memory footprint and the time per op type and bound.
#include <memory>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "cli/layout_option.hpp"
#include "cli/llm_options.hpp"
#include "perfmodel/app/commands.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/onnx/load_model.hpp"

namespace perfmodel::cli {

namespace {

struct PredictArgs {
  std::string hw;
  std::string calibration;                 // "" = pure roofline
  bool calibration_other_hardware = false; // --calibration-for-other-hardware
  ModelOptions model;
  LlmPhaseOptions llm; // --phase: a language model's pass
  std::string pass = "fwd";
  std::string fusion = "none";
  std::string layout; // "" = nchw
  std::optional<double> power, runtime;
  bool rollup = false, per_layer = false, profile = false, wide = false;
  int top = 0;
  OutputOptions out;
};

int run_predict(const PredictArgs &a) {
  const HwSpec hw = io::load_hw(a.hw);
  app::PredictRequest r;
  auto pass = parse_pass(a.pass);
  if (!pass)
    throw InputError("unknown --pass '" + a.pass + "' (fwd or train)");
  r.pass = *pass;
  r.fusion = fusion_mode(a.fusion);
  PredictOptions po; // what --phase checks: the pass and the fusion
  po.pass = r.pass;
  po.fusion = r.fusion;
  std::optional<LlmPhasePass> lp = llm_phase_pass(a.llm, a.model, po);
  Graph g = lp ? std::move(lp->graph) : io::load_model(a.model.model, load_options(a.model));
  g.layout = layout_option(a.layout);
  if (lp)
    r.layer_costs = std::move(lp->costs);
  r.power_watts = a.power;
  r.runtime_seconds = a.runtime;
  r.calibration = a.calibration;
  r.calibration_other_hardware = a.calibration_other_hardware;
  report::PredictionViewOptions vo;
  if (a.rollup || a.per_layer || a.profile) { // asking for sections shows those (totals always)
    vo.rollup = a.rollup;
    vo.per_layer = a.per_layer;
    vo.profile = a.profile;
  }
  vo.top = a.top;
  vo.wide = a.wide;
  const app::Rendered out = app::predict(std::move(g), hw, r, output_format(a.out), vo);
  warn_extrapolation("predict", out.extrapolated);
  emit(a.out, out.text);
  return 0;
}

} // namespace

void register_predict(CLI::App &app, Runner &run) {
  auto a = std::make_shared<PredictArgs>();
  CLI::App *cmd = app.add_subcommand(
      "predict", "Predict per-layer FLOPs, bytes, time, bound and energy of a model on hardware");
  cmd->footer("Examples:\n"
              "  perfmodel predict --hw v100 --model nin --batch 5\n"
              "  perfmodel predict --hw titanx-maxwell --model nin --batch 5 --runtime 0.00793677 "
              "--power 200\n"
              "  perfmodel predict --hw a100 --model vgg16 --dtype fp16 --pass train --format json "
              "-o p.json\n"
              "  perfmodel predict --hw a100 --model resnet50 --dtype fp16 --batch 8 --fusion "
              "inference\n"
              "  perfmodel predict --hw h100 --model llama-3-8b --phase decode --kv 4096");
  cmd->add_option("--hw", a->hw, "Hardware: a .yaml path or a name in hw_specs/")->required();
  add_model_options(cmd, a->model);
  add_llm_phase_options(cmd, a->llm);
  cmd->add_option("--calibration", a->calibration,
                  "Calibration (a .yaml path or a name in calibration/): time layers with the "
                  "fitted efficiency model instead of the roofline");
  add_other_hardware_flag(cmd, a->calibration_other_hardware);
  cmd->add_option("--pass", a->pass,
                  "fwd (forward, inference) or train (training: fwd + bwd_data + bwd_weight)")
      ->transform(one_of("pass", pass_choices()))
      ->capture_default_str();
  add_fusion_option(cmd, a->fusion);
  add_layout_option(cmd, a->layout);
  cmd->add_option("--power", a->power, "Power in W for the power x time energy (default: TDP)")
      ->check(positive(false));
  cmd->add_option("--runtime", a->runtime,
                  "Measured total time in s: totals also report measured rates (as boda does)")
      ->check(positive(false));
  cmd->add_flag("--rollup", a->rollup,
                "Show the time per op type and per bound (with --per-layer or --profile: only "
                "the sections named)");
  cmd->add_flag("--per-layer", a->per_layer,
                "Show the per-layer table (with --rollup or --profile: only the sections named)");
  cmd->add_flag("--profile", a->profile,
                "Show the time profile (with --rollup or --per-layer: only the sections named)");
  cmd->add_flag("--wide", a->wide,
                "Table and Markdown: every layer column (input, filter, MxNxK, rate, energy) "
                "and whole layer names, not fitted to 120 columns");
  cmd->add_option("--top", a->top, "Rows of the profile (0 = all)")->check(non_negative(true));
  add_output_options(cmd, a->out);
  cmd->callback([a, &run] { run = [a] { return run_predict(*a); }; });
}

} // namespace perfmodel::cli
