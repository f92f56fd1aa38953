// `perfmodel llm`: a decoder-only model from its HuggingFace config.json served on one device:
// memory, TTFT, TPOT, end-to-end time, tokens per second (docs/llm.md).
#include <memory>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "cli/llm_options.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/serve.hpp"
#include "perfmodel/report/llm_view.hpp"

namespace perfmodel::cli {

namespace {

struct LlmArgs {
  std::string model, hw, calibration, dtype = "fp16", kv_dtype, weight_dtype, attention = "flash";
  std::optional<int64_t> group_size;
  bool calibration_other_hardware = false;
  int64_t batch = 1, prompt = 0, generate = 0;
  bool per_layer = false;
  OutputOptions out;
};

int run_llm(const LlmArgs &a) {
  const HwSpec hw = io::load_hw(a.hw);
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config(a.model));
  llm::ServeOptions o;
  o.batch = a.batch;
  o.prompt = a.prompt;
  o.generate = a.generate;
  const auto dt = parse_dtype(a.dtype);
  if (!dt)
    throw InputError("--dtype: unknown data type '" + a.dtype + "'");
  o.dtype = *dt;
  if (!a.kv_dtype.empty()) {
    const auto kv = parse_dtype(a.kv_dtype);
    if (!kv)
      throw InputError("--kv-dtype: unknown data type '" + a.kv_dtype + "'");
    o.kv_dtype = *kv;
  }
  o.weights = weight_format(a.weight_dtype, a.group_size);
  o.attention = a.attention == "eager" ? llm::Attention::eager : llm::Attention::flash;
  std::optional<Calibration> cal;
  if (!a.calibration.empty())
    cal = load_calibration_for(a.calibration, hw, a.calibration_other_hardware);
  o.calibration = cal ? &*cal : nullptr;
  o.calibration_name = a.calibration;
  const llm::ServeResult r = llm::serve(c, hw, o);
  emit(a.out, report::render_llm(c, hw, r, output_format(a.out), a.per_layer));
  return 0;
}

} // namespace

void register_llm(CLI::App &app, Runner &run) {
  auto a = std::make_shared<LlmArgs>();
  CLI::App *cmd = app.add_subcommand(
      "llm", "Serve a decoder-only language model (HuggingFace config.json) on a device: memory, "
             "max batch, TTFT, TPOT, tokens/s");
  cmd->footer(
      "Examples:\n"
      "  perfmodel llm --model llama-3-8b --hw h100 --batch 8 --prompt 2048 --generate 256\n"
      "  perfmodel llm --model path/to/config.json --hw h200 --prompt 512 --generate 64 "
      "--format json");
  cmd->add_option("--model", a->model,
                  "A HuggingFace config.json, or a name in models/llm/ (llama-3-8b, ...)")
      ->required();
  cmd->add_option("--hw", a->hw, "Hardware: a .yaml path or a name in hw_specs/")->required();
  cmd->add_option("--dtype", a->dtype, "Data type of the weights, activations and math")
      ->capture_default_str();
  cmd->add_option("--kv-dtype", a->kv_dtype, "Data type of the KV cache (default: --dtype)");
  add_weight_format_options(cmd, a->weight_dtype, a->group_size);
  // whole numbers from 1 (llm::serve checks the positions against the model's limit)
  cmd->add_option("--batch", a->batch, "Requests served together")
      ->check(positive(true))
      ->capture_default_str();
  cmd->add_option("--prompt", a->prompt, "Prompt tokens per request")
      ->check(positive(true))
      ->required();
  cmd->add_option("--generate", a->generate,
                  "Output tokens per request (the first from the prefill)")
      ->check(positive(true))
      ->required();
  cmd->add_option("--attention", a->attention,
                  "flash (one kernel: no score matrix in memory, masked pairs skipped) or eager")
      ->check(CLI::IsMember({"flash", "eager"}))
      ->capture_default_str();
  cmd->add_option("--calibration", a->calibration,
                  "Calibration (a .yaml path or a name in calibration/): time layers with the "
                  "fitted efficiency model instead of the roofline");
  add_other_hardware_flag(cmd, a->calibration_other_hardware);
  cmd->add_flag("--per-layer", a->per_layer,
                "Also show the layer tables of the prefill and of the last decode step");
  add_output_options(cmd, a->out);
  cmd->callback([a, &run] { run = [a] { return run_llm(*a); }; });
}

} // namespace perfmodel::cli
