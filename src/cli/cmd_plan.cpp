// `perfmodel plan`: search the tensor / pipeline / data / expert splits of a training run over
// a number of GPUs, drop those that do not fit, rank the rest (docs/parallel.md, "Plan").
#include <cstdio>
#include <memory>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "perfmodel/io/comm_calibration_yaml.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/plan.hpp"
#include "perfmodel/report/plan_view.hpp"
#include "perfmodel/report/plot/render.hpp"

namespace perfmodel::cli {

namespace {

struct PlanArgs {
  std::string model, hw, calibration, comm_calibration, dtype = "bf16", attention = "flash";
  std::string pass = "train", recompute, plot;
  bool calibration_other_hardware = false, keep_script = false;
  int64_t gpus = 0, global_batch = 0, seq = 2048, max_microbatch = 16, max_interleave = 8;
  int threads = 2;
  size_t top = 10;
  OutputOptions out;
};

int run_plan(const PlanArgs &a) {
  if (a.pass != "train")
    throw InputError("--pass: plan searches training splits (--pass train); serving splits are "
                     "not searched yet");
  auto kind = report::plot::image_kind(a.plot);
  if (!a.plot.empty() && !kind)
    throw InputError("--plot '" + a.plot + "': the image must end in .svg, .png or .pdf");
  const HwSpec hw = io::load_hw(a.hw);
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config(a.model));
  llm::PlanOptions o;
  o.gpus = a.gpus;
  o.global_batch = a.global_batch;
  o.seq = a.seq;
  o.max_microbatch = a.max_microbatch;
  o.max_interleave = a.max_interleave;
  o.threads = a.threads;
  const auto dt = parse_dtype(a.dtype);
  if (!dt)
    throw InputError("--dtype: unknown data type '" + a.dtype + "'");
  o.dtype = *dt;
  o.attention = a.attention == "eager" ? llm::Attention::eager : llm::Attention::flash;
  if (!a.recompute.empty())
    o.recompute = {*llm::parse_recompute(a.recompute)};
  std::optional<Calibration> cal;
  if (!a.calibration.empty())
    cal = load_calibration_for(a.calibration, hw, a.calibration_other_hardware);
  o.calibration = cal ? &*cal : nullptr;
  std::optional<CommCalibration> comm;
  if (!a.comm_calibration.empty()) {
    comm = io::read_comm_calibration_yaml(a.comm_calibration);
    if (comm->hw != hw.name)
      throw InputError("--comm-calibration " + a.comm_calibration + " was fitted on '" + comm->hw +
                       "', not on --hw " + hw.name);
  }
  o.comm = comm ? &*comm : nullptr;
  const llm::PlanResult r = llm::plan_training(c, hw, o);
  std::fprintf(stderr, "plan: %lld splits evaluated in %.3f s\n",
               static_cast<long long>(r.enumerated), r.seconds);
  emit(a.out, report::render_plan(c, hw, o, r, output_format(a.out), a.top));
  if (kind) {
    const auto paths = report::plot::plot_paths(a.plot);
    const auto plot = report::plan_plot(c, r, paths, *kind);
    auto outcome = report::plot::render_plot(paths, plot, a.keep_script);
    std::fprintf(stderr, "perfmodel: %s\n", outcome.message.c_str());
    return outcome.rendered ? 0 : 1;
  }
  return 0;
}

} // namespace

void register_plan(CLI::App &app, Runner &run) {
  auto a = std::make_shared<PlanArgs>();
  CLI::App *cmd = app.add_subcommand(
      "plan", "Search the tensor / pipeline / data / expert splits of a training run over many "
              "GPUs: drop those that do not fit, rank the rest by step time");
  cmd->footer("Examples:\n"
              "  perfmodel plan --model gpt3-175b.json --hw a100 --gpus 64 --global-batch 64\n"
              "  perfmodel plan --model llama-3-70b --hw h100 --gpus 64 --global-batch 1024 "
              "--seq 4096 --format csv -o plan.csv --plot plan.svg");
  cmd->add_option("--model", a->model,
                  "A HuggingFace config.json, or a name in models/llm/ (llama-3-8b, ...)")
      ->required();
  cmd->add_option("--hw", a->hw,
                  "Hardware: a .yaml path or a name in hw_specs/ (with an "
                  "interconnect section)")
      ->required();
  cmd->add_option("--gpus", a->gpus, "Devices: tp x pp x dp of every split")
      ->check(positive(true))
      ->required();
  cmd->add_option("--global-batch", a->global_batch, "Sequences per training step")
      ->check(positive(true))
      ->required();
  cmd->add_option("--pass", a->pass, "train (the only pass searched)")->capture_default_str();
  cmd->add_option("--seq", a->seq, "Tokens per sequence")
      ->check(positive(true))
      ->capture_default_str();
  cmd->add_option("--dtype", a->dtype, "Data type of weights and math")->capture_default_str();
  cmd->add_option("--attention", a->attention, "flash or eager (eager stores the scores)")
      ->check(CLI::IsMember({"flash", "eager"}))
      ->capture_default_str();
  cmd->add_option("--recompute", a->recompute,
                  "Search only this recompute mode (none, selective, full; default: all)")
      ->check(CLI::IsMember({"none", "selective", "full"}));
  cmd->add_option("--max-microbatch", a->max_microbatch, "Largest microbatch searched")
      ->capture_default_str()
      ->check(CLI::Range(int64_t(1), int64_t(1) << 20));
  cmd->add_option("--max-interleave", a->max_interleave,
                  "Most virtual pipeline stages per device searched")
      ->capture_default_str()
      ->check(CLI::Range(int64_t(1), int64_t(1024)));
  cmd->add_option("--calibration", a->calibration,
                  "Calibration for the layers' times (a .yaml path or a name in calibration/)");
  add_other_hardware_flag(cmd, a->calibration_other_hardware);
  cmd->add_option("--comm-calibration", a->comm_calibration,
                  "Collective figures fitted by calibrate --from-nccl-tests");
  cmd->add_option("--threads", a->threads, "Threads evaluating the splits")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--top", a->top, "Rows of the table (CSV and JSON hold every split)")
      ->check(non_negative(true))
      ->capture_default_str();
  cmd->add_option("--plot", a->plot,
                  "Draw the frontier (tokens/s per device against memory) to FILE.svg|png|pdf");
  cmd->add_flag("--keep-script", a->keep_script,
                "Keep the plot's gnuplot script (.gp) and data (.dat) beside the image");
  add_output_options(cmd, a->out);
  cmd->callback([a, &run] { run = [a] { return run_plan(*a); }; });
}

} // namespace perfmodel::cli
