// `perfmodel calibrate --device`: fit samples from the CPU microbenchmarks and the calibration
// networks, measured under the measurement policy (docs/measurement-policy.md), or from the CUDA
// plugin's GPU microbenchmarks.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/calibrate_args.hpp"
#include "cli/cuda_backend.hpp"
#include "cli/measured_samples.hpp"
#include "perfmodel/calibrate/calibration_networks.hpp"
#include "perfmodel/calibrate/fingerprint.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/microbench_samples.hpp"
#include "perfmodel/calibrate/pass_excess.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/kernels/cpu/executor.hpp"
#include "perfmodel/kernels/cpu/host_probe.hpp"
#include "perfmodel/kernels/cpu/measure_in_state.hpp"
#include "perfmodel/kernels/cpu/microbench.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"
#include "perfmodel/policy/measurement_policy.hpp"
#include "perfmodel/report/measure_view.hpp"
#include "perfmodel/time_statistic.hpp"

namespace perfmodel::cli {

namespace {

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

} // namespace

void set_calibrate_progress(bool on) { show_progress = on; }

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

} // namespace perfmodel::cli
