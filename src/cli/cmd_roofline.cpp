// `perfmodel roofline`: the roofline of a model on hardware, as a gnuplot image or as data.
#include <cstdio>
#include <memory>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "cli/llm_options.hpp"
#include "perfmodel/app/llm_roofline.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/onnx/load_model.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/report/plot/render.hpp"
#include "perfmodel/report/plot/roofline_plot.hpp"
#include "perfmodel/report/roofline_view.hpp"

namespace perfmodel::cli {

namespace {

struct RooflineArgs {
  std::string hw;
  ModelOptions model;
  std::string pass = "fwd";
  std::string fusion = "none";
  std::string calibration;
  bool calibration_other_hardware = false; // --calibration-for-other-hardware
  std::string measured;
  // a language model (a config.json): the passes drawn and their formats
  int64_t prompt = 0, kv = 0;
  std::string kv_dtype, weight_dtype, attention;
  std::optional<int64_t> group_size;
  int label_top = 8;
  bool keep_script = false;
  bool print_script = false;
  OutputOptions out;
};

// The roofline of a language model's prefill and decode step (app::llm_roofline).
report::RooflineData llm_roofline_data(const RooflineArgs &a, const HwSpec &hw) {
  if (a.pass != "fwd")
    throw InputError("--pass: the roofline of a language model shows its inference passes "
                     "(fwd)");
  if (a.fusion != "none")
    throw InputError("--fusion: the roofline of a language model shows the layers unfused "
                     "(none)");
  if (!a.measured.empty())
    throw InputError("--measured: a language model's prefill and decode layers share their "
                     "names; measured times are matched to a graph model's layers");
  if (!a.model.dims.empty())
    throw InputError("--dim: a language model's lengths are --prompt and --kv");
  app::LlmRooflineRequest r;
  const io::ModelLoadOptions lo = load_options(a.model);
  r.batch = lo.batch.value_or(1);
  r.prompt = a.prompt;
  r.kv = a.kv;
  r.dtype = lo.dtype.value_or(DType::fp16);
  if (!a.kv_dtype.empty()) {
    const auto k = parse_dtype(a.kv_dtype);
    if (!k)
      throw InputError("--kv-dtype: unknown data type '" + a.kv_dtype + "'");
    r.kv_dtype = *k;
  }
  r.weights = weight_format(a.weight_dtype, a.group_size);
  r.attention = a.attention == "eager" ? llm::Attention::eager : llm::Attention::flash;
  r.calibration = a.calibration;
  r.calibration_other_hardware = a.calibration_other_hardware;
  app::LlmRooflineRun run = app::llm_roofline(a.model.model, hw, r);
  warn_extrapolation("roofline", run.extrapolated);
  return std::move(run.data);
}

// The options that only a language model takes, refused for a graph model.
void refuse_llm_options(const RooflineArgs &a) {
  for (auto [opt, given] : {std::pair{"--prompt", a.prompt != 0},
                            {"--kv", a.kv != 0},
                            {"--kv-dtype", !a.kv_dtype.empty()},
                            {"--weight-dtype", !a.weight_dtype.empty()},
                            {"--group-size", a.group_size.has_value()},
                            {"--attention", !a.attention.empty()}})
    if (given)
      throw InputError(std::string(opt) +
                       ": applies to a language model (--model a config.json "
                       "or a name in models/llm/), not to " +
                       a.model.model);
}

// The image or data of a roofline already computed.
int show_roofline(const RooflineArgs &a, const report::RooflineData &d,
                  std::optional<report::plot::ImageKind> kind) {
  if (!kind) { // no image asked for: the view's data in --format
    emit(a.out, report::render_roofline(d, output_format(a.out)));
    return 0;
  }
  report::plot::RooflinePlotOptions opts;
  opts.label_top = size_t(a.label_top);
  const auto paths = report::plot::plot_paths(a.out.output);
  const auto plot = report::plot::roofline_plot(d, paths, *kind, opts);
  if (a.print_script) {
    std::printf("# ---- %s ----\n%s# ---- %s ----\n%s", paths.script_name.c_str(),
                plot.script.c_str(), paths.data_name.c_str(), plot.data.c_str());
    return 0;
  }
  auto outcome = report::plot::render_plot(paths, plot, a.keep_script);
  std::fprintf(stderr, "perfmodel: %s\n", outcome.message.c_str());
  return outcome.rendered ? 0 : 1;
}

int run_roofline(const RooflineArgs &a) {
  auto kind = report::plot::image_kind(a.out.output);
  if (a.print_script && !kind)
    throw InputError("--print-script needs -o FILE.svg, .png or .pdf (the image it would draw)");
  const HwSpec hw = io::load_hw(a.hw);
  if (app::is_llm_model(a.model.model))
    return show_roofline(a, llm_roofline_data(a, hw), kind);
  refuse_llm_options(a);
  PredictOptions po;
  auto pass = parse_pass(a.pass);
  if (!pass)
    throw InputError("unknown --pass '" + a.pass + "' (fwd or train)");
  po.pass = *pass;
  po.fusion = fusion_mode(a.fusion);
  const Graph g = fuse(io::load_model(a.model.model, load_options(a.model)), po.fusion, po.pass);
  std::optional<Calibration> cal;
  if (!a.calibration.empty()) {
    cal = load_calibration_for(a.calibration, hw, a.calibration_other_hardware);
    po.calibration = &*cal;
  }
  std::map<std::string, double> measured;
  if (!a.measured.empty())
    measured = report::parse_measurement_json(io::read_file(a.measured), a.measured);
  const Prediction p = predict(g, hw, po);
  if (cal)
    warn_extrapolation("roofline", extrapolated_calls(*cal, g, graph_cost(g, po.pass), po.pass));
  const report::RooflineData d = report::make_roofline(p, hw, measured);
  if (!d.unmatched_measurements.empty())
    std::fprintf(stderr,
                 "perfmodel: warning: %zu measured layer(s) of %s match no layer of %s "
                 "(first: %s)\n",
                 d.unmatched_measurements.size(), a.measured.c_str(), d.model.c_str(),
                 d.unmatched_measurements.front().c_str());
  return show_roofline(a, d, kind);
}

} // namespace

void register_roofline(CLI::App &app, Runner &run) {
  auto a = std::make_shared<RooflineArgs>();
  CLI::App *cmd = app.add_subcommand(
      "roofline", "Roofline of a model on hardware: a gnuplot image (-o x.svg|png|pdf) or data");
  cmd->footer(
      "With -o FILE.svg, .png or .pdf, draws the roofline with gnuplot (log-log FLOP/byte vs\n"
      "FLOP/s): a ceiling per compute unit and data type, a diagonal per memory level, ridge\n"
      "points, one point per layer (area ~ time, colour = op type), measured points hollow,\n"
      "the top layers by time labelled. Any other -o (or none) writes the data in --format.\n"
      "The script and data are written beside the image (kept with --keep-script); without\n"
      "gnuplot they are kept and the message says how to render them (exit status 1).\n"
      "A language model (--model a config.json or a name in models/llm/) is drawn as its\n"
      "prefill of --prompt tokens (circles) and one decode step at KV length --kv (squares)\n"
      "on one plot; the data gains a phase per layer.\n"
      "Examples:\n"
      "  perfmodel roofline --hw a100 --model resnet50 --batch 64 --dtype fp16 -o roofline.svg\n"
      "  perfmodel roofline --hw v100 --model nin --batch 5 --measured m.json -o nin.png "
      "--keep-script\n"
      "  perfmodel roofline --hw h100 --model vgg16 --format json -o roofline.json\n"
      "  perfmodel roofline --hw h100 --model llama-3-8b --prompt 2048 --kv 4096 --batch 8 "
      "-o llm.svg");
  cmd->add_option("--hw", a->hw, "Hardware: a .yaml path or a name in hw_specs/")->required();
  add_model_options(cmd, a->model);
  cmd->get_option("--model")->description(
      "Model: a .yaml/.onnx path or a name in models/, or a language model's config.json (a "
      "path or a name in models/llm/)");
  cmd->add_option("--pass", a->pass,
                  "fwd (forward, inference) or train (training: fwd + bwd_data + bwd_weight)")
      ->transform(one_of("pass", pass_choices()))
      ->capture_default_str();
  add_fusion_option(cmd, a->fusion);
  cmd->add_option("--calibration", a->calibration,
                  "Calibration: a .yaml path or a name in calibration/ (fitted efficiency)");
  add_other_hardware_flag(cmd, a->calibration_other_hardware);
  cmd->add_option("--measured", a->measured,
                  "Measured layer times: `perfmodel measure --format json` output (drawn hollow)");
  cmd->add_option("--prompt", a->prompt,
                  "A language model: its prefill of this many tokens per sequence")
      ->check(positive(true));
  cmd->add_option("--kv", a->kv,
                  "A language model: one decode step with this many tokens in the KV cache")
      ->check(positive(true));
  cmd->add_option("--kv-dtype", a->kv_dtype,
                  "A language model: data type of the KV cache (default: --dtype)");
  add_weight_format_options(cmd, a->weight_dtype, a->group_size);
  cmd->add_option("--attention", a->attention,
                  "A language model: flash (default: no score matrix in memory) or eager")
      ->check(CLI::IsMember({"flash", "eager"}));
  cmd->add_option("--label-top", a->label_top,
                  "Label the N slowest layers (of each phase for a language model; 0 = none)")
      ->check(between(0, 100000))
      ->capture_default_str();
  cmd->add_flag("--keep-script", a->keep_script,
                "Keep the gnuplot script (.gp) and data (.dat) beside the image");
  cmd->add_flag("--print-script", a->print_script,
                "Print the gnuplot script and data to stdout instead of drawing (needs -o image)");
  add_output_options(cmd, a->out);
  cmd->callback([a, &run] { run = [a] { return run_roofline(*a); }; });
}

} // namespace perfmodel::cli
