// Ceres fit of the efficiency model: one problem per op class x dtype (and per GEMM tile size);
// the problem itself is fit_solve.cpp's.
#include "perfmodel/calibrate/fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "calibrate/fit_solve.hpp"
#include "perfmodel/calibrate/bounds.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/targets/registry.hpp"

namespace perfmodel::calibrate {

namespace {

constexpr int kMinSamplesFullGemm = 12; // below: no Hockney sizes, no overlap
// A larger GEMM tile is chosen only when it lowers the fit's cost by this fraction. A tile is a
// discrete choice made on 17-30 samples next to eight continuous parameters: at 1% the CPU fits
// took tiles such as 16 x 4 that pad a 7x7 plane's 49 rows to 64 and 6x6's 36 to 48, and refits
// of twelve accuracy runs' samples scored on their own measurements gave per-layer medians
// 0.1-0.9 points lower on average per network at 5% (mostly no tile), and 40 of 48 cells under
// 10% against 38 (docs/calibration.md, "Fitting"). A real wave quantization (a GPU's) lowers
// the cost far more.
constexpr double kLargerTileGain = 0.05;
// Rounds of a target's own tile choice at the parameters found (fit_class).
constexpr int kTileRounds = 3;
// A pass part gets a class of its own (per_pass_classes) only with this many samples, as many
// as the full GEMM model has parameters; else the parts are fitted together.
constexpr int kMinPartSamples = 8;

Calibration frame_of(const FitOptions &opts) {
  Calibration c;
  c.memory_levels = opts.memory_levels;
  c.cores = std::max(1, opts.cores);
  c.target = opts.target;
  if (opts.hw)
    c.hardware = opts.hw->name;
  return c;
}

// The sample as one of the calls it times (one_call): its time divided among them. The log-time
// residual of N calls against N times one call's time is the one call's, so the fit works on
// single calls.
Sample one_call_sample(const Calibration &frame, const Sample &s) {
  double calls = 1;
  Sample one = s;
  one.set_features(one_call(frame, s.features(), &calls));
  one.seconds = s.seconds / calls;
  return one;
}

// Whether the frame's target chooses the tiles of the samples' GEMM-like calls itself
// (ExecutionTarget::tile_call): then the fit has no tile grid of its own.
bool target_chooses_tiles(const Calibration &frame, const std::vector<Sample> &samples) {
  for (const Sample &s : samples) {
    const KernelFeatures f = s.features();
    if (!f.gemm || !is_gemm_class(f.op_class) || f.gemm->m <= 0 || f.gemm->n <= 0 || f.gemm->k <= 0)
      continue;
    EfficiencyTerms e;
    return frame.execution_target().tile_call(frame, f, nullptr, &e);
  }
  return false;
}

// The FLOPs and bytes of the single calls a class was fitted on.
FittedRange fitted_range(const std::vector<Sample> &calls) {
  FittedRange r{calls[0].flops, calls[0].flops, calls[0].bytes, calls[0].bytes};
  for (const Sample &s : calls) {
    r.flops_min = std::min(r.flops_min, s.flops);
    r.flops_max = std::max(r.flops_max, s.flops);
    r.bytes_min = std::min(r.bytes_min, s.bytes);
    r.bytes_max = std::max(r.bytes_max, s.bytes);
  }
  return r;
}

} // namespace

std::vector<std::string> at_bound_lines(const ClassCalibration &cc) {
  std::vector<std::string> lines;
  for (const ParameterAtBound &b : cc.at_bound) {
    char value[32];
    std::snprintf(value, sizeof value, "%.3g", b.value);
    lines.push_back(std::string(to_string(cc.op_class)) + "/" + std::string(to_string(cc.dtype)) +
                    ": " + b.parameter + " " + value + " is on its " +
                    (b.upper ? "upper" : "lower") + " bound, " + b.limit);
  }
  return lines;
}

FitOptions fit_options_for(const HwSpec &hw) {
  FitOptions o;
  for (size_t i = 0; i < hw.memory.size(); ++i)
    o.memory_levels.push_back(
        {hw.memory[i].name, i + 1 == hw.memory.size() ? 0.0 : hw.memory[i].capacity_bytes});
  o.cores = std::max(1, hw.units);
  o.target = &targets::for_hardware_kind(hw.kind);
  o.hw = &hw;
  return o;
}

double cache_bytes_for(const HwSpec &hw) {
  return outermost_cache_bytes(fit_options_for(hw).memory_levels);
}

double model_seconds(const Calibration &cal, const EfficiencyParams &p, const KernelFeatures &all) {
  double calls = 1;
  const KernelFeatures f = one_call(cal, all, &calls);
  const EfficiencyTerms e = efficiency_terms(cal, p.tile_m, p.tile_n, f, &p);
  return calls * efficiency_seconds(e, f, p, p.overhead_seconds);
}

FitStats fit_stats(const Calibration &cal, const std::vector<Sample> &samples) {
  FitStats st;
  double sum_sq = 0, sum_abs = 0;
  for (const Sample &s : samples) {
    const ClassCalibration *cc = cal.find_for_pass(s.op_class, s.dtype, s.pass);
    if (!cc || cc->op_class != s.op_class)
      continue;
    const double pred = model_seconds(cal, cc->params, s.features());
    const double rel = std::abs(pred - s.seconds) / s.seconds;
    const double lg = std::log(pred / s.seconds);
    sum_sq += lg * lg;
    sum_abs += rel;
    st.max_error = std::max(st.max_error, rel);
    ++st.samples;
  }
  if (st.samples) {
    st.rms_log_error = std::sqrt(sum_sq / st.samples);
    st.mape = sum_abs / st.samples;
  }
  return st;
}

ClassCalibration fit_class(const std::vector<Sample> &timed, const FitOptions &opts) {
  if (timed.empty())
    throw InputError("no samples to fit");
  if (opts.memory_levels.empty())
    throw InputError("the fit needs at least one memory level");
  for (const Sample &s : timed)
    if (!(s.seconds > 0) || !std::isfinite(s.seconds))
      throw InputError(s.source + ": error: measured time must be positive");
  const Calibration frame = frame_of(opts);
  std::vector<Sample> samples; // single calls
  for (const Sample &s : timed)
    samples.push_back(one_call_sample(frame, s));
  ClassCalibration cc;
  cc.op_class = samples[0].op_class;
  cc.dtype = samples[0].dtype;
  std::vector<double> tms{1}, tns{1};
  const bool own_tiles = target_chooses_tiles(frame, samples);
  if (is_gemm_class(cc.op_class) && !own_tiles) {
    tms = opts.tile_m_candidates;
    tns = opts.tile_n_candidates;
  }
  // Too few samples for the full GEMM model (peak, sizes, bandwidths, lowering, overlap,
  // overhead): fit the simple one rather than a curve through every point.
  const bool simple = is_gemm_class(cc.op_class) && int(samples.size()) < kMinSamplesFullGemm;
  bool first = true;
  Solved best;
  EfficiencyParams choice; // the parameters the target's tiles were last chosen by
  double best_tm = 1, best_tn = 1;
  int best_start = 0;
  // Two starts, since the max() in the model has local minima: GEMM-like classes from small
  // and large Hockney sizes, streaming classes from a compute-bound and a memory-bound peak.
  const bool gemm = is_gemm_class(cc.op_class);
  const std::pair<double, double> starts[2] = {{8.0, 1.2},
                                               gemm ? std::pair{64.0, 1.2} : std::pair{8.0, 10.0}};
  for (double tm : tms)
    for (double tn : tns) {
      Solved tile_best; // the better of the two starts at this tile
      int tile_start = 0;
      for (int i = 0; i < 2; ++i) {
        Solved s = solve(samples, opts, frame, tm, tn, starts[i].first, starts[i].second, simple);
        if (i == 0 || s.cost < tile_best.cost)
          tile_best = s, tile_start = i;
      }
      // Prefer the smaller tile unless the larger one explains the data clearly better.
      if (first || tile_best.cost < best.cost * (1 - kLargerTileGain))
        best = tile_best, best_tm = tm, best_tn = tn, best_start = tile_start;
      first = false;
    }
  // A target that chooses its tiles per call (tile_call) chose them by the work alone: solved
  // again with the tiles its model finds fastest at the parameters found, while that lowers
  // the cost.
  for (int round = 0; own_tiles && round < kTileRounds; ++round) {
    const EfficiencyParams at = best.params;
    Solved s = solve(samples, opts, frame, 1, 1, starts[best_start].first,
                     starts[best_start].second, simple, false, &at);
    if (!(s.cost < best.cost))
      break;
    best = s;
    choice = best.params;
  }
  // A memory level above its spec's bandwidth: the best tiles solved again with every level
  // capped (solve's inner_caps).
  if (opts.hw)
    for (size_t l = 0; l < best.params.bytes_per_second.size(); ++l)
      if (const SpecLimit c = bandwidth_limit(*opts.hw, l);
          c.value > 0 && best.params.bytes_per_second[l] > c.value * (1 + 1e-9)) {
        best = solve(samples, opts, frame, best_tm, best_tn, starts[best_start].first,
                     starts[best_start].second, simple, true, own_tiles ? &choice : nullptr);
        break;
      }
  cc.params = best.params;
  cc.at_bound = best.at_bound;
  cc.fitted_range = fitted_range(samples);
  Calibration one = frame;
  one.classes.push_back(cc);
  cc.stats = fit_stats(one, timed);
  return cc;
}

Calibration fit_calibration(const std::vector<Sample> &samples, const FitOptions &given) {
  Calibration cal = frame_of(given);
  // One group per class x dtype, and per pass part where the target fits the parts apart, the
  // samples hold several and each has at least kMinPartSamples (ClassCalibration::pass; -1:
  // every part).
  std::map<std::pair<int, int>, std::map<int, int>> parts;
  for (const Sample &s : samples)
    ++parts[{int(s.op_class), int(s.dtype)}][int(s.pass)];
  const bool per_pass = cal.execution_target().per_pass_classes();
  auto apart = [&](const Sample &s) {
    const std::map<int, int> &n = parts[{int(s.op_class), int(s.dtype)}];
    if (!per_pass || n.size() < 2)
      return false;
    for (const auto &[part, count] : n)
      if (count < std::max(kMinPartSamples, given.min_samples))
        return false;
    return true;
  };
  std::map<std::tuple<int, int, int>, std::vector<Sample>> groups;
  for (const Sample &s : samples)
    groups[{int(s.op_class), int(s.dtype), apart(s) ? int(s.pass) : -1}].push_back(s);
  // The target's DRAM-stream term, where not given: the DRAM bandwidth of the fp32
  // data-movement class (copies that reach DRAM: the microbenchmarks' 64 and 192 MiB), fitted
  // first; none without it.
  FitOptions opts = given;
  std::map<std::tuple<int, int, int>, ClassCalibration> fitted;
  const std::tuple<int, int, int> streams{int(OpClass::data_movement), int(DType::fp32), -1};
  const std::string stream_term(cal.execution_target().dram_stream_term());
  const auto known = opts.given_term_rates.find(stream_term);
  const bool stream_rate_given = known != opts.given_term_rates.end() && known->second > 0;
  if (!stream_term.empty() && !stream_rate_given && groups.count(streams) &&
      int(groups[streams].size()) >= opts.min_samples) {
    fitted[streams] = fit_class(groups[streams], opts);
    opts.given_term_rates[stream_term] = fitted[streams].params.bytes_per_second.back();
  }
  for (const auto &[key, group] : groups) {
    const int part = std::get<2>(key);
    const std::string name = std::string(to_string(group[0].op_class)) + "/" +
                             std::string(to_string(group[0].dtype)) +
                             (part >= 0 ? "/" + std::string(to_string(KernelPart(part))) : "");
    if (int(group.size()) < opts.min_samples) {
      if (opts.progress)
        opts.progress("skipped " + name + ": " + std::to_string(group.size()) + " samples");
      continue;
    }
    ClassCalibration cc = fitted.count(key) ? fitted[key] : fit_class(group, opts);
    if (part >= 0)
      cc.pass = KernelPart(part);
    if (opts.progress) {
      char line[200];
      std::snprintf(line, sizeof line, "fitted %s: %zu samples, MAPE %.1f%%, max %.1f%%",
                    name.c_str(), group.size(), 100 * cc.stats.mape, 100 * cc.stats.max_error);
      opts.progress(line);
      for (const std::string &b : at_bound_lines(cc))
        opts.progress("  " + b);
    }
    cal.classes.push_back(std::move(cc));
  }
  cal.stats = fit_stats(cal, samples);
  return cal;
}

} // namespace perfmodel::calibrate
