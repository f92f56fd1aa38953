// Shared CLI options: output format and file, model loading options.
#include "cli/common.hpp"

#include <cstdio>

#include "perfmodel/error.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/resources.hpp"

namespace perfmodel::cli {

void add_output_options(CLI::App *cmd, OutputOptions &o) {
  cmd->add_option("--format", o.format, "Output format: table, csv, json or md")
      ->check(CLI::IsMember({"table", "csv", "json", "md"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output,
                  "Write to FILE (atomically: a failed run leaves an earlier file intact)");
}

report::Format output_format(const OutputOptions &o) {
  auto f = report::parse_format(o.format);
  if (!f)
    throw InputError("unknown --format '" + o.format + "' (table, csv, json, md)");
  return *f;
}

void emit(const OutputOptions &o, const std::string &text) {
  if (o.output.empty() || o.output == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  } else {
    io::write_file_atomic(o.output, text);
  }
}

void add_model_options(CLI::App *cmd, ModelOptions &o, bool with_batch) {
  cmd->add_option("--model,-m", o.model, "Model: a .yaml/.onnx path or a name in models/")
      ->required();
  if (with_batch)
    cmd->add_option("--batch,-b", o.batch, "Batch size (dim 0 of every input)")
        ->check(CLI::PositiveNumber);
  cmd->add_option("--dtype", o.dtype, "Data type: fp32, fp16, bf16, tf32, int8, fp64");
  cmd->add_option("--dim", o.dims, "Set a symbolic ONNX dimension: --dim seq=128 (repeatable)");
}

io::ModelLoadOptions load_options(const ModelOptions &o) {
  io::ModelLoadOptions lo;
  lo.batch = o.batch;
  if (!o.dtype.empty()) {
    auto d = parse_dtype(o.dtype);
    if (!d)
      throw InputError("unknown --dtype '" + o.dtype + "' (fp32, fp16, bf16, tf32, int8, fp64)");
    lo.dtype = *d;
  }
  for (const auto &kv : o.dims) {
    const auto eq = kv.find('=');
    long long v = 0;
    if (eq == std::string::npos || eq == 0 || std::sscanf(kv.c_str() + eq + 1, "%lld", &v) != 1 ||
        v <= 0)
      throw InputError("--dim expects name=positive_integer, got '" + kv + "'");
    lo.dims[kv.substr(0, eq)] = v;
  }
  return lo;
}

void add_fusion_option(CLI::App *cmd, std::string &fusion) {
  cmd->add_option("--fusion", fusion,
                  "none: every layer is its own kernel (eager); inference: batch norms folded "
                  "into the conv or linear before them, element-wise layers fused into the "
                  "GEMM's epilogue or into one kernel per chain, as TensorRT, ONNX Runtime and "
                  "torch.compile do (--pass fwd only; docs/ops.md)")
      ->check(CLI::IsMember({"none", "inference"}))
      ->capture_default_str();
}

Fusion fusion_mode(const std::string &fusion) {
  const auto f = parse_fusion(fusion);
  if (!f)
    throw InputError("unknown --fusion '" + fusion + "' (none or inference)");
  return *f;
}

void add_other_hardware_flag(CLI::App *cmd, bool &allow) {
  cmd->add_flag("--calibration-for-other-hardware", allow,
                "Apply --calibration although it was fitted for another hardware spec than --hw "
                "(its rates describe that hardware)");
}

Calibration load_calibration_for(const std::string &spec, const HwSpec &hw, bool other_hardware) {
  const std::string path = io::resolve_resource(spec, "calibration", {".yaml", ".yml"});
  Calibration cal = io::read_calibration_yaml(path);
  if (!other_hardware && !cal.hardware.empty() && cal.hardware != hw.name)
    throw InputError(SourceLoc{path, 0, 0},
                     "calibration fitted for hardware '" + cal.hardware + "' (target " +
                         std::string(cal.execution_target().name()) + "), not for '" + hw.name +
                         "': its rates describe that hardware; use a calibration of " + hw.name +
                         " or pass --calibration-for-other-hardware to apply it anyway");
  return cal;
}

void warn_extrapolation(const std::string &command, const std::vector<ExtrapolatedCall> &calls) {
  for (const std::string &line : extrapolation_warnings(calls))
    std::fprintf(stderr, "%s: warning: calibration extrapolates: %s\n", command.c_str(),
                 line.c_str());
}

} // namespace perfmodel::cli
