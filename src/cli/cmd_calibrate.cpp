// `perfmodel calibrate`: fits the efficiency model to microbenchmarks, a measurement CSV or saved
// samples, and writes the calibration YAML (or its fit summary).
#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>
#include <unistd.h>

#include "cli/arg_checks.hpp"
#include "cli/calibrate_nccl.hpp"
#include "cli/commands.hpp"
#include "cli/cuda_backend.hpp"
#include "cli/measured_samples.hpp"
#include "perfmodel/calibrate/calibration_networks.hpp"
#include "perfmodel/calibrate/fingerprint.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/kernel_graph.hpp"
#include "perfmodel/calibrate/microbench_samples.hpp"
#include "perfmodel/calibrate/samples_csv.hpp"
#include "perfmodel/calibrate/trace_samples.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/host_hw.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/measurements_csv.hpp"
#include "perfmodel/kernels/cpu/executor.hpp"
#include "perfmodel/kernels/cpu/host_probe.hpp"
#include "perfmodel/kernels/cpu/measure_in_state.hpp"
#include "perfmodel/kernels/cpu/microbench.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/policy/measurement_policy.hpp"
#include "perfmodel/report/calibration_view.hpp"
#include "perfmodel/targets/registry.hpp"
#include "perfmodel/trace/read_trace.hpp"

