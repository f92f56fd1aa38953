// One Ceres solve of the efficiency model at fixed GEMM tiles (fit.cpp's fit_class runs it over
// the tile grid and two starts): the log-time residuals, the bandwidths' monotone steps and weak
// priors, the starting point, the bounds (the hardware spec's, calibrate/bounds.hpp, and the
// search range's), which parameters end on one, and what the samples can tell apart.
#include "calibrate/fit_solve.hpp"

#include <ceres/ceres.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "perfmodel/calibrate/bounds.hpp"
#include "perfmodel/error.hpp"

namespace perfmodel::calibrate {

namespace {

constexpr double kTinyHalf = 1e-3; // a half-performance size this small means "no effect"
// Weight of the bandwidth prior, in log units against the samples' log-time residuals: a level
// whose samples bind on memory moves it freely (each sample weighs 1/0.05^2 = 400 times more),
// a level no sample is memory-bound on (a compute-bound GEMM class) stays at the spec's figure
// instead of drifting to a bound.
constexpr double kBandwidthPriorWeight = 0.05;

// The log bandwidth of a fitted level: the outermost fitted level's (p[first]) plus the `steps`
// steps that follow it in the parameter blocks (each >= 0, one per level between).
template <class T> T level_log_bw(T const *const *p, int first, int steps) {
  T log_bw = p[first][0];
  for (int i = 1; i <= steps; ++i)
    log_bw += p[first + i][0];
  return log_bw;
}

// Residual of one sample: log(predicted / measured). Rates, sizes and the overhead are fitted
// as logarithms (positive, and scaled alike whatever their unit); lowering and overlap as is.
// The bandwidth of the sample's memory level is the outermost fitted level's plus the steps up
// to its own (each >= 0: a level never streams slower than the one outside it), so the blocks
// are: log_peak, log_halves[3], lowering, overlap, log_overhead, the log rates of the target
// terms that have a block (fitted or held: TermFitRule), log_bw of the outermost fitted level,
// then `steps` steps (ceres::DynamicAutoDiffCostFunction: their count depends on the level).
struct LogTimeResidual {
  EfficiencyTerms terms;
  KernelFeatures features;
  double log_measured = 0;
  // Per target term: its block among the term blocks (-1: none), else its constant rate (a
  // given rate, or 0 for an absent term).
  std::vector<int> term_block;
  std::vector<double> term_constant;
  int term_blocks = 0;
  int steps = 0;

  template <class T> bool operator()(T const *const *p, T *residual) const {
    using std::exp;
    using std::log;
    constexpr int kFirstTerm = 5;
    std::vector<T> rates(term_block.size());
    for (size_t j = 0; j < rates.size(); ++j)
      rates[j] = term_block[j] >= 0 ? exp(p[kFirstTerm + term_block[j]][0]) : T(term_constant[j]);
    const ModelRates<T> r{exp(p[0][0]),
                          exp(p[1][0]),
                          exp(p[1][1]),
                          exp(p[1][2]),
                          exp(level_log_bw(p, kFirstTerm + term_blocks, steps)),
                          p[2][0],
                          p[3][0],
                          exp(p[4][0])};
    const T t = efficiency_seconds<T>(terms, features, r, rates.data());
    residual[0] = log(t) - T(log_measured);
    return true;
  }
};

// A weak prior on a fitted log rate: weight * (log_rate - log prior), the rate being the sum of
// its blocks (a bandwidth: the outermost fitted level's log bandwidth and the steps up to this
// level; the cross-core rate: its one block).
struct LogRatePrior {
  double log_prior = 0;
  int steps = 0;

