// `perfmodel calibrate`: fits the efficiency model to microbenchmarks, a measurement CSV or saved
// samples, and writes the calibration YAML (or its fit summary).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <string>
#include <unistd.h>

#include "cli/arg_checks.hpp"
#include "cli/calibrate_args.hpp"
#include "cli/calibrate_nccl.hpp"
#include "cli/commands.hpp"
#include "perfmodel/calibrate/calibration_networks.hpp"
#include "perfmodel/calibrate/fingerprint.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/kernel_graph.hpp"
#include "perfmodel/calibrate/samples_csv.hpp"
#include "perfmodel/calibrate/trace_samples.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/host_hw.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/measurements_csv.hpp"
#include "perfmodel/policy/measurement_policy.hpp"
#include "perfmodel/report/calibration_view.hpp"
#include "perfmodel/targets/registry.hpp"
#include "perfmodel/trace/read_trace.hpp"

namespace perfmodel::cli {

namespace {

bool yaml_path(const std::string &path) {
  auto ends = [&](const std::string &ext) {
    if (path.size() < ext.size())
      return false;
    for (size_t i = 0; i < ext.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(path[path.size() - ext.size() + i])) != ext[i])
        return false;
    return true;
  };
  return ends(".yaml") || ends(".yml");
}

// --format, else what -o's extension names (.yaml or .yml: the calibration), else yaml. A
// --format that contradicts the extension is an input error.
std::string calibrate_format(const std::string &format, const std::string &output) {
  const std::string by_ext = format_of_extension(output);
  if (format.empty())
    return by_ext.empty() ? "yaml" : by_ext;
  if (format == "yaml" && !by_ext.empty())
    throw InputError("--format yaml conflicts with -o " + output + " (a file named so gets " +
                     "--format " + by_ext + "): drop --format or rename the file");
  if (format != "yaml" && yaml_path(output))
    throw InputError("--format " + format + " conflicts with -o " + output +
                     " (a .yaml file gets the calibration, --format yaml): drop --format or "
                     "rename the file");
  if (format != "yaml")
    output_format(OutputOptions{format, output}); // the same check against .csv, .json, ...
  return format;
}

// A finding (a fitted class, a parameter on its bound, the held-out report): always printed.
void finding_line(const std::string &s) { std::fprintf(stderr, "calibrate: %s\n", s.c_str()); }

int run_calibrate(const CalibrateArgs &a) {
  set_calibrate_progress(a.progress || ::isatty(STDERR_FILENO));
  const int sources = !a.device.empty() + !a.measurements.empty() + !a.samples.empty() +
                      !a.traces.empty() + !a.nccl.file.empty();
  if (sources != 1)
    throw InputError("calibrate needs exactly one of --device, --from-measurements, "
                     "--from-samples, --from-trace, --from-nccl-tests");
  if (!a.nccl.file.empty()) {
    NcclCalibrateArgs n = a.nccl;
    n.hw = a.hw;
    n.output = a.output;
    return run_calibrate_nccl(n);
  }
  if (!a.device.empty() && a.device != "cpu" && a.device != "cuda")
    throw InputError("--device '" + a.device + "': expected cpu or cuda");
  if (a.device == "cuda" && a.hw.empty())
    throw InputError("--device cuda needs --hw naming the GPU's hardware spec (e.g. --hw a100)");
  if (a.hw.empty() && a.device.empty())
    throw InputError("--hw is needed with --from-measurements, --from-samples and --from-trace");
  if (a.recount && a.samples.empty())
    throw InputError("--recount-networks applies to --from-samples only");
  if (a.device != "cpu" && (!a.save_runs.empty() || a.probe_interval >= 0))
    throw InputError("--save-runs and --probe-interval apply to --device cpu only");
  if (a.device != "cpu" && a.attempts != policy::CalibrationRetryPolicy{}.attempts)
    throw InputError("--attempts applies to --device cpu only");
  const auto cpu_id = io::this_cpu_id();
  const HwSpec hw = io::load_hw_or_for_cpu(a.hw, cpu_id);
  if (a.device == "cpu")
    if (const std::string w = io::cpu_mismatch(hw, cpu_id); !w.empty())
      std::fprintf(stderr, "calibrate: warning: %s: the calibration refines that CPU's spec\n",
                   w.c_str());

  Calibration meta;
  std::vector<calibrate::Sample> samples;
  if (!a.device.empty()) {
    samples = a.device == "cuda" ? gpu_microbenchmark_samples(a, meta)
                                 : microbenchmark_samples(a, hw, meta);
  } else if (!a.measurements.empty()) {
    for (const auto &row : io::read_measurements_csv(a.measurements))
      if (row.seconds)
        samples.push_back(calibrate::kernel_sample(row));
    meta.source = "measurements:" + a.measurements;
    meta.device = DeviceFingerprint{hw.kind, hw.name, hw.units, "", std::nullopt};
  } else if (!a.traces.empty()) { // the traces' modelled operators (docs/trace.md)
    // Each trace's operator signatures are samples of their own: a signature in two traces
    // (two runs of one workload) gives two samples, each with its run's median.
    for (const std::string &file : a.traces) {
      const trace::Trace t = io::read_trace(file);
      const trace::Links links = trace::link_events(t);
      const trace::OpTree tree = trace::build_op_tree(t, links);
      const std::vector<calibrate::Sample> more =
          calibrate::samples_from_attainment(trace::attainment_view(t, links, tree, hw), file);
      if (more.empty())
        throw InputError(SourceLoc{file},
                         "no timed samples to fit: no operator of the trace is modelled");
      samples.insert(samples.end(), more.begin(), more.end());
      meta.source += (meta.source.empty() ? "trace:" : ", trace:") + file;
    }
    meta.device = DeviceFingerprint{hw.kind, hw.name, hw.units, "", std::nullopt};
  } else {
    samples = calibrate::read_samples_csv(a.samples);
    // Timed on the spec's cores, as calibrate --device cpu times them.
    if (a.recount)
      samples = calibrate::recount_network_samples(samples, std::max(1, hw.units),
                                                   calibrate::cache_bytes_for(hw));
    meta.source = "samples:" + a.samples;
    meta.device = DeviceFingerprint{hw.kind, hw.name, hw.units, "", std::nullopt};
  }
  if (samples.empty()) { // located at the input that gave none
    if (!a.measurements.empty())
      throw InputError(SourceLoc{a.measurements},
                       "no timed samples to fit: no row has a 'seconds' value");
    if (!a.samples.empty())
      throw InputError(SourceLoc{a.samples}, "no timed samples to fit: the file has no rows");
    if (!a.traces.empty())
      throw InputError(SourceLoc{a.traces[0]},
                       "no timed samples to fit: no operator of the trace is modelled");
    throw InputError("no timed samples to fit: the microbenchmarks gave none");
  }
  if (!a.save_samples.empty())
    io::write_file_atomic(a.save_samples, calibrate::write_samples_csv(samples));

  calibrate::FitOptions fo = calibrate::fit_options_for(hw);
  if (!a.target.empty()) {
    fo.target = targets::find(a.target);
    if (!fo.target)
      throw InputError("--target: unknown execution target '" + a.target + "' (" +
                       targets::names() + ")");
  }
  // Microbenchmarks ran on the device's threads / SMs (calibrate --threads), which is what the
  // GEMM tiles are spread over, whatever the spec's unit count.
  if (!a.device.empty())
    fo.cores = std::max(1, meta.device.cores);
  // One thread's cross-core read rate: the probe reads with every thread at once.
  if (meta.host_state && meta.host_state->cross_core_bytes_per_second > 0)
    fo.given_term_rates["cross_core_bytes_per_second"] =
        meta.host_state->cross_core_bytes_per_second / fo.cores;
  fo.loss = a.loss;
  fo.loss_scale = a.loss_scale;
  // The fit's lines are printed once the calibration is known to be written, so that a fit
  // that fails leaves its error alone on stderr.
  std::vector<std::string> fit_lines;
  fo.progress = [&fit_lines](const std::string &line) { fit_lines.push_back(line); };
  Calibration cal = calibrate::fit_calibration(calibrate::fitted_samples(samples), fo);
  if (cal.classes.empty()) {
    std::string why;
    for (const std::string &line : fit_lines)
      why += (why.empty() ? " (" : "; ") + line;
    const std::string from = !a.measurements.empty() ? a.measurements
                             : !a.traces.empty()     ? a.traces[0]
                                                     : a.samples;
    throw InputError(SourceLoc{from},
                     "no op class had enough samples to fit" + why + (why.empty() ? "" : ")"));
  }
  cal.device = meta.device;
  cal.source = meta.source;
  cal.host_state = meta.host_state;
  cal.pass_excess = meta.pass_excess;
  cal.date = calibrate::utc_now_iso8601();
  cal.perfmodel_version = PERFMODEL_VERSION;
  cal.hardware = hw.name;
  // A fit never writes a calibration its reader refuses: the calibration is read back first, and
  // one whose figures fall outside the accepted ranges (docs/formats.md, "Ranges") is an error
  // naming the data it was fitted from (extreme times give extreme rates), not a written file.
  try {
    io::parse_calibration_yaml(io::write_calibration_yaml(cal), "the fitted calibration");
  } catch (const InputError &e) {
    const std::string from = !a.measurements.empty() ? a.measurements
                             : !a.traces.empty()     ? a.traces[0]
                                                     : a.samples;
    const std::string why = "the fit gives a calibration outside the accepted ranges (" +
                            e.message() + "); nothing written";
    if (from.empty())
      throw RuntimeFailure(why);
    throw InputError(SourceLoc{from}, why);
  }
  for (const std::string &line : fit_lines)
    finding_line(line);
  if (!a.residuals.empty())
    io::write_file_atomic(a.residuals, calibrate::write_residuals_csv(cal, samples));
  std::fprintf(stderr, "calibrate: %d samples, %zu classes, MAPE %.2f%%, RMS log error %.3f\n",
               cal.stats.samples, cal.classes.size(), 100 * cal.stats.mape,
               cal.stats.rms_log_error);
  for (const std::string &line : calibrate::held_out_report(cal, samples))
    finding_line(line);

  OutputOptions out{a.format == "yaml" ? "table" : a.format, a.output};
  const std::string text = a.format == "yaml" ? io::write_calibration_yaml(cal)
                                              : report::render_calibration(cal, output_format(out));
  emit(out, text);
  return 0;
}

} // namespace