namespace perfmodel::cli {

namespace {

struct CalibrateArgs {
  std::string device;
  std::string measurements;
  std::string samples;
  std::vector<std::string> traces; // --from-trace: PyTorch profiler traces (one or more)
  NcclCalibrateArgs nccl; // --from-nccl-tests (its -o and --hw are this command's)
  std::string hw;
  std::string save_samples;
  std::string residuals;      // --residuals: per-sample prediction and error
  std::string save_runs;      // --save-runs: every run of every case with the probes beside it
  double probe_interval = -1; // --probe-interval (0: between rounds only; < 0: not given)
  int attempts = policy::CalibrationRetryPolicy{}.attempts; // --attempts
  int warmup = 0, iters = 0, rounds = 0;                    // 0 = the plan's defaults
  std::string statistic = "p20"; // of each case's timed runs: median, p20 or min
  bool quick = false;
  bool no_networks = false; // --no-networks: isolated kernel microbenchmarks only
  bool recount = false;     // --recount-networks: saved network samples counted again
  bool progress = false;    // --progress: measurement progress on stderr also when not a TTY
  int threads = 0;
  std::string loss = "soft_l1";
  double loss_scale = 0.1;
  std::string format; // "" = from -o's extension (.yaml/.yml, .csv, ...), else yaml
  std::string output;
  std::string target; // --target: the execution target ("" = the hardware kind's)
};

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

// Progress of the measurements (--device): printed on a terminal or with --progress only, so
// that a run's stderr holds its findings and, when it fails, the error alone.
bool show_progress = false;

[[gnu::format(printf, 1, 2)]] void progress(const char *format, ...) {
  if (!show_progress)
    return;
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
}

// A finding (a fitted class, a parameter on its bound, the held-out report): always printed.
void finding_line(const std::string &s) { std::fprintf(stderr, "calibrate: %s\n", s.c_str()); }

// The measurement policy of this command: the defaults, with the arguments that override them.
policy::MeasurementPolicy calibrate_policy(const CalibrateArgs &a) {
  policy::MeasurementPolicy rules;
  if (a.probe_interval >= 0)
    rules.probe.round_probe_interval_seconds = a.probe_interval;
  rules.calibration.attempts = a.attempts;
  return rules;
}

// The calibration networks' layers, each timed inside the network's forward passes
// (calibrate/calibration_networks.hpp): about 2 s of passes per network, 0.5 s with --quick.
// Their whole passes go to `passes` (the pass excess is fitted on them).
// The calibration networks' passes are measured after the rounds; one whose host probes find
// the host in another state than the rounds' (`reference`, as `measure` judges a measurement
// against its calibration) is measured again, up to rules.calibration.network_attempts times in
// all, and the attempt that drifted least is kept (docs/measurement-policy.md,
// "CalibrationRetryPolicy").
std::vector<calibrate::Sample> network_samples(const CalibrateArgs &a, const HwSpec &hw,
                                               TimeStatistic stat,
                                               const std::optional<HostState> &reference,
                                               const policy::MeasurementPolicy &rules,
                                               std::vector<calibrate::PassSample> &passes) {
  std::vector<calibrate::Sample> out;
  const double t0 = kernels::cpu::now_seconds();
  for (const Graph &g : calibrate::calibration_networks()) {
    progress("calibrate: network %s (%zu layers)\n", g.name.c_str(), g.layers.size());
    kernels::cpu::MeasureOptions mo;
    mo.threads = a.threads;
    mo.warmup = 3;
    mo.iters = a.quick ? 5 : 20;
    mo.min_seconds = a.quick ? 0.5 : 2.0;
    // As `measure` does by default (docs/measure.md): the passes of the faster placement, and
    // of those the ones between quiet convolution probes.
    mo.faster_placement = true;
    mo.probe_policy = rules.probe;
    mo.placement_policy = rules.placement;
    mo.quiet_policy = rules.quiet;
    mo.quiet_probe_interval_seconds = rules.quiet.probe_interval_seconds;
    // Judged against the rounds' convolution too: networks measured wholly in a spell keep no
    // quiet pass, and measure_graph_in_state measures them again.
    mo.quiet_reference_flops_per_second = reference ? reference->conv_flops_per_second : 0;
    const int attempts = rules.calibration.network_attempts;
    const auto retry = [&g, attempts](int attempt, const kernels::cpu::StateMeasurement &best) {
      progress("calibrate: network %s: measured in another host state than the rounds' "
               "(%.2g tolerances off: %s); measuring again (attempt %d of %d)\n",
               g.name.c_str(), best.severity, best.worst.c_str(), attempt, attempts);
    };
    const kernels::cpu::GraphMeasurement m =
        kernels::cpu::measure_graph_in_state(g, mo, reference, attempts, rules.host, retry)
            .measurement;
    if (m.placement)
      progress("calibrate: network %s: %s\n", g.name.c_str(),
               report::placement_line(pass_placement_view(*m.placement, rules.placement)).c_str());
    if (m.quiet)
      progress("calibrate: network %s: %s\n", g.name.c_str(),
               report::quiet_line(quiet_passes_view(*m.quiet, rules.quiet)).c_str());
    // Every layer is kept: the GEMM classes' layers are held out of the fit and scored
    // against it (held_out_report).
    for (auto &s : measured_layer_samples(g, m, stat, "network:", hw))
      out.push_back(std::move(s));
    passes.push_back(measured_pass_sample(g, m, stat));
    const calibrate::PassSample &p = passes.back();
    progress("calibrate: network %s: pass %.4g s, its %d kernel layers %.4g s (%+.1f%%)\n",
             g.name.c_str(), p.pass_seconds, p.layers, p.layer_sum_seconds,
             100 * (p.pass_seconds / p.layer_sum_seconds - 1));
  }
  progress("calibrate: %zu network layers in %.1f s\n", out.size(),
           kernels::cpu::now_seconds() - t0);
  return out;
}

// The FMA rate of `threads` threads on an undisturbed machine: the spec's fp32 vector peak
// (measured on an idle machine) scaled to the threads; 0 when the spec has none.
double undisturbed_flops(const HwSpec &hw, int threads) {
  const auto unit = hw.best_unit(DType::fp32, false);
  return unit ? unit->flops_per_second * std::min(1.0, double(threads) / std::max(1, hw.units))
              : 0.0;
}

// Every probe's convolution rate in GFLOP/s, in order: "|" before a round boundary's full
// probe, "x" after a disturbed one.
std::string conv_timeline(const std::vector<HostState> &probes, const std::vector<bool> &full,
                          const std::vector<bool> &judged) {
  std::string s = "convolution probes in order (GFLOP/s; |: between rounds; x: disturbed):";
  for (size_t i = 0; i < probes.size(); ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " %s%.0f%s", full[i] ? "|" : "",
                  probes[i].conv_flops_per_second / 1e9, judged[i] ? "" : "x");
    s += buf;
  }
  return s;
}

// One attempt at the microbenchmark rounds: each case's results, the host probes in time order
// (those inside the rounds: the convolution only), which were full probes (a round's
// boundary), which were steady, the host state the calibration records and the verdict.
struct Rounds {
  std::vector<kernels::cpu::BenchResult> results;
  std::vector<HostState> probes;
  std::vector<bool> full, judged;
  HostState host_state;
  policy::CalibrationAttempt verdict;
};

// The host's state around the samples is stored so that `measure` can tell whether it measures
// in the same state: probes before the first round and after every round, the median of the
// steady ones the reference. A microbenchmark's runs next to a probe that finds the host
// disturbed do not count (policy::steady_probes). The convolution is also probed inside the
// rounds, every ProbePolicy::round_probe_interval_seconds, and each run is judged by the probes
// on either side of it. Up to CalibrationRetryPolicy::extra_rounds more rounds run while some
// case has fewer counted rounds than planned (docs/measurement-policy.md).
Rounds microbenchmark_rounds(const CalibrateArgs &a, const HwSpec &hw,
                             const policy::MeasurementPolicy &rules,
                             kernels::cpu::MicrobenchOptions mo,
                             const std::vector<kernels::cpu::BenchCase> &cases) {
  const double t0 = kernels::cpu::now_seconds();
  const double steady_flops =
      undisturbed_flops(hw, a.threads > 0 ? a.threads : kernels::cpu::num_threads());
  Rounds r;
  std::vector<HostState> &probes = r.probes;
  std::vector<bool> &full = r.full;
  mo.extra_rounds = a.quick ? rules.calibration.quick_extra_rounds : rules.calibration.extra_rounds;
  mo.probe_interval_seconds = rules.probe.round_probe_interval_seconds;
  mo.at_probe = [&](bool boundary) {
    probes.push_back(boundary ? kernels::cpu::probe_host(rules.probe)
                              : kernels::cpu::probe_conv(rules.probe));
    full.push_back(boundary);
    return policy::steady_probes(probes, steady_flops, rules.host);
  };
  r.results = kernels::cpu::run_cases(cases, mo);
  const auto &results = r.results;
  r.judged = policy::steady_probes(probes, steady_flops, rules.host);
  const std::vector<bool> &judged = r.judged;
  std::vector<HostState> boundary, steady;
  std::vector<bool> boundary_judged;
  size_t slow_compute = 0;
  for (size_t i = 0; i < probes.size(); ++i) {
    if (!full[i])
      continue;
    boundary.push_back(probes[i]);
    boundary_judged.push_back(judged[i]);
    if (judged[i])
      steady.push_back(probes[i]);
    slow_compute += policy::steady_compute(probes[i], steady_flops, rules.host) ? 0 : 1;
  }
  r.host_state = policy::median_state(steady.empty() ? boundary : steady);
  if (steady.empty())
    std::fprintf(stderr,
                 "calibrate: warning: every probe found the host disturbed: this calibration "
                 "describes the disturbed machine; run it again when the host is quiet (or the "
                 "hardware spec, --hw %s, does not describe this CPU)\n",
                 hw.name.c_str());
  else if (steady.size() < boundary.size())
    progress("calibrate: %zu of %zu probes between the rounds found the host disturbed (%zu "
             "an FMA rate under %.0f%% of the spec's %.3g FLOP/s, the others a convolution "
             "more than %.0f%% under the fastest probe's)\n",
             boundary.size() - steady.size(), boundary.size(), slow_compute,
             100 * rules.host.steady_compute_fraction, steady_flops,
             100 * rules.host.conv_tolerance);
  std::string listed;
  for (size_t i = 0; i < boundary.size(); ++i) {
    const HostState &p = boundary[i];
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s%.3g/%.3g/%.3g/%.3g/%.3g%s", listed.empty() ? "" : ", ",
                  p.fp32_flops_per_second, p.dram_bytes_per_second, p.cross_core_bytes_per_second,
                  p.conv_flops_per_second, p.core_round_trip_seconds,
                  boundary_judged[i] ? "" : " (x)");
    listed += buf;
  }
  // Judged on the probes beside the rounds that count, but for the threads' placement on all.
  const bool moved =
      policy::calibration_changed(r.host_state, steady.empty() ? boundary : steady, rules.host) ||
      policy::placement_changed(r.host_state, boundary, rules.host);
  progress("calibrate: host probes (fp32 FMA FLOP/s / DRAM read B/s / cross-core read B/s / "
           "conv FLOP/s / core round trip s; (x): disturbed): %s\n",
           listed.c_str());
  progress("calibrate: %s\n", conv_timeline(probes, full, judged).c_str());
  const kernels::cpu::CountedRuns cr = kernels::cpu::counted_runs(results);
  const size_t counted = cr.counted, run = cr.runs, none = cr.cases_without;
  progress("calibrate: %zu of %zu runs (a case in a round) counted, over %zu rounds; %zu "
           "cases had none counted and keep every run\n",
           counted, run, boundary.size() - 1, none);
  // A case with no counted run keeps runs taken in a spell (policy::too_few_counted).
  const bool spell_cases =
      policy::too_few_counted(counted, run, none, results.size(), rules.calibration);
  r.verdict = {moved || spell_cases, counted, run};
  if (r.verdict.changed)
    std::fprintf(stderr,
                 "calibrate: warning: the host's state changed during calibration (a probe's "
                 "core round trip beyond a factor of %g from the probes' median: the threads "
                 "placed otherwise; or over a third of the steady probes compute beyond %.0f%% "
                 "or conv beyond %.0f%%; or over %.0f%% of the cases without a run between "
                 "steady probes: %zu of %zu; or under %.0f%% of the runs counted: %zu of %zu); "
                 "a calibration taken in a steady state predicts better\n",
                 rules.host.round_trip_factor, 100 * rules.host.compute_tolerance,
                 100 * rules.host.conv_tolerance, 100 * rules.calibration.max_uncounted_case_share,
                 none, results.size(), 100 * rules.calibration.min_counted_run_share, counted, run);
  int noisy = 0;
  for (const auto &res : results)
    noisy += res.time.noisy ? 1 : 0;
  progress("calibrate: %zu microbenchmarks in %.1f s (%d noisy)\n", results.size(),
           kernels::cpu::now_seconds() - t0, noisy);
  return r;
}

