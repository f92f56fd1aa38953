// Options of language models shared by the commands that take one.
#include "cli/arg_checks.hpp"
#include "cli/llm_options.hpp"

#include "perfmodel/error.hpp"
#include "perfmodel/llm/graph.hpp"

namespace perfmodel::cli {

void add_weight_format_options(CLI::App *cmd, std::string &weight_dtype,
                               std::optional<int64_t> &group_size) {
  cmd->add_option("--weight-dtype", weight_dtype,
                  "Storage of the decoder blocks' weight matrices: fp16, bf16, fp8, int8 or int4 "
                  "(default: --dtype); the math stays at --dtype");
  cmd->add_option("--group-size", group_size,
                  "int8 and int4 weights: weights per fp16 scale along each row (default 128)")
      ->check(positive(true));
}

std::optional<llm::WeightFormat> weight_format(const std::string &weight_dtype,
                                               std::optional<int64_t> group_size) {
  if (weight_dtype.empty()) {
    if (group_size)
      throw InputError("--group-size: needs --weight-dtype int8 or int4");
    return std::nullopt;
  }
  const auto t = llm::parse_weight_type(weight_dtype);
  if (!t)
    throw InputError("--weight-dtype: unknown weight type '" + weight_dtype +
                     "' (fp32, fp16, bf16, fp8, int8, int4)");
  llm::WeightFormat f;
  f.type = *t;
  if (group_size) {
    if (*group_size < 1)
      throw InputError("--group-size must be at least 1, not " + std::to_string(*group_size));
    if (!llm::has_group_scales(*t))
      throw InputError("--group-size: " + weight_dtype +
                       " weights have no group scales (int8 and int4 have)");
    f.group_size = *group_size;
  }
  return f;
}

void add_llm_phase_options(CLI::App *cmd, LlmPhaseOptions &o) {
  cmd->add_option("--phase", o.phase,
                  "A language model's pass (--model a config.json or a name in models/llm/): "
                  "prefill (with --prompt) or decode (one step, with --kv)");
  cmd->add_option("--prompt", o.prompt, "--phase prefill: prompt tokens per sequence")
      ->check(positive(true));
  cmd->add_option("--kv", o.kv, "--phase decode: tokens already in the KV cache")
      ->check(positive(true));
}

std::optional<LlmPhasePass> llm_phase_pass(const LlmPhaseOptions &o, const ModelOptions &m,
                                           const PredictOptions &po) {
  if (o.phase.empty()) {
    if (o.prompt != 0)
      throw InputError("--prompt: needs --phase prefill (a language model's prefill)");
    if (o.kv != 0)
      throw InputError("--kv: needs --phase decode (a language model's decode step)");
    return std::nullopt;
  }
  if (o.phase != "prefill" && o.phase != "decode")
    throw InputError("--phase: unknown phase '" + o.phase + "' (prefill or decode)");
  const bool prefill = o.phase == "prefill";
  if (prefill && o.kv != 0)
    throw InputError("--kv: applies to --phase decode, not prefill");
  if (!prefill && o.prompt != 0)
    throw InputError("--prompt: applies to --phase prefill, not decode (the KV length is --kv)");
  const int64_t n = prefill ? o.prompt : o.kv;
  const std::string opt = prefill ? "--prompt" : "--kv";
  if (n == 0)
    throw InputError("--phase " + o.phase + " needs " + opt);
  if (n < 1)
    throw InputError(opt + " must be at least 1, not " + std::to_string(n));
  if (po.pass != Pass::fwd)
    throw InputError("--pass: --phase predicts a forward pass (fwd)");
  if (po.fusion != Fusion::none)
    throw InputError("--fusion: --phase predicts the layers unfused (none)");
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config(m.model));
  // prefill runs positions 0 ... P-1; the decode step at KV length L runs position L
  const int64_t last = prefill ? n - 1 : n;
  if (last + 1 > c.max_positions)
    throw InputError(opt + " " + std::to_string(n) + ": the pass runs position " +
                     std::to_string(last) + ", beyond the model's max_position_embeddings (" +
                     std::to_string(c.max_positions) + ")");
  const io::ModelLoadOptions lo = load_options(m);
  const llm::PassShape s = prefill ? llm::PassShape{llm::Phase::prefill, lo.batch.value_or(1), n, 0}
                                   : llm::PassShape{llm::Phase::decode, lo.batch.value_or(1), 1, n};
  LlmPhasePass p{llm::build_graph(c, s, lo.dtype.value_or(DType::fp16)), {}};
  p.costs = llm::pass_costs(p.graph, c, s, llm::Attention::flash);
  return p;
}

} // namespace perfmodel::cli