void register_calibrate(CLI::App &app, Runner &run) {
  auto a = std::make_shared<CalibrateArgs>();
  CLI::App *cmd = app.add_subcommand(
      "calibrate", "Fit the efficiency model (Ceres) and write a calibration file");
  cmd->footer(
      "The calibration YAML goes to -o FILE (or stdout); --format table|csv|json|md prints the\n"
      "fit summary instead. The fit's findings go to stderr; the measurements' progress too on a\n"
      "terminal or with --progress.\n\n"
      "Examples:\n"
      "  perfmodel calibrate --device cpu --quick -o calibration/mycpu.yaml\n"
      "  perfmodel calibrate --device cuda --hw a100 --quick -o calibration/a100.yaml\n"
      "  perfmodel calibrate --from-measurements runs.csv --hw v100 -o calibration/v100.yaml\n"
      "  perfmodel calibrate --device cpu --save-samples samples.csv -o cal.yaml\n"
      "  perfmodel calibrate --from-samples samples.csv --hw zen3-2c --format table\n"
      "  perfmodel calibrate --from-trace run.pt.trace.json.gz --hw v100 -o v100-trace.yaml\n"
      "  perfmodel calibrate --from-nccl-tests all_reduce.txt --hw h100 --gpus 8 -o nccl-h100.yaml");
  cmd->add_option("--device", a->device,
                  "Measure this device with microbenchmarks: cpu or cuda (GPU 0)");
  cmd->add_option("--from-measurements", a->measurements,
                  "Fit a measurement CSV (op,dtype,pass,m,n,k,...,seconds)");
  cmd->add_option("--from-samples", a->samples, "Fit samples saved by --save-samples");
  cmd->add_option("--from-trace", a->traces,
                  "Fit the operators of PyTorch profiler traces (perfmodel trace --view "
                  "attainment): one or more files, each signature of each trace one sample");
  cmd->add_option("--from-nccl-tests", a->nccl.file,
                  "Fit collective latency and bus bandwidth to nccl-tests output (with --gpus; "
                  "docs/parallel.md)");
  cmd->add_option("--gpus", a->nccl.gpus, "--from-nccl-tests: the GPUs the runs used")
      ->check(positive(true));
  cmd->add_option("--collective", a->nccl.collective,
                  "--from-nccl-tests: the collective of runs that do not name theirs");
  cmd->add_option("--hw", a->hw,
                  "Hardware spec the calibration refines (memory levels, cores; with --device cpu "
                  "the default is the shipped spec whose cpu_id is this CPU's)");
  cmd->add_flag("--quick", a->quick, "Run the short microbenchmark plan (<= 30 s)");
  cmd->add_flag("--no-networks", a->no_networks,
                "--device cpu: fit the isolated kernel microbenchmarks only, without the layers "
                "of the calibration networks");
  cmd->add_flag("--progress", a->progress,
                "--device: print the measurements' progress on stderr also when it is not a "
                "terminal (on a terminal it always is)");
  cmd->add_flag("--recount-networks", a->recount,
                "--from-samples: count the calibration networks' layers again with this "
                "build's rules (their times kept), to compare a change to the counting on saved "
                "samples");
  cmd->add_option("--threads", a->threads, "Threads for the microbenchmarks (0 = all)")
      ->check(non_negative(true, 4096));
  cmd->add_option("--save-samples", a->save_samples, "Also write the fit samples as CSV");
  cmd->add_option("--save-runs", a->save_runs,
                  "--device cpu: also write every microbenchmark run (a case in a round) with the "
                  "host probes on either side of it and whether it counted, as CSV");
  cmd->add_option("--probe-interval", a->probe_interval,
                  "--device cpu: probe the convolution inside the rounds this often, in seconds "
                  "(default 0.25; 0 = between rounds only)")
      ->check(non_negative(false, 3600));
  cmd->add_option("--attempts", a->attempts,
                  "--device cpu: take the microbenchmark rounds again, up to this many times in "
                  "all, while the host's state changes during them; the first attempt in which "
                  "it held is kept, else the one that counted the largest share of its runs")
      ->check(between(1, 20))
      ->capture_default_str();
  cmd->add_option("--residuals", a->residuals,
                  "Also write every sample with its fitted prediction and error as CSV");
  cmd->add_option("--warmup", a->warmup, "Microbenchmarks: untimed runs per case (0 = plan's)")
      ->check(non_negative(true, 1000));
  cmd->add_option("--iters", a->iters,
                  "Microbenchmarks: timed runs per case, over all rounds (0 = plan's)")
      ->check(non_negative(true, 100000));
  cmd->add_option("--rounds", a->rounds,
                  "Microbenchmarks: run the plan this many times in turn, iters/rounds runs per "
                  "case each time (0 = 9, or 1 with --quick)")
      ->check(between(0, 100));
  cmd->add_option("--statistic", a->statistic,
                  "Microbenchmarks: fit the median of each case's runs, their 20th percentile "
                  "or their min (p20 or min for a machine that is not quiet)")
      ->transform(one_of("statistic", {{"median"}, {"p20"}, {"min"}}))
      ->capture_default_str();
  cmd->add_option("--loss", a->loss, "Robust loss: soft_l1, cauchy, huber or none")
      ->transform(one_of("loss", {{"soft_l1"}, {"cauchy"}, {"huber"}, {"none"}}))
      ->capture_default_str();
  cmd->add_option("--loss-scale", a->loss_scale, "Log-time residual where the loss bends")
      ->check(positive(false))
      ->capture_default_str();
  cmd->add_option("--format", a->format,
                  "Output: yaml (the calibration), table, csv, json, md; default: from -o's "
                  "extension (.yaml, .txt, .csv, .json, .md), else yaml")
      ->transform(one_of(
          "format",
          {{"yaml", {"yml"}}, {"table", {"text", "txt"}}, {"csv"}, {"json"}, {"md", {"markdown"}}}))
      ->default_str("yaml");
  cmd->add_option("--target", a->target,
                  "Execution target to fit for: generic, cpu_eigen or gpu (default: the "
                  "hardware kind's)");
  cmd->add_option("-o,--output", a->output, "Write to FILE (atomically)");
  cmd->parse_complete_callback([a] { a->format = calibrate_format(a->format, a->output); });
  cmd->callback([a, &run] { run = [a] { return run_calibrate(*a); }; });
}

} // namespace perfmodel::cli