std::vector<calibrate::Sample> microbenchmark_samples(const CalibrateArgs &a, const HwSpec &hw,
                                                      Calibration &cal) {
  const policy::MeasurementPolicy rules = calibrate_policy(a);
  kernels::cpu::MicrobenchOptions mo;
  mo.quick = a.quick;
  mo.threads = a.threads;
  mo.warmup = a.warmup;
  mo.iters = a.iters;
  mo.rounds = a.rounds;
  mo.cache_bytes = calibrate::cache_bytes_for(hw);
  mo.progress = [](size_t i, size_t n, const kernels::cpu::BenchCase &c) {
    progress("calibrate: [%zu/%zu] %s\n", i + 1, n, c.name.c_str());
  };
  auto cases = kernels::cpu::microbench_plan(mo);
  for (const auto &c : calibrate::supplementary_cases(a.quick, mo.cache_bytes))
    cases.push_back(c);
  // The rounds are taken again while the host's state changed during them, up to
  // rules.calibration.attempts in all (policy::calibrate_again), and one attempt is kept
  // (policy::kept_calibration); every attempt's verdict goes to the log.
  std::vector<Rounds> taken;
  std::vector<policy::CalibrationAttempt> verdicts;
  const int attempts = std::max(1, rules.calibration.attempts);
  do {
    taken.push_back(microbenchmark_rounds(a, hw, rules, mo, cases));
    verdicts.push_back(taken.back().verdict);
    const policy::CalibrationAttempt &v = verdicts.back();
    if (attempts > 1)
      progress("calibrate: attempt %zu of %d: %zu of %zu runs counted (%.1f%%), %s\n",
               verdicts.size(), attempts, v.counted_runs, v.runs, 100 * v.counted_share(),
               v.changed ? "the host's state changed" : "the host's state held");
  } while (policy::calibrate_again(verdicts, rules.calibration));
  const size_t kept = policy::kept_calibration(verdicts);
  if (attempts > 1)
    progress("calibrate: kept attempt %zu of %zu taken (%s)\n", kept + 1, verdicts.size(),
             verdicts[kept].changed ? "every attempt changed: the largest share of runs counted"
                                    : "the first in which the host's state held");
  Rounds &r = taken[kept];
  cal.host_state = r.host_state;
  const auto ref = calibrate::microbench_reference(r.results);
  progress("calibrate: measured peak %.3g FLOP/s (FMA), best bandwidth %.3g B/s, "
           "pool wake-up %.3g s\n",
           ref.fma_flops_per_second, ref.best_bytes_per_second, ref.launch_seconds);
  cal.device = calibrate::this_cpu(a.threads > 0 ? a.threads : kernels::cpu::num_threads());
  cal.source = a.quick ? "microbenchmarks (quick)" : "microbenchmarks";
  const auto stat = parse_time_statistic(a.statistic);
  if (!stat)
    throw InputError("calibrate: unknown --statistic '" + a.statistic + "'");
  if (!a.save_runs.empty())
    io::write_file_atomic(a.save_runs,
                          calibrate::runs_csv(r.results, r.probes, r.full, r.judged, *stat));
  auto samples = calibrate::samples_from_benches(r.results, *stat);
  if (!a.no_networks) {
    std::vector<calibrate::PassSample> passes;
    for (auto &s : network_samples(a, hw, *stat, cal.host_state, rules, passes))
      samples.push_back(std::move(s));
    cal.pass_excess = calibrate::fit_pass_excess(passes);
    if (cal.pass_excess)
      progress("calibrate: pass excess %.3g s per kernel layer + %.2f%% of the layers' time\n",
               cal.pass_excess->per_layer_seconds, 100 * cal.pass_excess->fraction);
  }
  return samples;
}

