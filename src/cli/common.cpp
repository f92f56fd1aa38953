// Shared CLI options: output format and file, model loading options.
#include "cli/common.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>

#include "cli/arg_checks.hpp"

#include "perfmodel/error.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/resources.hpp"

namespace perfmodel::cli {

void add_output_options(CLI::App *cmd, OutputOptions &o, bool output_is_formatted) {
  o.output_is_formatted = output_is_formatted;
  cmd->add_option("--format", o.format,
                  output_is_formatted
                      ? "Output format: table (text, txt), csv, json or md (markdown); default: "
                        "from -o's extension (.txt, .csv, .json, .md), else table"
                      : "Output format: table (text, txt), csv, json or md (markdown)")
      ->transform(one_of("format", format_choices()))
      ->default_str("table");
  cmd->add_option("-o,--output", o.output,
                  "Write to FILE (atomically: a failed run leaves an earlier file intact)");
  // A conflicting --format and -o extension is an input error before anything runs.
  cmd->parse_complete_callback([&o] { output_format(o); });
}

std::string format_of_extension(const std::string &path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return "";
  std::string ext = path.substr(dot + 1);
  for (char &c : ext)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "txt")
    return "table";
  if (ext == "markdown")
    return "md";
  return ext == "csv" || ext == "json" || ext == "md" ? ext : "";
}

report::Format output_format(const OutputOptions &o) {
  const std::string by_ext = o.output_is_formatted ? format_of_extension(o.output) : "";
  const std::string name = o.format.empty()
                               ? (by_ext.empty() ? "table" : by_ext)
                               : canonical_name(format_choices(), o.format).value_or("");
  if (name.empty())
    throw InputError("--format: " + unknown_name_message("format", format_choices(), o.format));
  if (!by_ext.empty() && by_ext != name)
    throw InputError("--format " + o.format + " conflicts with -o " + o.output +
                     " (a file named so gets --format " + by_ext +
                     "): drop --format or rename the file");
  return *report::parse_format(name);
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
        ->check(positive(true));
  cmd->add_option("--dtype", o.dtype,
                  "Data type: fp32 (float32, float), fp16 (float16, half), bf16 (bfloat16), tf32, "
                  "fp8, int8, fp64 (float64, double); any case")
      ->transform(one_of("data type", dtype_choices()));
  cmd->add_option("--dim", o.dims, "Set a symbolic ONNX dimension: --dim seq=128 (repeatable)");
}

io::ModelLoadOptions load_options(const ModelOptions &o) {
  io::ModelLoadOptions lo;
  lo.batch = o.batch;
  if (!o.dtype.empty()) {
    const auto name = canonical_name(dtype_choices(), o.dtype);
    if (!name)
      throw InputError("--dtype: " + unknown_name_message("data type", dtype_choices(), o.dtype));
    lo.dtype = *parse_dtype(*name);
  }
  for (const auto &kv : o.dims) {
    const auto eq = kv.find('=');
    long long v = 0;
    const char *end = kv.c_str() + kv.size();
    const auto parsed = eq == std::string::npos ? std::from_chars(end, end, v)
                                                : std::from_chars(kv.c_str() + eq + 1, end, v);
    if (eq == std::string::npos || eq == 0 || parsed.ec != std::errc() || parsed.ptr != end ||
        v <= 0 || double(v) > kMaxIntOption)
      throw InputError("--dim expects name=N with a whole N from 1 to " +
                       std::to_string(int64_t(kMaxIntOption)) + ", got '" + kv + "'");
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
