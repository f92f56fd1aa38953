#include "perfmodel/calibrate/pass_excess.hpp"

#include <algorithm>

#include <ceres/ceres.h>

namespace perfmodel::calibrate {

namespace {

// (pass - layer_sum - (a * layers + b * layer_sum)) / layer_sum, with a in microseconds so that
// both parameters are of order 1 for the solver.
struct RelativeExcessResidual {
  double layers, layer_sum, pass;
  template <class T> bool operator()(const T *a_us, const T *b, T *r) const {
    r[0] = (T(pass - layer_sum) - (a_us[0] * 1e-6 * layers + b[0] * layer_sum)) / layer_sum;
    return true;
  }
};

} // namespace

std::optional<PassExcess> fit_pass_excess(const std::vector<PassSample> &samples) {
  double lo = 0, hi = 0; // layers per second of layer time, over the samples
  for (const PassSample &s : samples) {
    if (!(s.layers > 0 && s.layer_sum_seconds > 0 && s.pass_seconds > 0))
      return std::nullopt;
    const double density = s.layers / s.layer_sum_seconds;
    lo = lo > 0 ? std::min(lo, density) : density;
    hi = std::max(hi, density);
  }
  if (samples.size() < 2 || hi < 1.1 * lo)
    return std::nullopt;
  double a_us = 1, b = 0.01;
  ceres::Problem problem;
  for (const PassSample &s : samples)
    problem.AddResidualBlock(
        new ceres::AutoDiffCostFunction<RelativeExcessResidual, 1, 1, 1>(
            new RelativeExcessResidual{double(s.layers), s.layer_sum_seconds, s.pass_seconds}),
        nullptr, &a_us, &b);
  problem.SetParameterLowerBound(&a_us, 0, 0.0);
  problem.SetParameterLowerBound(&b, 0, 0.0);
  ceres::Solver::Options so;
  so.linear_solver_type = ceres::DENSE_QR;
  so.function_tolerance = 1e-14;
  so.parameter_tolerance = 1e-12;
  so.logging_type = ceres::SILENT;
  ceres::Solver::Summary summary;
  ceres::Solve(so, &problem, &summary);
  PassExcess out;
  out.per_layer_seconds = a_us * 1e-6;
  out.fraction = b;
  out.networks = int(samples.size());
  return out;
}

} // namespace perfmodel::calibrate