// --device cuda: the GPU plan (kernels/cuda, docs/cuda.md), run by the CUDA plugin
// (cli/cuda_backend.hpp); no plugin, no CUDA libraries or no GPU is a RuntimeFailure (exit 1).
std::vector<calibrate::Sample> gpu_microbenchmark_samples(const CalibrateArgs &a,
                                                          Calibration &cal) {
  namespace kg = kernels::cuda;
  const kg::DeviceInfo dev = cuda_query_device(0);
  progress("calibrate: %s, %d SMs, compute capability %d.%d\n", dev.name.c_str(), dev.sm_count,
           dev.cc_major, dev.cc_minor);
  kg::GpuBenchOptions go;
  go.quick = a.quick;
  go.progress = [](size_t i, size_t n, const kg::GpuBenchCase &c) {
    progress("calibrate: [%zu/%zu] cuda/%s\n", i + 1, n, c.name.c_str());
  };
  const cuda_plugin::MicrobenchRun run = cuda_run_microbenchmarks(go);
  for (const auto &r : run.results)
    if (!r.skipped.empty())
      progress("calibrate: skipped cuda/%s: %s\n", r.bench.name.c_str(), r.skipped.c_str());
    else if (!r.algorithm.empty()) // the cuBLAS/cuDNN algorithm behind a GEMM or conv figure
      progress("calibrate: cuda/%s: %.3g s, %s\n", r.bench.name.c_str(), r.time.median_seconds,
               r.algorithm.c_str());
  const auto ref = calibrate::microbench_reference(run.measured);
  progress("calibrate: measured peak %.3g FLOP/s (FMA), best bandwidth %.3g B/s\n",
           ref.fma_flops_per_second, ref.best_bytes_per_second);
  cal.device = DeviceFingerprint{"gpu", dev.name, dev.sm_count, "", std::nullopt};
  cal.source = a.quick ? "cuda microbenchmarks (quick)" : "cuda microbenchmarks";
  return calibrate::samples_from_benches(run.measured);
}

int run_calibrate(const CalibrateArgs &a) {
  show_progress = a.progress || ::isatty(STDERR_FILENO);
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
