// `perfmodel plan`: search the tensor / pipeline / data / expert splits of a training run or
// of a serving deployment over a number of GPUs, drop those that do not fit, rank the rest
// (docs/parallel.md, "Plan" and "Plan: serving").
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "cli/llm_parallel.hpp"
#include "perfmodel/io/comm_calibration_yaml.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/plan.hpp"
#include "perfmodel/llm/plan_infer.hpp"
#include "perfmodel/report/plan_infer_view.hpp"
#include "perfmodel/report/plan_view.hpp"
#include "perfmodel/report/plot/render.hpp"

namespace perfmodel::cli {

namespace {

struct PlanArgs {
  std::string model, hw, calibration, comm_calibration, dtype = "bf16", attention = "flash";
  std::string pass = "train", recompute, plot;
  bool calibration_other_hardware = false, keep_script = false;
  int64_t gpus = 0, global_batch = 0, seq = 2048, max_microbatch = 16, max_interleave = 8;
  int64_t batch = 0, prompt = 0, generate = 0; // --pass infer
  std::string kv_dtype;
  std::vector<std::string> given; // the options given, by name ("--seq")
  int threads = 2;
  size_t top = 10;
  OutputOptions out;
};

bool given(const PlanArgs &a, const std::string &opt) {
  return std::find(a.given.begin(), a.given.end(), opt) != a.given.end();
}

// The options of the other pass, refused by name.
void refuse_other_pass(const PlanArgs &a) {
  const bool train = a.pass == "train";
  const std::vector<std::string> other =
      train ? std::vector<std::string>{"--batch", "--prompt", "--generate", "--kv-dtype"}
            : std::vector<std::string>{"--global-batch", "--seq", "--recompute", "--max-microbatch",
                                       "--max-interleave"};
  for (const std::string &opt : other)
    if (given(a, opt))
      throw InputError(opt + ": applies to --pass " + (train ? "infer" : "train") +
                       (train ? " (serving: --batch, --prompt, --generate)"
                              : " (training: --global-batch, --seq, ...)"));
  const std::vector<std::string> needed =
      train ? std::vector<std::string>{"--global-batch"}
            : std::vector<std::string>{"--batch", "--prompt", "--generate"};
  for (const std::string &opt : needed)
    if (!given(a, opt))
      throw InputError("--pass " + a.pass + " needs " + opt);
}

DType plan_dtype(const std::string &name, const char *opt) {
  const auto dt = parse_dtype(name);
  if (!dt)
    throw InputError(std::string(opt) + ": unknown data type '" + name + "'");
  return *dt;
}

// The frontier plot, where --plot asks for one.
int draw(const PlanArgs &a,
         const std::function<report::plot::PlotScript(const report::plot::PlotPaths &,
                                                      report::plot::ImageKind)> &make) {
  auto kind = report::plot::image_kind(a.plot);
  if (!kind)
    return 0;
  const auto paths = report::plot::plot_paths(a.plot);
  auto outcome = report::plot::render_plot(paths, make(paths, *kind), a.keep_script);
  std::fprintf(stderr, "perfmodel: %s\n", outcome.message.c_str());
  return outcome.rendered ? 0 : 1;
}

int run_plan(const PlanArgs &a) {
  if (a.pass != "train" && a.pass != "infer")
    throw InputError("--pass: unknown pass '" + a.pass + "' (train or infer)");
  refuse_other_pass(a);
  if (!a.plot.empty() && !report::plot::image_kind(a.plot))
    throw InputError("--plot '" + a.plot + "': the image must end in .svg, .png or .pdf");
  const HwSpec hw = io::load_hw(a.hw);
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config(a.model));
  std::optional<Calibration> cal;
  if (!a.calibration.empty())
    cal = load_calibration_for(a.calibration, hw, a.calibration_other_hardware);
  const std::optional<CommCalibration> comm = load_comm_calibration_for(a.comm_calibration, hw);
  const auto attention = a.attention == "eager" ? llm::Attention::eager : llm::Attention::flash;
  if (a.pass == "infer") {
    llm::InferPlanOptions o;
    o.gpus = a.gpus;
    o.batch = a.batch;
    o.prompt = a.prompt;
    o.generate = a.generate;
    o.dtype = plan_dtype(a.dtype, "--dtype");
    if (!a.kv_dtype.empty())
      o.kv_dtype = plan_dtype(a.kv_dtype, "--kv-dtype");
    o.attention = attention;
    o.threads = a.threads;
    o.calibration = cal ? &*cal : nullptr;
    o.comm = comm ? &*comm : nullptr;
    const llm::InferPlanResult r = llm::plan_inference(c, hw, o);
    std::fprintf(stderr, "plan: %lld splits evaluated in %.3f s (%lld device shapes)\n",
                 static_cast<long long>(r.enumerated), r.seconds,
                 static_cast<long long>(r.device_shapes));
    emit(a.out, report::render_plan_infer(c, hw, o, r, output_format(a.out), a.top));
    return draw(a, [&](const auto &paths, auto kind) {
      return report::plan_infer_plot(c, r, paths, kind);
    });
  }
  llm::PlanOptions o;
  o.gpus = a.gpus;
  o.global_batch = a.global_batch;
  o.seq = a.seq;
  o.max_microbatch = a.max_microbatch;
  o.max_interleave = a.max_interleave;
  o.threads = a.threads;
  o.dtype = plan_dtype(a.dtype, "--dtype");
  o.attention = attention;
  if (!a.recompute.empty())
    o.recompute = {*llm::parse_recompute(a.recompute)};
  o.calibration = cal ? &*cal : nullptr;
  o.comm = comm ? &*comm : nullptr;
  const llm::PlanResult r = llm::plan_training(c, hw, o);
  std::fprintf(stderr, "plan: %lld splits evaluated in %.3f s\n",
               static_cast<long long>(r.enumerated), r.seconds);
  emit(a.out, report::render_plan(c, hw, o, r, output_format(a.out), a.top));
  return draw(a,
              [&](const auto &paths, auto kind) { return report::plan_plot(c, r, paths, kind); });
}

} // namespace

