// One Ceres solve of the efficiency model at fixed GEMM tiles (fit.cpp's fit_class runs it over
// the tile grid and two starts): the log-time residuals, the bandwidths' monotone steps and weak
// priors, the starting point, the bounds, and what the samples can tell apart.
#include "calibrate/fit_solve.hpp"

#include <ceres/ceres.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

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
  return s;
}

bool varies(const std::vector<Sample> &samples, int64_t GemmShape::*dim) {
  std::set<int64_t> seen;
  for (const Sample &s : samples)
    if (s.gemm)
      seen.insert((*s.gemm).*dim);
  return seen.size() > 1;
}

// Whether the samples are windowed pools over planes of more than one size (then the plane's
// Hockney size is told apart from the overhead and the bandwidths).
bool plane_varies(const std::vector<Sample> &samples) {
  std::set<double> seen;
  for (const Sample &s : samples)
    if (s.op_class == OpClass::pool && s.plane_elements > 0)
      seen.insert(s.plane_elements);
  return seen.size() > 1;
}

} // namespace

Solved solve(const std::vector<Sample> &samples, const FitOptions &opts, const Calibration &frame,
             double tile_m, double tile_n, double half_start, double peak_scale, bool simple) {
  const bool gemm = is_gemm_class(samples[0].op_class);
  const Start st = starting_point(samples, opts, frame);
  const size_t levels = frame.memory_levels.size();
  double log_peak = std::log(st.peak * peak_scale);
  double log_halves[3] = {std::log(half_start), std::log(half_start), std::log(half_start)};
  double lowering = 1.0, overlap = 0.5, log_overhead = std::log(st.overhead);

  // The levels the samples reach, innermost first; the outermost one's log bandwidth is a
  // parameter, each inner one's is a step (>= 0) above the next outer one's.
  std::vector<EfficiencyTerms> terms;
  std::vector<KernelFeatures> calls;
  std::vector<bool> level_used(levels, false);
  bool any_flops = false, any_lowered = false;
  for (const Sample &s : samples) {
    calls.push_back(s.features());
    terms.push_back(efficiency_terms(frame, tile_m, tile_n, calls.back()));
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
  double log_bw_outer = std::log(st.bw[used.back()]);
  std::vector<double> step(used.size() - 1);   // step[i]: used[i] over used[i + 1]
  const double max_step = std::log(1e4);       // a level at most 1e4 x the next one out
  for (size_t i = 0; i + 1 < used.size(); ++i) // start inside the bounds
    step[i] = std::clamp(std::log(st.bw[used[i]]) - std::log(st.bw[used[i + 1]]), 0.0, max_step);

  ceres::Problem problem;
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
  // Streaming classes: where FLOPs grow in step with bytes a fitted peak and overlap would only
  // trade places with the bandwidths; the peak is then the spec's (or far above every observed
  // rate). Where the intensity varies (pools: 2x2 vs 3x3 windows) the peak is fitted too.
  // Compute never overlaps badly in a streaming loop: overlap 0.
  if (!gemm) {
    overlap = 0;
    problem.SetParameterBlockConstant(&overlap);
    if (intensity_spread(samples) < kStreamingPeakSpread) {
      log_peak = std::log(st.vector_peak);
      problem.SetParameterBlockConstant(&log_peak);
    } else {
      problem.SetParameterLowerBound(&log_peak, 0, std::log(st.peak) - std::log(100.0));
      problem.SetParameterUpperBound(&log_peak, 0, std::log(st.vector_peak));
      log_peak = std::min(log_peak, std::log(st.vector_peak)); // start inside the bounds
    }
  } else if (!any_flops) {
    problem.SetParameterBlockConstant(&log_peak);
  } else {
    problem.SetParameterLowerBound(&log_peak, 0, std::log(st.peak) - std::log(100.0));
    problem.SetParameterUpperBound(&log_peak, 0, std::log(st.peak) + std::log(100.0));
  }
  const bool fit_halves = gemm && !simple &&
                          (varies(samples, &GemmShape::m) || varies(samples, &GemmShape::n) ||
                           varies(samples, &GemmShape::k));
  const bool planes = plane_varies(samples); // a windowed pool's plane size: m_half
  if (planes) {
    log_halves[1] = log_halves[2] = std::log(kTinyHalf);
    problem.SetManifold(log_halves, new ceres::SubsetManifold(3, {1, 2}));
    problem.SetParameterLowerBound(log_halves, 0, std::log(kTinyHalf));
    problem.SetParameterUpperBound(log_halves, 0, std::log(1e5));
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
    for (int i = 0; i < 3; ++i) {
      problem.SetParameterLowerBound(log_halves, i, std::log(kTinyHalf));
      problem.SetParameterUpperBound(log_halves, i, std::log(1e5));
    }
  }
  problem.SetParameterLowerBound(&log_bw_outer, 0, log_bw_outer - std::log(100.0));
  problem.SetParameterUpperBound(&log_bw_outer, 0, log_bw_outer + std::log(100.0));
  for (double &x : step) {
    problem.SetParameterLowerBound(&x, 0, 0.0);
    problem.SetParameterUpperBound(&x, 0, max_step);
  }
  if (any_lowered) {
    problem.SetParameterLowerBound(&lowering, 0, 0.0);
    problem.SetParameterUpperBound(&lowering, 0, 16.0);
  } else {
    lowering = 0;
    problem.SetParameterBlockConstant(&lowering);
  }
  if (gemm && simple) {
    overlap = 0;
    problem.SetParameterBlockConstant(&overlap);
  } else if (gemm) {
    problem.SetParameterLowerBound(&overlap, 0, 0.0);
    problem.SetParameterUpperBound(&overlap, 0, 1.0);
  }
  for (size_t j = 0; j < rules.size(); ++j) {
    double *x = &log_term[j];
    if (rules[j].kind == TermFitRule::Kind::held) {
      problem.SetParameterBlockConstant(x);
    } else if (rules[j].kind == TermFitRule::Kind::fitted) {
      const TermFitRule &r = rules[j];
      problem.SetParameterLowerBound(x, 0,
                                     r.below > 0 ? *x - std::log(r.below) : std::log(r.lower));
      problem.SetParameterUpperBound(x, 0,
                                     r.above > 0 ? *x + std::log(r.above) : std::log(r.upper));
      if (rules[j].prior)
        add_log_rate_prior(problem, *x, {x});
    }
  }
  problem.SetParameterLowerBound(&log_overhead, 0, std::log(1e-10));
  problem.SetParameterUpperBound(&log_overhead, 0, std::log(1.0));

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

  Solved out;
  out.cost = summary.final_cost;
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
  // The fitted levels' bandwidths, inward from the outermost; levels no sample reached take the
  // bandwidth of the nearest level that was fitted.
  std::vector<double> log_bw(levels, 0.0);
  double acc = log_bw_outer;
  for (size_t i = used.size(); i-- > 0;) {
    if (i + 1 < used.size())
      acc += step[i];
    log_bw[used[i]] = acc;
  }
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
  }
  return out;
}

} // namespace perfmodel::calibrate
