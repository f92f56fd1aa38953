// `perfmodel sweep`: a design-space sweep over hardware x dtype x batch x pass, and its plot; of a
// language model, over hardware x dtype x split x prompt x generate x batch (cli/sweep_llm.hpp).
#include <algorithm>
#include <cstdio>
#include <memory>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "cli/layout_option.hpp"
#include "cli/sweep_llm.hpp"
#include "perfmodel/app/commands.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/onnx/load_model.hpp"
#include "perfmodel/report/plot/render.hpp"
#include "perfmodel/report/plot/sweep_plot.hpp"
#include "perfmodel/report/sweep_view.hpp"
#include "perfmodel/sweep.hpp"

namespace perfmodel::cli {

namespace {

struct SweepArgs {
  std::string model;
  std::string hw;
  std::string batch = "1";
  std::string dtype; // "" = the model's own
  std::string pass = "fwd";
  std::string fusion = "none";
  std::string layout; // "" = nchw
  std::vector<std::string> dims;
  std::string calibration;
  bool calibration_other_hardware = false; // --calibration-for-other-hardware
  std::string sort;                        // "" = axis order
  std::string plot;
  bool keep_script = false;
  bool print_script = false;
  OutputOptions out;
  SweepLlmArgs llm; // a language model's axes and options
};

SweepSpec make_spec(const SweepArgs &a) {
  SweepSpec spec;
  for (const std::string &name : parse_list_axis(a.hw, "--hw"))
    spec.hardware.push_back(io::load_hw(name));
  spec.batches = parse_int_axis(a.batch, "--batch");
  if (!a.dtype.empty())
    for (const std::string &d : parse_list_axis(a.dtype, "--dtype")) {
      const auto name = canonical_name(dtype_choices(), d);
      if (!name)
        throw InputError("--dtype: " + unknown_name_message("data type", dtype_choices(), d));
      spec.dtypes.push_back(*parse_dtype(*name));
    }
  spec.passes.clear();
  for (const std::string &p : parse_list_axis(a.pass, "--pass")) {
    const auto name = canonical_name(pass_choices(), p);
    if (!name)
      throw InputError("--pass: " + unknown_name_message("pass", pass_choices(), p));
    spec.passes.push_back(*parse_pass(*name));
  }
  spec.fusion = fusion_mode(a.fusion);
  return spec;
}

int run_sweep_cmd(const SweepArgs &a) {
  auto kind = report::plot::image_kind(a.plot);
  if (!a.plot.empty() && !kind)
    throw InputError("--plot '" + a.plot + "': the image must end in .svg, .png or .pdf");
  if (a.print_script && !kind)
    throw InputError("--print-script needs --plot FILE.svg|png|pdf");
  if (a.llm.given() || names_llm_config(a.model))
    return run_sweep_llm(SweepCommon{a.model, a.hw, a.batch, a.dtype, a.pass, a.fusion, a.dims,
                                     a.calibration, a.calibration_other_hardware, a.sort, a.plot,
                                     a.keep_script, a.print_script, a.out},
                         a.llm);
  app::check_sweep_sort(a.sort);
  app::SweepRequest req;
  req.spec = make_spec(a);
  req.calibration = a.calibration;
  req.calibration_other_hardware = a.calibration_other_hardware;
  req.sort = a.sort;
  if (!a.calibration.empty() && req.spec.hardware.size() != 1) // before the model is loaded
    throw InputError("--calibration fits one device: give exactly one --hw with it");
  ModelOptions mo;
  mo.model = a.model;
  mo.dims = a.dims;
  Graph g = io::load_model(a.model, load_options(mo));
  g.layout = layout_option(a.layout);
  req.keep_axes_order = kind.has_value(); // the plot draws the axes' order
  const app::SweepRun run = app::sweep(g, std::move(req));
  const SweepResult &r = run.result;
  warn_extrapolation("sweep", r.extrapolated);
  // Streamed to the output a chunk of points at a time (up to kMaxSweepPoints of them).
  const auto emit_sweep = [&] {
    io::OutputFile out(a.out.output.empty() ? "-" : a.out.output);
    report::write_sweep(run.shown(), output_format(a.out),
                        [&](std::string_view s) { out.write(s); });
    out.commit();
  };

  if (kind) {
    const auto paths = report::plot::plot_paths(a.plot);
    const auto plot = report::plot::sweep_plot(r, paths, *kind);
    if (a.print_script) {
      std::printf("# ---- %s ----\n%s# ---- %s ----\n%s", paths.script_name.c_str(),
                  plot.script.c_str(), paths.data_name.c_str(), plot.data.c_str());
      return 0;
    }
    emit_sweep();
    auto outcome = report::plot::render_plot(paths, plot, a.keep_script);
    std::fprintf(stderr, "perfmodel: %s\n", outcome.message.c_str());
    return outcome.rendered ? 0 : 1;
  }
  emit_sweep();
  return 0;
}

} // namespace

void register_sweep(CLI::App &app, Runner &run) {
  auto a = std::make_shared<SweepArgs>();
  CLI::App *cmd = app.add_subcommand(
      "sweep", "Design-space sweep: every combination of hardware, dtype, batch and pass");
  cmd->footer(
      "Axes are comma lists; --batch also takes ranges start:end:xFACTOR or start:end:+STEP\n"
      "(1:1024:x2 = 1,2,4,...,1024). Per point: latency, throughput, FLOP/s, bytes, AI, share\n"
      "of time compute/memory/overhead bound, energy per sample, samples per joule, average\n"
      "power, GF/s/W, memory footprint (weights + activations at the peak) and whether it\n"
      "fits in DRAM. Points that cannot be evaluated (no unit for the dtype, batch < 1, shapes\n"
      "that fail, the train pass under --fusion inference) are listed as skipped. --sort\n"
      "orders the printed points best first.\n"
      "A language model (a config.json or a name in models/llm/) is swept over hardware x\n"
      "dtype x split (--tp x --pp, or --gpus) x --prompt x --generate x batch: per point TTFT,\n"
      "mean TPOT, end-to-end time, tokens/s (request, batch, per GPU), memory per device, fits\n"
      "and max batch; its --plot draws tokens/s against TPOT and memory against batch.\n"
      "Examples:\n"
      "  perfmodel sweep --model resnet50 --hw v100,a100,h100 --batch 1:1024:x2 --dtype fp16\n"
      "  perfmodel sweep --model vgg16 --hw a100 --batch 1,8,64 --dtype fp32,fp16 "
      "--pass fwd,train --format csv -o sweep.csv\n"
      "  perfmodel sweep --model resnet50 --hw a100,h100 --batch 1:256:x2 --plot sweep.svg\n"
      "  perfmodel sweep --model resnet50 --hw t4,a100 --batch 1:512:x2 --sort samples_per_joule\n"
      "  perfmodel sweep --model llama-3-8b --hw h100 --batch 1,8,32,64 --prompt 512,2048 "
      "--generate 128 --plot serve.svg\n"
      "  perfmodel sweep --model llama-2-70b --hw h100 --gpus 8 --batch 1:256:x4 --prompt 2048 "
      "--generate 256 --sort throughput_per_gpu");
  cmd->add_option("--model,-m", a->model, "Model: a .yaml/.onnx path or a name in models/")
      ->required();
  cmd->add_option("--hw", a->hw, "Hardware list: names in hw_specs/ or .yaml paths, a,b,c")
      ->required();
  cmd->add_option("--batch,-b", a->batch, "Batch axis: 1,8,64 or 1:1024:x2 or 1:64:+8")
      ->capture_default_str();
  cmd->add_option("--dtype", a->dtype,
                  "Data type list: fp32,fp16,bf16,... (any case; aliases as --dtype of predict; "
                  "default: the model's; a language model's: fp16)");
  cmd->add_option("--pass", a->pass, "Pass list: fwd, train or fwd,train")->capture_default_str();
  add_fusion_option(cmd, a->fusion);
  add_layout_option(cmd, a->layout);
  cmd->add_option("--dim", a->dims, "Set a symbolic ONNX dimension: --dim seq=128 (repeatable)");
  cmd->add_option("--calibration", a->calibration,
                  "Calibration (.yaml path or name in calibration/); needs exactly one --hw");
  add_other_hardware_flag(cmd, a->calibration_other_hardware);
  cmd->add_option("--sort", a->sort,
                  "Order the points best first by: latency, throughput, flops_per_second, "
                  "energy, energy_per_sample, samples_per_joule, power, "
                  "flops_per_second_per_watt, memory, batch or hw (default: the axes' order); "
                  "a language model's: ttft, tpot, e2e, throughput, throughput_request, "
                  "throughput_per_gpu, memory, max_batch, batch or hw");
  cmd->add_option("--plot", a->plot,
                  "Also draw latency, throughput and energy per sample vs batch (a language "
                  "model: tokens/s vs TPOT, memory vs batch): FILE.svg|png|pdf");
  cmd->add_flag("--keep-script", a->keep_script,
                "Keep the plot's gnuplot script (.gp) and data (.dat) beside the image");
  cmd->add_flag("--print-script", a->print_script,
                "Print the plot's gnuplot script and data to stdout instead of drawing");
  add_sweep_llm_options(cmd, a->llm);
  add_output_options(cmd, a->out);
  cmd->callback([a, &run] { run = [a] { return run_sweep_cmd(*a); }; });
}

} // namespace perfmodel::cli
