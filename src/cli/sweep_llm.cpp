// `perfmodel sweep` of a language model (cli/sweep_llm.hpp).
#include "cli/sweep_llm.hpp"

#include <cstdio>

#include "cli/arg_checks.hpp"
#include "cli/llm_options.hpp"
#include "perfmodel/app/commands.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/config.hpp"
#include "perfmodel/name_choice.hpp"
#include "perfmodel/report/llm_sweep_view.hpp"
#include "perfmodel/report/plot/llm_sweep_plot.hpp"
#include "perfmodel/report/plot/render.hpp"
#include "perfmodel/sweep.hpp"

namespace perfmodel::cli {

bool SweepLlmArgs::given() const {
  return !prompt.empty() || !generate.empty() || !tp.empty() || !pp.empty() || !gpus.empty() ||
         !kv_dtype.empty() || !attention.empty() || !weight_dtype.empty() ||
         !comm_calibration.empty() || group_size.has_value();
}

void add_sweep_llm_options(CLI::App *cmd, SweepLlmArgs &a) {
  const std::string g = "Language models (--model a config.json or a name in models/llm/)";
  cmd->add_option("--prompt", a.prompt, "Prompt tokens per request, an axis as --batch")->group(g);
  cmd->add_option("--generate", a.generate,
                  "Output tokens per request (the first from the prefill), an axis as --batch")
      ->group(g);
  cmd->add_option("--tp", a.tp, "Tensor-parallel devices, an axis (default 1)")->group(g);
  cmd->add_option("--pp", a.pp, "Pipeline stages, an axis (default 1)")->group(g);
  cmd->add_option("--gpus", a.gpus,
                  "Device counts, an axis: each with the --tp x --pp pairs of that product "
                  "(every divisor when --tp or --pp is not given)")
      ->group(g);
  cmd->add_option("--kv-dtype", a.kv_dtype, "Data type of the KV cache (default: each --dtype)")
      ->group(g);
  cmd->add_option("--attention", a.attention,
                  "flash (default: no score matrix in memory, masked pairs skipped) or eager")
      ->check(CLI::IsMember({"flash", "eager"}))
      ->group(g);
  cmd->add_option("--weight-dtype", a.weight_dtype,
                  "Storage of the decoder blocks' weight matrices: fp16, bf16, fp8, int8 or int4 "
                  "(one device only)")
      ->group(g);
  cmd->add_option("--group-size", a.group_size,
                  "int8 and int4 weights: weights per fp16 scale along each row (default 128)")
      ->check(positive(true))
      ->group(g);
  cmd->add_option("--comm-calibration", a.comm_calibration,
                  "Collective figures fitted by calibrate --from-nccl-tests (--tp, --pp above 1)")
      ->group(g);
}

bool names_llm_config(const std::string &model) {
  const auto ends_with = [&](const std::string &ext) {
    return model.size() >= ext.size() &&
           std::equal(ext.rbegin(), ext.rend(), model.rbegin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  };
  if (ends_with(".json"))
    return true;
  if (model.find('/') != std::string::npos || ends_with(".yaml") || ends_with(".yml") ||
      ends_with(".onnx"))
    return false;
  try {
    llm::resolve_llm_config(model);
    return true;
  } catch (const InputError &) {
    return false;
  }
}

namespace {

// An axis whose values must all be at least 1 ("" = `fallback`).
std::vector<int64_t> counts(const std::string &text, const char *option, const char *what,
                            std::vector<int64_t> fallback = {}) {
  if (text.empty())
    return fallback;
  std::vector<int64_t> v = parse_int_axis(text, option);
  for (int64_t x : v)
    if (x < 1)
      throw InputError(std::string(option) + ": " + std::to_string(x) + " is not " + what +
                       " (each value at least 1)");
  return v;
}

DType dtype_named(const std::string &name, const char *option) {
  const auto canonical = canonical_name(dtype_choices(), name);
  if (!canonical)
    throw InputError(std::string(option) + ": " +
                     unknown_name_message("data type", dtype_choices(), name));
  return *parse_dtype(*canonical);
}

} // namespace

int run_sweep_llm(const SweepCommon &c, const SweepLlmArgs &a) {
  if (!names_llm_config(c.model))
    throw InputError("--model " + c.model +
                     " is not a language model (a config.json or a name in models/llm/): "
                     "--prompt, --generate, --tp, --pp, --gpus, --kv-dtype, --attention, "
                     "--weight-dtype, --group-size and --comm-calibration sweep one");
  if (a.prompt.empty() || a.generate.empty())
    throw InputError("the sweep of a language model needs --prompt and --generate (lists or "
                     "ranges, as --batch)");
  if (const auto pass = parse_pass(c.pass); !pass || *pass != Pass::fwd)
    throw InputError("--pass: the sweep of a language model serves requests (prefill and "
                     "decode); a training step is llm --pass train");
  if (c.fusion != "none")
    throw InputError("--fusion: a language model's passes are predicted unfused (none)");
  if (!c.dims.empty())
    throw InputError("--dim: sets a symbolic dimension of an ONNX model, not of a language model");
  auto kind = report::plot::image_kind(c.plot);
  app::LlmSweepRequest req;
  req.model = c.model;
  for (const std::string &name : parse_list_axis(c.hw, "--hw"))
    req.spec.hardware.push_back(io::load_hw(name));
  req.spec.batches = parse_int_axis(c.batch, "--batch"); // below 1: skipped, as in every sweep
  req.spec.prompts = counts(a.prompt, "--prompt", "a prompt length");
  req.spec.generates = counts(a.generate, "--generate", "a number of output tokens");
  req.spec.tps = counts(a.tp, "--tp", "a device count");
  req.spec.pps = counts(a.pp, "--pp", "a device count");
  req.spec.gpus = counts(a.gpus, "--gpus", "a device count");
  req.spec.dtypes.clear();
  for (const std::string &d : parse_list_axis(c.dtype.empty() ? "fp16" : c.dtype, "--dtype"))
    req.spec.dtypes.push_back(dtype_named(d, "--dtype"));
  if (!a.kv_dtype.empty())
    req.spec.serve.kv_dtype = dtype_named(a.kv_dtype, "--kv-dtype");
  req.spec.serve.weights = weight_format(a.weight_dtype, a.group_size);
  req.spec.serve.attention = a.attention == "eager" ? llm::Attention::eager : llm::Attention::flash;
  req.calibration = c.calibration;
  req.calibration_other_hardware = c.calibration_other_hardware;
  req.comm_calibration = a.comm_calibration;
  req.sort = c.sort;
  req.keep_axes_order = kind.has_value(); // the plot draws the axes' order
  const app::LlmSweepRun run = app::llm_sweep(std::move(req));
  const auto emit_sweep = [&] {
    io::OutputFile out(c.out.output.empty() ? "-" : c.out.output);
    report::write_llm_sweep(run.shown(), output_format(c.out),
                            [&](std::string_view s) { out.write(s); });
    out.commit();
  };
  if (kind) {
    const auto paths = report::plot::plot_paths(c.plot);
    const auto plot = report::plot::llm_sweep_plot(run.result, paths, *kind);
    if (c.print_script) {
      std::printf("# ---- %s ----\n%s# ---- %s ----\n%s", paths.script_name.c_str(),
                  plot.script.c_str(), paths.data_name.c_str(), plot.data.c_str());
      return 0;
    }
    emit_sweep();
    auto outcome = report::plot::render_plot(paths, plot, c.keep_script);
    std::fprintf(stderr, "perfmodel: %s\n", outcome.message.c_str());
    return outcome.rendered ? 0 : 1;
  }
  emit_sweep();
  return 0;
}

} // namespace perfmodel::cli