void register_plan(CLI::App &app, Runner &run) {
  auto a = std::make_shared<PlanArgs>();
  CLI::App *cmd = app.add_subcommand(
      "plan", "Search the tensor / pipeline / data / expert splits of a training run (or of a "
              "serving deployment) over many GPUs: drop those that do not fit, rank the rest by "
              "step time (or tokens/s per GPU)");
  cmd->footer("--pass train (default) takes --global-batch and --seq; --pass infer takes --batch\n"
              "(sequences in flight on all the GPUs), --prompt and --generate, and ranks the\n"
              "(tp, pp, ep, dp) splits by tokens/s per GPU with each one's TTFT and TPOT.\n"
              "Examples:\n"
              "  perfmodel plan --model gpt3-175b.json --hw a100 --gpus 64 --global-batch 64\n"
              "  perfmodel plan --model llama-3-70b --hw h100 --gpus 64 --global-batch 1024 "
              "--seq 4096 --format csv -o plan.csv --plot plan.svg\n"
              "  perfmodel plan --model llama-3-70b --hw h100 --gpus 8 --pass infer --prompt 2048 "
              "--generate 256 --batch 32");
  cmd->add_option("--model", a->model,
                  "A HuggingFace config.json, or a name in models/llm/ (llama-3-8b, ...)")
      ->required();
  cmd->add_option("--hw", a->hw,
                  "Hardware: a .yaml path or a name in hw_specs/ (with an "
                  "interconnect section)")
      ->required();
  cmd->add_option("--gpus", a->gpus,
                  "Devices: tp x pp x dp of every split (infer: tp x pp x ep x dp)")
      ->check(positive(true))
      ->required();
  cmd->add_option("--global-batch", a->global_batch,
                  "--pass train (required): sequences per training step")
      ->check(positive(true));
  cmd->add_option("--pass", a->pass,
                  "train (training splits, ranked by step time) or infer (serving splits, "
                  "ranked by tokens/s per GPU)")
      ->check(CLI::IsMember({"train", "infer"}))
      ->capture_default_str();
  cmd->add_option("--batch", a->batch,
                  "--pass infer (required): sequences in flight on all the GPUs together")
      ->check(positive(true));
  cmd->add_option("--prompt", a->prompt, "--pass infer (required): prompt tokens per sequence")
      ->check(positive(true));
  cmd->add_option("--generate", a->generate, "--pass infer (required): output tokens per sequence")
      ->check(positive(true));
  cmd->add_option("--kv-dtype", a->kv_dtype,
                  "--pass infer: data type of the KV cache (default: --dtype)");
  cmd->add_option("--seq", a->seq, "--pass train: tokens per sequence")
      ->check(positive(true))
      ->capture_default_str();
  cmd->add_option("--dtype", a->dtype, "Data type of weights and math")->capture_default_str();
  cmd->add_option("--attention", a->attention, "flash or eager (eager stores the scores)")
      ->check(CLI::IsMember({"flash", "eager"}))
      ->capture_default_str();
  cmd->add_option(
         "--recompute", a->recompute,
         "--pass train: search only this recompute mode (none, selective, full; default: all)")
      ->check(CLI::IsMember({"none", "selective", "full"}));
  cmd->add_option("--max-microbatch", a->max_microbatch,
                  "--pass train: largest microbatch searched")
      ->capture_default_str()
      ->check(CLI::Range(int64_t(1), int64_t(1) << 20));
  cmd->add_option("--max-interleave", a->max_interleave,
                  "--pass train: most virtual pipeline stages per device searched")
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
                  "Draw the frontier to FILE.svg|png|pdf: tokens/s per device against memory "
                  "(train) or against TPOT (infer)");
  cmd->add_flag("--keep-script", a->keep_script,
                "Keep the plot's gnuplot script (.gp) and data (.dat) beside the image");
  add_output_options(cmd, a->out);
  cmd->callback([a, cmd, &run] {
    for (const char *opt : {"--global-batch", "--seq", "--recompute", "--max-microbatch",
                            "--max-interleave", "--batch", "--prompt", "--generate", "--kv-dtype"})
      if (cmd->count(opt) > 0)
        a->given.push_back(opt);
    run = [a] { return run_plan(*a); };
  });
}

} // namespace perfmodel::cli
