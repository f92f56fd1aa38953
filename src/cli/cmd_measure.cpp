// `perfmodel measure`: runs a model layer by layer on this CPU and compares with predict();
// `--microbench` runs the microbenchmark plan instead and prints what it measured.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "cli/measure_cuda.hpp"
#include "cli/measured_samples.hpp"
#include "perfmodel/calibrate/fingerprint.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/samples_csv.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/host_hw.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/kernels/cpu/executor.hpp"
#include "perfmodel/kernels/cpu/host_probe.hpp"
#include "perfmodel/kernels/cpu/microbench.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/onnx/load_model.hpp"
#include "perfmodel/policy/measurement_policy.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/report/measure_view.hpp"

namespace perfmodel::cli {

namespace {

struct MeasureArgs {
  std::string device = "cpu";
  ModelOptions model;
  std::string hw; // "": the shipped spec measured on this CPU (io::hw_for_cpu)
  std::vector<std::string> calibrations; // several: the one nearest the host's state is used
  std::string timing = "network";
  std::string statistic = "p20";
  std::string buffers = "reuse";
  std::string passes = "quiet"; // --passes: which timed passes the statistics use
  double probe_interval = -1;   // --probe-interval (< 0: not given, QuietPassPolicy's default)
  int attempts = policy::MeasureRetryPolicy{}.attempts;            // --attempts
  double attempt_wait = policy::MeasureRetryPolicy{}.wait_seconds; // --attempt-wait
  int warmup = 3, iters = 10, threads = 0;
  double min_time = 0;
  double min_layer_us = 50;
  bool microbench = false, quick = false, quiet = false;
  bool channels_last = false, plan_only = false; // --device cuda only
  bool min_layer_us_given = false;
  std::vector<std::string> cpu_only_given; // CPU-only options given (refused with cuda)
  std::string only;
  std::string save_samples; // --save-samples: the measured layers as calibration samples
  OutputOptions out;
};

// This CPU's model name, as io/host_hw reads /proc/cpuinfo for the fingerprint and the spec.
std::string cpu_name() {
  const auto fields = io::cpuinfo_fields(io::read_cpuinfo(), {"model name"});
  const auto it = fields.find("model name");
  return it == fields.end() || it->second.empty() ? "unknown CPU" : it->second;
}

std::string device_str(int threads) {
  return "cpu: " + cpu_name() + " (" + std::to_string(threads) + " thread" +
         (threads == 1 ? "" : "s") + ")";
}

int run_microbench(const MeasureArgs &a) {
  namespace kc = kernels::cpu;
  kc::MicrobenchOptions o;
  o.quick = a.quick;
  o.threads = a.threads;
  o.only = a.only;
  // The outermost cache decides which convolution workspaces stay cached between calls, as in
  // calibrate: --hw's, else this CPU's shipped spec; with neither every workspace is evicted.
  try {
    o.cache_bytes = calibrate::cache_bytes_for(io::load_hw_or_for_cpu(a.hw, io::this_cpu_id()));
  } catch (const InputError &) {
    if (!a.hw.empty())
      throw;
  }
  if (!a.quiet)
    o.progress = [](size_t i, size_t n, const kc::BenchCase &c) {
      std::fprintf(stderr, "microbench [%zu/%zu] %s\n", i + 1, n, c.name.c_str());
    };
  const auto results = kc::run_microbenchmarks(o);
  if (results.empty())
    throw InputError("measure: --only '" + a.only + "' matches no microbenchmark");
  std::vector<report::BenchRow> rows;
  for (const auto &r : results) {
    report::BenchRow b;
    b.name = r.bench.name;
    b.kind = std::string(kc::to_string(r.bench.kind));
    b.variant = r.bench.variant;
    b.dtype = std::string(to_string(r.bench.dtype));
    b.threads = r.threads;
    b.flops = r.flops;
    b.bytes = r.bytes;
    b.working_set_bytes = double(r.bench.working_set_bytes);
    b.stats = measured_stats(r.time);
    rows.push_back(std::move(b));
  }
  kc::ThreadCountScope scope(a.threads);
  emit(a.out, report::render_microbench(rows, device_str(kc::num_threads()), output_format(a.out)));
  return 0;
}

// How the threads' placement is judged: "a factor of 2 (core round trip)" or "25% (cross-core
// read)", for a calibration without the round-trip probe.
std::string placement_rule(bool by_round_trip, const policy::HostStatePolicy &rule) {
  char buf[64];
  if (by_round_trip)
    std::snprintf(buf, sizeof buf, "a factor of %g (core round trip)", rule.round_trip_factor);
  else
    std::snprintf(buf, sizeof buf, "%.0f%% (cross-core read)", 100 * rule.cross_core_tolerance);
  return buf;
}

// One measurement of `g` and its report against the calibration nearest its host state.
struct Attempt {
  kernels::cpu::GraphMeasurement m;
  Prediction p;
  report::MeasurementView view;
  size_t chosen = 0;
  double severity = 0; // policy::attempt_severity
};

// The measurement policy of this command: the defaults, with the arguments that override them.
policy::MeasurementPolicy measure_policy(const MeasureArgs &a) {
  policy::MeasurementPolicy rules;
  if (a.probe_interval >= 0)
    rules.quiet.probe_interval_seconds = a.probe_interval;
  rules.measure.attempts = a.attempts;
  rules.measure.wait_seconds = a.attempt_wait;
  return rules;
}

int run_cuda(const MeasureArgs &a) {
  CudaMeasureArgs c;
  c.model = a.model;
  c.hw = a.hw;
  c.calibrations = a.calibrations;
  c.statistic = a.statistic;
  c.warmup = a.warmup;
  c.iters = a.iters;
  c.min_time = a.min_time;
  if (a.min_layer_us_given)
    c.min_layer_us = a.min_layer_us;
  c.channels_last = a.channels_last;
  c.plan_only = a.plan_only;
  c.quiet = a.quiet;
  c.save_samples = a.save_samples;
  c.cpu_only_given = a.cpu_only_given;
  c.out = a.out;
  return run_measure_cuda(c);
}

int run_measure(const MeasureArgs &a) {
  namespace kc = kernels::cpu;
  if (a.device == "cuda")
    return run_cuda(a);
  if (a.device != "cpu")
    throw InputError("measure: --device '" + a.device + "' is not supported (cpu, cuda)");
  if (a.channels_last || a.plan_only)
    throw InputError(std::string("measure: ") + (a.channels_last ? "--channels-last" : "--plan") +
                     " applies to --device cuda only");
  if (a.microbench)
    return run_microbench(a);
  if (a.model.model.empty())
    throw InputError("measure: --model is required (or --microbench)");
  const report::Format fmt = output_format(a.out); // reject a bad --format before running
  const auto cpu_id = io::this_cpu_id();
  const HwSpec hw = io::load_hw_or_for_cpu(a.hw, cpu_id);
  if (const std::string w = io::cpu_mismatch(hw, cpu_id); !w.empty())
    std::fprintf(stderr, "measure: warning: %s: its figures describe that CPU\n", w.c_str());
  std::vector<Calibration> cals;
  for (const std::string &c : a.calibrations)
    cals.push_back(io::load_calibration(c));
  const Graph g = io::load_model(a.model.model, load_options(a.model));
  PredictOptions po;
  po.calibration = cals.empty() ? nullptr : &cals[0];
  const Prediction first =
      predict(g, hw, po); // before the run: a model it cannot predict fails fast
  const policy::MeasurementPolicy rules = measure_policy(a);

  kc::MeasureOptions mo;
  mo.warmup = a.warmup;
  mo.iters = a.iters;
  mo.min_seconds = a.min_time;
  mo.timing = a.timing == "isolated" ? kc::LayerTiming::isolated : kc::LayerTiming::in_network;
  mo.threads = a.threads;
  const auto plan = kc::parse_buffer_plan(a.buffers);
  if (!plan)
    throw InputError("measure: unknown --buffers '" + a.buffers + "'");
  mo.buffers = *plan;
  mo.probe_host = true;
  mo.probe_policy = rules.probe;
  mo.placement_policy = rules.placement;
  mo.quiet_policy = rules.quiet;
  mo.faster_placement = a.passes == "faster-placement" || a.passes == "quiet";
  if (a.probe_interval >= 0 && (a.passes != "quiet" || mo.timing != kc::LayerTiming::in_network))
    throw InputError("measure: --probe-interval applies to --passes quiet with --timing network");
  if (a.passes == "quiet" && mo.timing == kc::LayerTiming::in_network) {
    mo.quiet_probe_interval_seconds = rules.quiet.probe_interval_seconds;
    // The probes are also judged against the convolution figure of a calibration taken on a
    // machine like this one (the fastest of them), so that passes spent wholly in a slow spell
    // are found so (policy/quiet_passes.hpp).
    const DeviceFingerprint host =
        calibrate::this_cpu(a.threads > 0 ? a.threads : kc::num_threads());
    for (const Calibration &c : cals)
      if (c.host_state && calibrate::host_mismatch(c.device, host).empty())
        mo.quiet_reference_flops_per_second =
            std::max(mo.quiet_reference_flops_per_second, c.host_state->conv_flops_per_second);
  }
  if (!a.quiet)
    mo.progress = [](size_t i, size_t n, const std::string &name) {
      std::fprintf(stderr, "measure [%zu/%zu] %s\n", i + 1, n, name.c_str());
    };
  if (g.dtype != DType::fp32 && !a.quiet)
    std::fprintf(stderr,
                 "measure: note: the CPU executor runs fp32; the model's %s is predicted "
                 "but executed in fp32\n",
                 std::string(to_string(g.dtype)).c_str());
  const auto statistic = parse_time_statistic(a.statistic);
  if (!statistic)
    throw InputError("measure: unknown --statistic '" + a.statistic + "'");

  // One attempt: the measurement, the calibration chosen for it and the report.
  const auto measure_once = [&]() {
    Attempt t;
    t.m = kc::measure_graph(g, mo);
    const kc::GraphMeasurement &m = t.m;
    // A calibration taken on another machine (CPU, ISA flags, threads) describes that machine:
    // the choice below is made among those taken on one like this (among all where none is),
    // and predicting with a foreign one is a warning.
    const DeviceFingerprint here = calibrate::this_cpu(m.threads);
    std::vector<std::string> mismatch;
    std::vector<bool> foreign;
    std::vector<std::optional<HostState>> states;
    for (const Calibration &c : cals) {
      mismatch.push_back(calibrate::host_mismatch(c.device, here));
      foreign.push_back(!mismatch.back().empty());
      states.push_back(c.host_state);
    }
    // Of several, the calibration taken in the state the host was in.
    const policy::CalibrationChoice choice =
        policy::choose_calibration(foreign, states, m.host_before, m.host_after, rules.host);
    t.chosen = choice.index;
    t.p = first;
    if (t.chosen != 0) {
      PredictOptions chosen_po = po;
      chosen_po.calibration = &cals[t.chosen];
      t.p = predict(g, hw, chosen_po);
    }
    if (cals.size() > 1 && !a.quiet) {
      const std::string left_out = choice.left_out ? ", " + std::to_string(choice.left_out) +
                                                         " taken on another machine left out"
                                                   : "";
      std::fprintf(stderr, "measure: predicting with %s (the nearest host state of %zu%s)\n",
                   a.calibrations[t.chosen].c_str(), cals.size() - choice.left_out,
                   left_out.c_str());
    }

    report::MeasurementRun run;
    run.device = device_str(m.threads);
    run.executed_dtype = m.executed_dtype;
    run.threads = m.threads;
    run.buffers = std::string(kc::to_string(m.buffers));
    run.activation_bytes = double(m.activation_bytes);
    run.workspace_bytes = double(m.workspace_bytes);
    if (!cals.empty()) {
      run.calibration = a.calibrations[t.chosen];
      run.calibration_mismatch = mismatch[t.chosen];
    }
    if (cals.size() > 1)
      run.calibration_candidates = a.calibrations;
    run.min_layer_seconds = a.min_layer_us * 1e-6;
    run.statistic = *statistic;
    run.noisy_range_fraction = kc::kNoisyRangeFraction;
    run.noisy_sd_fraction = kc::kNoisySdFraction;
    for (const auto &l : m.layers)
      run.layers.push_back({l.name, l.path, measured_stats(l.time)});
    run.network = measured_stats(m.network);
    if (m.placement)
      run.placement = pass_placement_view(*m.placement, rules.placement);
    if (m.quiet)
      run.quiet = quiet_passes_view(*m.quiet, rules.quiet);
    run.host_before = m.host_before;
    run.host_after = m.host_after;
    if (!cals.empty())
      run.host_reference = cals[t.chosen].host_state;
    run.host_policy = rules.host;
    run.quiet_policy = rules.quiet;
    t.view = report::make_measurement_view(t.p, run);
    t.severity = policy::attempt_severity(t.view.host, t.view.run.quiet);
    return t;
  };

  // Measured again while the host was in another state than the calibration's, up to
  // rules.measure.attempts in all; the attempt that drifted least is reported
  // (policy/retry.hpp, docs/measurement-policy.md "MeasureRetryPolicy").
  const int attempts = std::max(1, rules.measure.attempts);
  std::vector<Attempt> taken;
  std::vector<double> severities;
  for (int n = 1; n <= attempts; ++n) {
    taken.push_back(measure_once());
    const Attempt &t = taken.back();
    severities.push_back(t.severity);
    const bool again = t.view.host.changed && n < attempts;
    if (attempts > 1) { // which attempt is reported: printed with --quiet too
      const std::string worst =
          t.view.host.reference ? policy::worst_drift(*t.view.host.reference, t.view.host.before,
                                                      t.view.host.after, rules.host)
                                : "";
      std::fprintf(stderr,
                   "measure: attempt %d of %d (%s): median |error| %.1f%%, end to end %+.1f%%; "
                   "%s, %.2g tolerances from the calibration's state%s%s%s\n",
                   n, attempts,
                   t.view.run.calibration.empty() ? "roofline" : t.view.run.calibration.c_str(),
                   100 * t.view.summary.median_abs_error, 100 * t.view.summary.end_to_end_error,
                   t.view.host.changed ? "host state changed" : "as calibrated", t.severity,
                   worst.empty() ? "" : " (", worst.c_str(), worst.empty() ? "" : ")");
    }
    if (!again)
      break;
    if (rules.measure.wait_seconds > 0) {
      std::fprintf(stderr, "measure: measuring again in %g s\n", rules.measure.wait_seconds);
      std::this_thread::sleep_for(std::chrono::duration<double>(rules.measure.wait_seconds));
    }
  }
  const size_t kept = policy::least_severe(severities);
  if (taken.size() > 1)
    std::fprintf(stderr,
                 "measure: kept attempt %zu of %zu (the least drift from its calibration's "
                 "state)\n",
                 kept + 1, taken.size());
  const Attempt &t = taken[kept];
  const report::MeasurementView &view = t.view;
  if (!view.run.calibration_mismatch.empty()) // a warning, not progress: printed with --quiet too
    std::fprintf(stderr,
                 "measure: warning: calibration %s was taken on another machine (%s): its "
                 "rates describe that machine; calibrate this one with `perfmodel calibrate "
                 "--device cpu --hw SPEC`\n",
                 view.run.calibration.c_str(), view.run.calibration_mismatch.c_str());
  if (view.host.passes_in_spell) // a warning, not progress: printed with --quiet too
    std::fprintf(stderr,
                 "measure: warning: only %d of %d passes ran between convolution probes within "
                 "%.0f%% of the calibration's %.3g FLOP/s: the host was in a slow spell; the "
                 "errors reflect the host's state\n",
                 view.run.quiet->quiet_passes, view.run.quiet->candidates,
                 100 * view.run.quiet->tolerance, view.run.quiet->calibration_flops_per_second);
  if (view.host.drifted) { // a warning, not progress: printed with --quiet too
    const policy::HostDrift b = view.host.drift_before.value_or(policy::HostDrift{});
    const policy::HostDrift e = view.host.drift_after.value_or(policy::HostDrift{});
    std::fprintf(stderr,
                 "measure: warning: the host's probes drifted from the calibration's beyond "
                 "%.0f%% (compute), %s or %.0f%% (conv, the faster): compute %+.0f%% / %+.0f%%, "
                 "cross-core %+.0f%% / %+.0f%%, round trip %+.0f%% / %+.0f%%, conv %+.0f%% / "
                 "%+.0f%%, memory %+.0f%% / %+.0f%% (before / after); the errors reflect the "
                 "host's state\n",
                 100 * rules.host.compute_tolerance,
                 placement_rule(b.placement_by_round_trip, rules.host).c_str(),
                 100 * rules.host.conv_tolerance, 100 * b.compute, 100 * e.compute,
                 100 * b.cross_core, 100 * e.cross_core, 100 * b.round_trip, 100 * e.round_trip,
                 100 * b.conv, 100 * e.conv, 100 * b.memory, 100 * e.memory);
  }
  if (!a.save_samples.empty())
    io::write_file_atomic(a.save_samples, calibrate::write_samples_csv(measured_layer_samples(
                                              g, t.m, *statistic, "measure:", hw)));
  emit(a.out, report::render_measurement(view, fmt));
  return 0;
}

} // namespace

void register_measure(CLI::App &app, Runner &run) {
  auto a = std::make_shared<MeasureArgs>();
  CLI::App *cmd = app.add_subcommand(
      "measure",
      "Run a model layer by layer on this CPU or a GPU and compare with the prediction");
  cmd->footer(
      "Each layer runs with random data: warm-up runs, then timed runs (median, mean, sd, min,\n"
      "max); a layer whose (max-min)/median > 50% or sd/mean > 10% is flagged noisy.\n"
      "Examples:\n"
      "  perfmodel measure --device cpu --model nin --batch 5\n"
      "  perfmodel measure --model resnet50 --calibration calibration/zen3-2c.yaml --format json "
      "-o m.json\n"
      "  perfmodel measure --microbench --quick --format csv\n"
      "  perfmodel measure --device cuda --hw h100 --model resnet50 --batch 32 --dtype fp16 "
      "--channels-last");
  cmd->add_option("--device", a->device,
                  "Device to run on: cpu, or cuda (GPU 0, through the CUDA plugin: "
                  "docs/cuda.md)")
      ->transform(one_of("device", {{"cpu"}, {"cuda"}}))
      ->capture_default_str();
  add_model_options(cmd, a->model);
  cmd->get_option("--model")->required(false);
  cmd->add_option("--hw", a->hw,
                  "Hardware the prediction uses: a .yaml path or a name (default: the shipped "
                  "spec whose cpu_id is this CPU's)");
  cmd->add_option("--calibration", a->calibrations,
                  "Calibration file (from `perfmodel calibrate`): predict with the fitted model. "
                  "Repeatable: with several, the one whose host probes the host drifted least "
                  "from (probed before the passes) is used")
      ->take_all();
  cmd->add_option("--timing", a->timing,
                  "network: time each layer inside whole forward passes; isolated: run each "
                  "layer alone, repeatedly, warm in cache")
      ->check(CLI::IsMember({"network", "isolated"}))
      ->capture_default_str();
  cmd->add_option("--buffers", a->buffers,
                  "reuse: layer outputs reuse the buffers of consumed tensors, as inference "
                  "runtimes plan memory; distinct: every tensor its own buffer")
      ->check(CLI::IsMember({"reuse", "distinct"}))
      ->capture_default_str();
  cmd->add_option("--passes", a->passes,
                  "With --timing network: quiet: the statistics over the passes that ran in the "
                  "faster placement of the vCPUs (2+ threads) and between two convolution probes "
                  "that found the host outside its caches' slow spells; faster-placement: the "
                  "placement only (core round trip probed between passes); all: every timed pass")
      ->check(CLI::IsMember({"quiet", "faster-placement", "all"}))
      ->capture_default_str();
  cmd->add_option("--probe-interval", a->probe_interval,
                  "With --passes quiet: seconds between the convolution probes among the passes "
                  "(default 0.25)")
      ->check(between(0.01, 60.0));
  cmd->add_option("--attempts", a->attempts,
                  "Measure again, up to this many times in all, while the host is found in "
                  "another state than the calibration's (the host check); the attempt that "
                  "drifted least is reported")
      ->check(between(1, 100))
      ->capture_default_str();
  cmd->add_option("--attempt-wait", a->attempt_wait,
                  "With --attempts: seconds to wait before measuring again")
      ->check(between(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--statistic", a->statistic,
                  "Errors against the median of the timed runs, their 20th percentile or their "
                  "min (p20 is the most reproducible on a shared host)")
      ->transform(one_of("statistic", {{"median"}, {"p20"}, {"min"}}))
      ->capture_default_str();
  cmd->add_option("--warmup", a->warmup,
                  "Untimed runs (passes, or runs of each layer) before timing")
      ->check(between(0, 1000))
      ->capture_default_str();
  cmd->add_option("--iters", a->iters, "Timed runs (passes, or runs of each layer)")
      ->check(between(1, 100000))
      ->capture_default_str();
  cmd->add_option("--min-time", a->min_time,
                  "With --timing network: more timed passes until they take this many seconds")
      ->check(between(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--threads", a->threads, "Threads (0 = every hardware thread)")
      ->check(between(0, 4096))
      ->capture_default_str();
  cmd->add_option("--min-layer-us", a->min_layer_us,
                  "Layers measured below this many microseconds are left out of the MAPE "
                  "(--device cuda: 20 unless given)")
      ->check(non_negative(false))
      ->capture_default_str();
  cmd->add_flag("--microbench", a->microbench, "Run the microbenchmarks instead of a model");
  cmd->add_flag("--quick", a->quick, "With --microbench: the quick plan");
  cmd->add_option("--only", a->only, "With --microbench: only benchmarks whose name has this");
  cmd->add_option("--save-samples", a->save_samples,
                  "Also write the measured layers as calibration samples (calibrate "
                  "--from-samples)");
  cmd->add_flag("--channels-last", a->channels_last,
                "With --device cuda: 4-D activations in NHWC (channels-last), convolutions in "
                "cuDNN's NHWC layout");
  cmd->add_flag("--plan", a->plan_only,
                "With --device cuda: print which call each layer becomes (cuDNN, cuBLAS, our "
                "kernels) and run nothing (no GPU needed)");
  cmd->add_flag("--quiet,-q", a->quiet, "No progress on stderr");
  add_output_options(cmd, a->out);
  cmd->callback([a, cmd, &run] {
    a->min_layer_us_given = cmd->count("--min-layer-us") > 0;
    a->cpu_only_given.clear();
    for (const char *o : {"--timing", "--buffers", "--passes", "--probe-interval", "--attempts",
                          "--attempt-wait", "--threads", "--microbench", "--quick", "--only"})
      if (cmd->count(o) > 0)
        a->cpu_only_given.push_back(o);
    run = [a] { return run_measure(*a); };
  });
}

} // namespace perfmodel::cli