  template <class T> bool operator()(T const *const *p, T *residual) const {
    residual[0] = T(kBandwidthPriorWeight) * (level_log_bw(p, 0, steps) - T(log_prior));
    return true;
  }
};

// Adds a LogRatePrior over `blocks` (no robust loss: a prior is no outlier).
void add_log_rate_prior(ceres::Problem &problem, double log_prior,
                        const std::vector<double *> &blocks) {
  auto *prior = new LogRatePrior;
  prior->log_prior = log_prior;
  prior->steps = int(blocks.size()) - 1;
  auto *cost = new ceres::DynamicAutoDiffCostFunction<LogRatePrior, 4>(prior);
  for (size_t j = 0; j < blocks.size(); ++j)
    cost->AddParameterBlock(1);
  cost->SetNumResiduals(1);
  problem.AddResidualBlock(cost, nullptr, blocks);
}

// The parameter blocks level_log_bw reads for fitted level u (of `step.size() + 1`): the
// outermost fitted level's log bandwidth, then the steps from level u outward.
std::vector<double *> bandwidth_blocks(double *log_bw_outer, std::vector<double> &step, size_t u) {
  std::vector<double *> blocks = {log_bw_outer};
  for (size_t j = u; j < step.size(); ++j)
    blocks.push_back(&step[j]);
  return blocks;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// The bounds given to Ceres, kept to tell after the solve which parameters ended on one. A
// bound without words (`lower_why` empty) is the model's shape, not a limit on the parameter
// (a Hockney size at its floor means "no effect"), and is not reported.
class Bounds {
public:
  explicit Bounds(ceres::Problem &problem) : problem_(problem) {}

  // Whether the cost, at the solution, would fall past the bound x[i] is on (its slope points
  // out of the box): only then does the bound hold the parameter back. A level's bandwidth
  // that its weak prior holds at the spec's figure, with no sample bound on it, sits on the cap
  // without being held there. Blocks with a manifold (tangent coordinates) are judged by their
  // position alone.
  bool holds_back(double *x, int i, bool upper) const {
    if (problem_.HasManifold(x))
      return true;
    ceres::Problem::EvaluateOptions eo;
    eo.parameter_blocks = {x};
    double cost = 0;
    std::vector<double> gradient;
    problem_.Evaluate(eo, &cost, nullptr, &gradient, nullptr);
    constexpr double kSlope = 1e-8; // d cost / d x, x a log rate or a fraction
    return size_t(i) < gradient.size() &&
           (upper ? gradient[size_t(i)] < -kSlope : gradient[size_t(i)] > kSlope);
  }

  // Bounds x[i] (a logarithm when `log`) to [lo, hi] and moves it inside them.
  void set(double *x, int i, double lo, double hi, std::string name, std::string lower_why,
           std::string upper_why, bool log = true) {
    lo = std::min(lo, hi);
    problem_.SetParameterLowerBound(x, i, lo);
    problem_.SetParameterUpperBound(x, i, hi);
    x[i] = std::clamp(x[i], lo, hi);
    entries_.push_back(
        {x, i, lo, hi, log, std::move(name), std::move(lower_why), std::move(upper_why)});
  }

  // The parameters on a bound after the solve, in the order they were bounded.
  std::vector<ParameterAtBound> at_bound() const {
    constexpr double kOnBound = 1e-5; // in log units: 0.001%; lowering and overlap: absolute
    std::vector<ParameterAtBound> out;
    for (const Entry &e : entries_) {
      const double v = e.x[e.i];
      const double value = e.log ? std::exp(v) : v;
      if (!e.upper_why.empty() && v >= e.hi - kOnBound && holds_back(e.x, e.i, true))
        out.push_back({e.name, true, value, e.upper_why});
      else if (!e.lower_why.empty() && v <= e.lo + kOnBound && holds_back(e.x, e.i, false))
        out.push_back({e.name, false, value, e.lower_why});
    }
    return out;
  }

private:
  struct Entry {
    double *x;
    int i;
    double lo, hi;
    bool log;
    std::string name, lower_why, upper_why;
  };
  ceres::Problem &problem_;
  std::vector<Entry> entries_;
};

ceres::LossFunction *make_loss(const FitOptions &o) {
  if (o.loss == "none")
    return nullptr;
  if (o.loss == "cauchy")
    return new ceres::CauchyLoss(o.loss_scale);
  if (o.loss == "huber")
    return new ceres::HuberLoss(o.loss_scale);
  if (o.loss == "soft_l1")
    return new ceres::SoftLOneLoss(o.loss_scale);
  throw InputError("unknown loss '" + o.loss + "' (soft_l1, cauchy, huber or none)");
}

constexpr double kStreamingPeakSpread = 2.0; // max/min FLOP per byte above which it is fitted
// Ratio of the largest to the smallest arithmetic intensity among samples that compute.
double intensity_spread(const std::vector<Sample> &samples) {
  double lo = 0, hi = 0;
  for (const Sample &s : samples) {
    if (!(s.flops > 0) || !(s.bytes > 0))
      continue;
    const double ai = s.flops / s.bytes;
    lo = lo == 0 ? ai : std::min(lo, ai);
    hi = std::max(hi, ai);
  }
  return lo > 0 ? hi / lo : 1.0;
}

struct Start {
  double peak = 1e9;
  double vector_peak = 1e9; // peak of the streaming classes (not fitted)
  std::vector<double> bw;
  double overhead = 1e-7;
  double fastest = 1.0; // the fastest sample's seconds (the most the overhead can be)
};

// Starting point: the best rates observed (a lower bound of the peaks), else the hw spec.
Start starting_point(const std::vector<Sample> &samples, const FitOptions &opts,
                     const Calibration &frame) {
  Start s;
  const size_t levels = frame.memory_levels.size();
  s.bw.assign(levels, 0.0);
  double best_rate = 0, min_t = 1e30;
  for (const Sample &x : samples) {
    best_rate = std::max(best_rate, x.flops / x.seconds);
    const size_t l = efficiency_terms(frame, 1, 1, x.features()).level; // the model's own rule
    s.bw[l] = std::max(s.bw[l], (x.bytes + x.lowered_bytes) / x.seconds);
    min_t = std::min(min_t, x.seconds);
  }
  if (best_rate > 0)
    s.peak = 1.2 * best_rate;
  else if (opts.hw && !samples.empty())
    if (auto u = opts.hw->best_unit(samples[0].dtype, is_gemm_class(samples[0].op_class)))
      s.peak = u->flops_per_second;
  s.vector_peak = 100 * s.peak;
  if (opts.hw && !samples.empty())
    if (auto u = opts.hw->best_unit(samples[0].dtype, false))
      s.vector_peak = std::max(u->flops_per_second, s.vector_peak / 100);
  for (size_t l = 0; l < levels; ++l) {
    if (s.bw[l] > 0)
      s.bw[l] *= 1.2;
    else if (opts.hw && l < opts.hw->memory.size())
      s.bw[l] = opts.hw->memory[l].bytes_per_second;
    else
      s.bw[l] = 1e10;
  }
  s.overhead = std::max(1e-9, 0.1 * min_t);
  s.fastest = std::min(1.0, min_t);
  return s;
}

bool varies(const std::vector<Sample> &samples, int64_t GemmShape::*dim) {
  std::set<int64_t> seen;
  for (const Sample &s : samples)
    if (s.gemm)
      seen.insert((*s.gemm).*dim);
  return seen.size() > 1;
}

// Whether the calls have planes (EfficiencyTerms::plane: a windowed pool's input plane, or the
// target's, ExecutionTarget::plane_of) of more than one size: then the plane's Hockney size is
// told apart from the overhead and the bandwidths.
bool plane_varies(const std::vector<EfficiencyTerms> &terms) {
  std::set<double> seen;
  for (const EfficiencyTerms &e : terms)
    if (e.plane > 0)
      seen.insert(e.plane);
  return seen.size() > 1;
}

} // namespace

Solved solve(const std::vector<Sample> &samples, const FitOptions &opts, const Calibration &frame,
             double tile_m, double tile_n, double half_start, double peak_scale, bool simple,
             bool inner_caps, const EfficiencyParams *choice) {
  const bool gemm = is_gemm_class(samples[0].op_class);
  const Start st = starting_point(samples, opts, frame);
  const size_t levels = frame.memory_levels.size();
  double log_peak = std::log(st.peak * peak_scale);
  double log_halves[3] = {std::log(half_start), std::log(half_start), std::log(half_start)};
  double lowering = 1.0, overlap = 0.5, log_overhead = std::log(st.overhead);
  // What the spec allows (none without a spec): the peak, and each level's bandwidth.
  const SpecLimit peak_cap =
      opts.hw ? peak_limit(*opts.hw, samples[0].op_class, samples[0].dtype) : SpecLimit{};
  auto level_cap = [&](size_t l) { return opts.hw ? bandwidth_limit(*opts.hw, l) : SpecLimit{}; };

  // The levels the samples reach, innermost first; the outermost one's log bandwidth is a
  // parameter, each inner one's is a step (>= 0) above the next outer one's.
  std::vector<EfficiencyTerms> terms;
  std::vector<KernelFeatures> calls;
  std::vector<bool> level_used(levels, false);
  bool any_flops = false, any_lowered = false;
  for (const Sample &s : samples) {
    calls.push_back(s.features());
    terms.push_back(efficiency_terms(frame, tile_m, tile_n, calls.back(), choice));
    level_used[terms.back().level] = true;
    any_flops = any_flops || s.flops > 0;
    any_lowered = any_lowered || s.lowered_bytes > 0;
  }
  std::vector<size_t> used; // innermost first
  for (size_t l = 0; l < levels; ++l)
    if (level_used[l])
      used.push_back(l);
  // The target's terms: how each one's rate enters this solve (fit_rules), and a log-rate block
  // for each one fitted or held.
  const std::vector<TermFitRule> rules =
      frame.execution_target().fit_rules({&calls, &terms, gemm, &opts.given_term_rates});
  std::vector<double> log_term(rules.size(), 0.0);
  std::vector<int> term_block(rules.size(), -1);
  std::vector<double> term_constant(rules.size(), 0.0);
  std::vector<double *> term_blocks;
  for (size_t j = 0; j < rules.size(); ++j) {
    const TermFitRule &rule = rules[j];
    if (rule.kind == TermFitRule::Kind::given)
      term_constant[j] = rule.start;
    if (rule.kind != TermFitRule::Kind::fitted && rule.kind != TermFitRule::Kind::held)
      continue;
    log_term[j] = std::log(rule.start);
    term_block[j] = int(term_blocks.size());
    term_blocks.push_back(&log_term[j]);
  }
  // The outermost fitted level: within 100x of its start, and at most its spec bandwidth.
  const size_t outer = used.back();
  double log_bw_outer = std::log(st.bw[outer]);
  const double bw_outer_lo = log_bw_outer - std::log(100.0);
  double bw_outer_hi = log_bw_outer + std::log(100.0);
  std::string bw_outer_hi_why = "100x over its start (the fastest sample's rate or the spec's)";
  if (const SpecLimit c = level_cap(outer); c.value > 0 && std::log(c.value) < bw_outer_hi) {
    bw_outer_hi = std::log(c.value);
    bw_outer_hi_why = c.what;
  }
  // The inner levels' caps, outward in: the spec's bandwidth, never under the cap outside it
  // (a level streams no slower than the one outside it); none without a spec. log_cap[i] is
  // used[i]'s.
  std::vector<double> log_cap(used.size() - 1, 0.0);
  std::vector<std::string> cap_why(used.size() - 1);
  double outside_cap = bw_outer_hi;
  for (size_t i = used.size() - 1; i-- > 0;) {
    const SpecLimit c = level_cap(used[i]);
    if (!(c.value > 0)) {
      log_cap[i] = HUGE_VAL;
      continue;
    }
    log_cap[i] = std::max(std::log(c.value), outside_cap);
    cap_why[i] = std::log(c.value) >= outside_cap
                     ? c.what
                     : "the cap of the level outside it (a level streams no slower than that)";
    outside_cap = log_cap[i];
  }
  std::vector<double> step(used.size() - 1);   // step[i]: used[i] over used[i + 1]
  const double max_step = std::log(1e4);       // a level at most 1e4 x the next one out
  for (size_t i = 0; i + 1 < used.size(); ++i) // start inside the bounds
    step[i] = std::clamp(std::log(st.bw[used[i]]) - std::log(st.bw[used[i + 1]]), 0.0, max_step);
  // Each step's upper bound: max_step, lowered (step_cap) where its level would pass its cap.
  std::vector<double> step_hi(step.size(), max_step);

  ceres::Problem problem;
  Bounds bounds(problem);
  // One loss for every residual (the problem owns it once): made before any cost function, so
  // that an unknown loss throws before anything is allocated.
  ceres::LossFunction *loss = make_loss(opts);
  for (size_t i = 0; i < samples.size(); ++i) {
    auto *r = new LogTimeResidual;
    r->features = samples[i].features();
    r->terms = terms[i];
    r->log_measured = std::log(samples[i].seconds);
    r->term_block = term_block;
    r->term_constant = term_constant;
    r->term_blocks = int(term_blocks.size());
    const size_t u = size_t(std::find(used.begin(), used.end(), terms[i].level) - used.begin());
    r->steps = int(step.size() - u);
    std::vector<double *> blocks = {&log_peak, log_halves, &lowering, &overlap, &log_overhead};
    blocks.insert(blocks.end(), term_blocks.begin(), term_blocks.end());
    const std::vector<double *> bw = bandwidth_blocks(&log_bw_outer, step, u);
    blocks.insert(blocks.end(), bw.begin(), bw.end());
    auto *cost = new ceres::DynamicAutoDiffCostFunction<LogTimeResidual, 4>(r);
    for (int size : {1, 3, 1, 1, 1})
      cost->AddParameterBlock(size);
    for (size_t j = 0; j < term_blocks.size() + bw.size(); ++j)
      cost->AddParameterBlock(1);
    cost->SetNumResiduals(1);
    problem.AddResidualBlock(cost, loss, blocks);
  }
  // The spec's bandwidth of each fitted level as a weak prior.
  if (opts.hw)
    for (size_t u = 0; u < used.size(); ++u) {
      if (used[u] >= opts.hw->memory.size() || !(opts.hw->memory[used[u]].bytes_per_second > 0))
        continue;
      add_log_rate_prior(problem, std::log(opts.hw->memory[used[u]].bytes_per_second),
                         bandwidth_blocks(&log_bw_outer, step, u));
    }
  // The peak: within 100x of the fastest sample's rate and at most what the spec allows.
  double peak_hi = std::log(st.peak) + std::log(100.0);
  std::string peak_hi_why = "100x over the fastest sample's rate";
  const std::string peak_lo_why = "100x under the fastest sample's rate";
  // Streaming classes: where FLOPs grow in step with bytes a fitted peak and overlap would only
  // trade places with the bandwidths; the peak is then the spec's (or far above every observed
  // rate), within what the spec allows. Where the intensity varies (pools: 2x2 vs 3x3 windows)
  // the peak is fitted too. Compute never overlaps badly in a streaming loop: overlap 0.
  if (!gemm) {
    overlap = 0;
    problem.SetParameterBlockConstant(&overlap);
    peak_hi = std::log(st.vector_peak);
    peak_hi_why = "the fastest sample's rate or the spec's vector peak";
  }
  if (peak_cap.value > 0 && std::log(peak_cap.value) < peak_hi) {
    peak_hi = std::log(peak_cap.value);
    peak_hi_why = peak_cap.what;
  }
  if (!gemm && intensity_spread(samples) < kStreamingPeakSpread) {
    log_peak = peak_hi;
    problem.SetParameterBlockConstant(&log_peak);
  } else if (gemm && !any_flops) {
    problem.SetParameterBlockConstant(&log_peak);
  } else {
    bounds.set(&log_peak, 0, std::log(st.peak) - std::log(100.0), peak_hi, "peak_flops_per_second",
               peak_lo_why, peak_hi_why);
  }
  const bool fit_halves = gemm && !simple &&
                          (varies(samples, &GemmShape::m) || varies(samples, &GemmShape::n) ||
                           varies(samples, &GemmShape::k));
  const bool planes = plane_varies(terms); // the plane's Hockney size: m_half
  const char *half_names[3] = {"m_half", "n_half", "k_half"};
  const std::string half_hi_why = "the search range's 1e5";
  if (planes) {
    log_halves[1] = log_halves[2] = std::log(kTinyHalf);
    problem.SetManifold(log_halves, new ceres::SubsetManifold(3, {1, 2}));
    bounds.set(log_halves, 0, std::log(kTinyHalf), std::log(1e5), half_names[0], "", half_hi_why);
  } else if (!gemm || !fit_halves) {
    for (double &h : log_halves)
      h = std::log(kTinyHalf);
    problem.SetParameterBlockConstant(log_halves);
  } else {
    // A dimension that never changes cannot be told apart from the peak: keep it at zero.
    std::vector<int> fixed;
    int64_t GemmShape::*dims[3] = {&GemmShape::m, &GemmShape::n, &GemmShape::k};
    for (int i = 0; i < 3; ++i)
      if (!varies(samples, dims[i])) {
        log_halves[i] = std::log(kTinyHalf);
        fixed.push_back(i);
      }
    if (!fixed.empty())
      problem.SetManifold(log_halves, new ceres::SubsetManifold(3, fixed));
    for (int i = 0; i < 3; ++i)
      bounds.set(log_halves, i, std::log(kTinyHalf), std::log(1e5), half_names[i], "", half_hi_why);
  }
  bounds.set(&log_bw_outer, 0, bw_outer_lo, bw_outer_hi,
             bandwidth_parameter(frame.memory_levels, outer),
             "100x under its start (the fastest sample's rate or the spec's)", bw_outer_hi_why);
  for (size_t i = 0; i < step.size(); ++i) {
    problem.SetParameterLowerBound(&step[i], 0, 0.0);
    problem.SetParameterUpperBound(&step[i], 0, step_hi[i]);
  }
  if (any_lowered) {
    bounds.set(&lowering, 0, 0.0, 16.0, "lowering_factor", "", "the search range's 16 passes",
               false);
  } else {
    lowering = 0;
    problem.SetParameterBlockConstant(&lowering);
  }
  if (gemm && simple) {
    overlap = 0;
    problem.SetParameterBlockConstant(&overlap);
  } else if (gemm) {
    bounds.set(&overlap, 0, 0.0, 1.0, "overlap", "0: compute and memory overlap fully",
               "1: compute and memory add up", false);
  }
  // A fitted term rate: as the target's rule says, and no faster than the spec's fastest level.
  const SpecLimit term_cap = opts.hw ? term_rate_limit(*opts.hw) : SpecLimit{};
  for (size_t j = 0; j < rules.size(); ++j) {
    double *x = &log_term[j];
    if (rules[j].kind == TermFitRule::Kind::held) {
      problem.SetParameterBlockConstant(x);
    } else if (rules[j].kind == TermFitRule::Kind::fitted) {
      const TermFitRule &r = rules[j];
      const double start = *x;
      double hi = r.above > 0 ? start + std::log(r.above) : std::log(r.upper);
      std::string hi_why = "the target's ceiling for the term";
      if (term_cap.value > 0 && std::log(term_cap.value) < hi) {
        hi = std::log(term_cap.value);
        hi_why = term_cap.what;
      }
      bounds.set(x, 0, r.below > 0 ? start - std::log(r.below) : std::log(r.lower), hi,
                 frame.execution_target().terms()[j].key, "the target's floor for the term",
                 hi_why);
      if (rules[j].prior)
        add_log_rate_prior(problem, start, {x});
    }
  }
  // The overhead: positive (1e-10 s stands for none) and at most the fastest sample's time
  // (docs/calibration.md, "Physical bounds": a bound from each sample's time less its work at
  // the spec's rates was tried and not kept).
  bounds.set(&log_overhead, 0, std::log(1e-10), std::log(st.fastest), "overhead_seconds",
             "0 (1e-10 s: no overhead)", "the fastest sample's time, " + num(st.fastest) + " s");

  ceres::Solver::Options so;
  so.linear_solver_type = ceres::DENSE_QR;
  so.max_num_iterations = opts.max_iterations;
  so.function_tolerance = 1e-12;
  so.parameter_tolerance = 1e-12;
  so.gradient_tolerance = 1e-14;
  so.logging_type = ceres::SILENT;
  so.num_threads = 1;
  ceres::Solver::Summary summary;
  ceres::Solve(so, &problem, &summary);
  // An inner level above its cap: its step's upper bound becomes what leaves it on the cap at
  // the level outside it as solved, and the problem is solved again from there, until no bound
  // moves (Ceres bounds are boxes; a level's cap less the level outside it is not one).
  std::vector<double> log_bw(levels, 0.0);
  auto level_bandwidths = [&] {
    double acc = log_bw_outer;
    log_bw[outer] = acc;
    for (size_t i = used.size() - 1; i-- > 0;)
      log_bw[used[i]] = acc += step[i];
  };
  std::vector<bool> capped(step.size(), false);
  for (int round = 0; inner_caps && round < 30; ++round) {
    level_bandwidths();
    bool moved = false;
    for (size_t i = step.size(); i-- > 0;) {
      capped[i] = capped[i] || log_bw[used[i]] > log_cap[i] + 1e-9;
      if (!capped[i])
        continue;
      // Re-anchored each round on the level outside it as solved: the level may reach its cap,
      // never pass it.
      const double hi = std::clamp(log_cap[i] - log_bw[used[i + 1]], 0.0, max_step);
      if (std::abs(hi - step_hi[i]) <= 1e-9)
        continue;
      step_hi[i] = hi;
      step[i] = std::min(step[i], hi);
      problem.SetParameterUpperBound(&step[i], 0, hi);
      moved = true;
    }
    if (!moved)
      break;
    ceres::Solve(so, &problem, &summary);
  }

  Solved out;
  out.cost = summary.final_cost;
  out.at_bound = bounds.at_bound();
  EfficiencyParams &p = out.params;
  p.peak_flops_per_second = std::exp(log_peak);
  p.m_half = gemm || planes ? std::exp(log_halves[0]) : 0;
  p.n_half = gemm ? std::exp(log_halves[1]) : 0;
  p.k_half = gemm ? std::exp(log_halves[2]) : 0;
  if (p.m_half <= 1.0001 * kTinyHalf)
    p.m_half = 0;
  if (p.n_half <= 1.0001 * kTinyHalf)
    p.n_half = 0;
  if (p.k_half <= 1.0001 * kTinyHalf)
    p.k_half = 0;
  p.tile_m = tile_m;
  p.tile_n = tile_n;
  p.lowering_factor = lowering;
  p.overlap = overlap;
  p.overhead_seconds = std::exp(log_overhead);
  // The target's term rates: fitted ones as solved, given ones as given, held and absent: 0.
  p.term_rates.assign(rules.size(), 0.0);
  for (size_t j = 0; j < rules.size(); ++j)
    p.term_rates[j] = rules[j].kind == TermFitRule::Kind::fitted  ? std::exp(log_term[j])
                      : rules[j].kind == TermFitRule::Kind::given ? rules[j].start
                                                                  : 0.0;
  // The fitted levels' bandwidths, inward from the outermost (level_log_bw); an inner level
  // whose step a cap lowered, still on it, is reported where the cap holds it back.
  level_bandwidths();
  for (size_t i = used.size() - 1; i-- > 0;)
    if (capped[i] && log_bw[used[i]] >= log_cap[i] - 1e-6 && bounds.holds_back(&step[i], 0, true))
      out.at_bound.push_back({bandwidth_parameter(frame.memory_levels, used[i]), true,
                              std::exp(log_bw[used[i]]), cap_why[i]});
  // Levels no sample reached take the bandwidth of the nearest level that was fitted, but no
  // more than their own spec's.
  p.bytes_per_second.assign(levels, 0.0);
  for (size_t l = 0; l < levels; ++l) {
    size_t best = l;
    for (size_t d = 0; d < levels && !level_used[best]; ++d) {
      if (l >= d && level_used[l - d])
        best = l - d;
      else if (l + d < levels && level_used[l + d])
        best = l + d;
    }
    p.bytes_per_second[l] = std::exp(log_bw[best]);
    if (const SpecLimit c = level_cap(l); !level_used[l] && c.value > 0)
      p.bytes_per_second[l] = std::min(p.bytes_per_second[l], c.value);
  }
  return out;
}

} // namespace perfmodel::calibrate
