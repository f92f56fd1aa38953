// `perfmodel llm` on many devices (cli/llm_parallel.hpp).
#include "cli/arg_checks.hpp"
#include "cli/llm_parallel.hpp"

#include "perfmodel/io/comm_calibration_yaml.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/parallel_train.hpp"
#include "perfmodel/report/parallel_view.hpp"

namespace perfmodel::cli {

bool LlmParallelArgs::engaged() const {
  return pass == "train" || tp > 1 || pp > 1 || dp > 1 || ep > 1 || gpus > 0 || sequence_parallel ||
         interleave > 1 || !comm_calibration.empty();
}

void add_llm_parallel_options(CLI::App *cmd, LlmParallelArgs &a) {
  cmd->add_option("--pass", a.pass, "infer (serve a batch) or train (one training step)")
      ->check(CLI::IsMember({"infer", "train"}))
      ->capture_default_str();
  cmd->add_option("--tp", a.tp, "Tensor-parallel devices (Megatron: heads, MLP, vocabulary)")
      ->check(positive(true));
  cmd->add_option("--pp", a.pp, "Pipeline stages (layers split evenly)")->check(positive(true));
  cmd->add_option("--ep", a.ep, "Expert-parallel devices (MoE: experts split, all-to-all)")
      ->check(positive(true));
  cmd->add_option("--dp", a.dp, "Data-parallel replicas (train)")->check(positive(true));
  cmd->add_option("--gpus", a.gpus,
                  "Devices in all: must equal tp x pp x dp (train) or "
                  "tp x pp x ep (infer); checked when given")
      ->check(positive(true));
  cmd->add_flag("--sequence-parallel", a.sequence_parallel,
                "Split norms and dropouts along the sequence over tp (reduce-scatter + "
                "all-gather instead of all-reduce)");
  cmd->add_flag("--overlap-grad-reduce", a.overlap_grad_reduce,
                "Train: the dp gradient reduction overlaps the last microbatch's backward pass "
                "(Megatron-LM's flag; default: all communication exposed)");
  cmd->add_option("--interleave", a.interleave,
                  "Virtual pipeline stages per device (interleaved 1F1B; train)")
      ->check(positive(true));
  cmd->add_option("--global-batch", a.global_batch, "Sequences per training step (train)")
      ->check(positive(true));
  cmd->add_option("--microbatch", a.microbatch, "Sequences per microbatch (train)")
      ->check(positive(true))
      ->capture_default_str();
  cmd->add_option("--seq", a.seq, "Tokens per training sequence (train)")
      ->check(positive(true))
      ->capture_default_str();
  cmd->add_option("--recompute", a.recompute, "Activation recomputation: none, selective, full")
      ->check(CLI::IsMember({"none", "selective", "full"}))
      ->capture_default_str();
  cmd->add_option("--zero", a.zero,
                  "ZeRO stage: 0, 1 (optimizer), 2 (+ gradients), 3 (+ "
                  "weights) sharded over dp")
      ->check(between(0, 3))
      ->capture_default_str();
  cmd->add_option("--comm-calibration", a.comm_calibration,
                  "Collective figures fitted by calibrate --from-nccl-tests");
}

namespace {

DType dtype_of(const std::string &name, const char *option) {
  const auto d = parse_dtype(name);
  if (!d)
    throw InputError(std::string(option) + ": unknown data type '" + name + "'");
  return *d;
}

void check_gpus(const LlmParallelArgs &a, bool training) {
  const int64_t third = training ? a.dp : a.ep;
  const int64_t devices = a.tp * a.pp * third;
  if (a.gpus > 0 && a.gpus != devices)
    throw InputError("--gpus " + std::to_string(a.gpus) + " is not --tp x --pp x " +
                     (training ? "--dp" : "--ep") + " (" + std::to_string(a.tp) + " x " +
                     std::to_string(a.pp) + " x " + std::to_string(third) + " = " +
                     std::to_string(devices) + ")");
}

} // namespace

std::optional<CommCalibration> load_comm_calibration_for(const std::string &path,
                                                         const HwSpec &hw) {
  if (path.empty())
    return std::nullopt;
  CommCalibration comm = io::read_comm_calibration_yaml(path);
  if (comm.hw != hw.name)
    throw InputError("--comm-calibration " + path + " was fitted on '" + comm.hw +
                     "', not on --hw " + hw.name);
  return comm;
}

int run_llm_parallel(const LlmCommon &c, const LlmParallelArgs &a) {
  const HwSpec hw = io::load_hw(c.hw);
  const llm::LlmConfig cfg = llm::read_llm_config(llm::resolve_llm_config(c.model));
  std::optional<Calibration> cal;
  if (!c.calibration.empty())
    cal = load_calibration_for(c.calibration, hw, c.calibration_other_hardware);
  const std::optional<CommCalibration> comm = load_comm_calibration_for(a.comm_calibration, hw);
  llm::ParallelSplit s;
  s.tp = a.tp;
  s.pp = a.pp;
  s.dp = a.dp;
  s.ep = a.ep;
  s.interleave = a.interleave;
  s.sequence_parallel = a.sequence_parallel;
  const llm::Attention attention =
      c.attention == "eager" ? llm::Attention::eager : llm::Attention::flash;
  if (a.pass == "train") {
    if (a.global_batch < 1)
      throw InputError("--pass train needs --global-batch (sequences per step)");
    check_gpus(a, true);
    llm::TrainOptions o;
    o.split = s;
    o.global_batch = a.global_batch;
    o.microbatch = a.microbatch;
    o.seq = a.seq;
    o.recompute = *llm::parse_recompute(a.recompute);
    o.zero = a.zero;
    o.overlap_grad_reduce = a.overlap_grad_reduce;
    o.dtype = dtype_of(c.dtype, "--dtype");
    o.attention = attention;
    o.calibration = cal ? &*cal : nullptr;
    o.comm = comm ? &*comm : nullptr;
    const llm::TrainResult r = llm::train_parallel(cfg, hw, o);
    emit(c.out, report::render_parallel_train(cfg, hw, r, output_format(c.out)));
    return 0;
  }
  if (c.prompt < 1 || c.generate < 1)
    throw InputError("--pass infer needs --prompt and --generate (at least 1)");
  if (a.overlap_grad_reduce)
    throw InputError("--overlap-grad-reduce: applies to --pass train (serving has no gradients)");
  check_gpus(a, false);
  llm::ParallelServeOptions o;
  o.serve.batch = c.batch;
  o.serve.prompt = c.prompt;
  o.serve.generate = c.generate;
  o.serve.dtype = dtype_of(c.dtype, "--dtype");
  if (!c.kv_dtype.empty())
    o.serve.kv_dtype = dtype_of(c.kv_dtype, "--kv-dtype");
  o.serve.attention = attention;
  o.serve.calibration = cal ? &*cal : nullptr;
  o.serve.calibration_name = c.calibration;
  o.serve.layer_tables = false; // the view shows the figures only
  o.split = s;
  o.comm = comm ? &*comm : nullptr;
  o.comm_name = a.comm_calibration;
  const llm::ParallelServeResult r = llm::serve_parallel(cfg, hw, o);
  emit(c.out, report::render_parallel_serve(cfg, hw, r, output_format(c.out)));
  return 0;
}

} // namespace perfmodel::cli
