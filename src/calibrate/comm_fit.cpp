// Collective latency and bus bandwidth from measured times (perfmodel/calibrate/comm_fit.hpp).
#include "perfmodel/calibrate/comm_fit.hpp"

#include <Eigen/Dense>

#include <cmath>
#include <set>

namespace perfmodel::calibrate {

CollectiveFit fit_collective(Collective c, int64_t n, const std::vector<SizeTime> &samples) {
  std::vector<SizeTime> s;
  std::set<double> sizes;
  for (const SizeTime &x : samples)
    if (x.seconds > 0 && x.bytes > 0) {
      s.push_back(x);
      sizes.insert(x.bytes);
    }
  const std::string what(to_string(c));
  if (sizes.size() < 2)
    throw InputError(what + ": fitting latency and bandwidth needs rows of at least two sizes "
                            "with times above 0");
  if (n < 2)
    throw InputError(what + ": a collective among " + std::to_string(n) +
                     " device has no communication to fit");
  // rows scaled by 1/t: residual (a + b x - t) / t; x in GB keeps the columns comparable
  Eigen::MatrixXd A(s.size(), 2);
  Eigen::VectorXd y(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    A(Eigen::Index(i), 0) = 1 / s[i].seconds;
    A(Eigen::Index(i), 1) = s[i].bytes * 1e-9 / s[i].seconds;
    y(Eigen::Index(i)) = 1;
  }
  Eigen::Vector2d p = A.colPivHouseholderQr().solve(y);
  if (p(0) < 0) { // no negative latency: b alone
    const Eigen::VectorXd x = A.col(1);
    p(0) = 0;
    p(1) = x.dot(y) / x.dot(x);
  }
  if (!(p(1) > 0))
    throw InputError(what + ": the times do not grow with the size: no bandwidth to fit");
  CollectiveFit f;
  f.latency_per_step_seconds = p(0) / double(ring_steps(c, n));
  f.bus_bytes_per_second = bus_factor(c, n) / (p(1) * 1e-9);
  f.samples = int64_t(s.size());
  double ss = 0;
  for (const SizeTime &x : s) {
    const double r = (p(0) + p(1) * x.bytes * 1e-9 - x.seconds) / x.seconds;
    ss += r * r;
  }
  f.rms_relative_residual = std::sqrt(ss / double(s.size()));
  return f;
}

CommCalibration fit_nccl_tests(const std::vector<io::NcclTestsRun> &runs, int64_t gpus,
                               std::optional<Collective> given) {
  std::map<Collective, std::vector<SizeTime>> by;
  for (const io::NcclTestsRun &r : runs) {
    if (r.ranks != gpus)
      throw InputError(r.header, "this run has " + std::to_string(r.ranks) +
                                     " ranks, --gpus says " + std::to_string(gpus));
    const Collective c = io::run_collective(r, given, gpus);
    auto &v = by[c];
    for (const io::NcclTestsRow &row : r.rows) {
      if (row.bytes == 0)
        continue;
      v.push_back({row.bytes, row.seconds_out});
      v.push_back({row.bytes, row.seconds_in});
    }
  }
  CommCalibration cal;
  cal.gpus = gpus;
  for (const auto &[c, v] : by) {
    try {
      cal.fits[c] = fit_collective(c, gpus, v);
    } catch (const InputError &e) {
      throw InputError(runs.front().header, e.message());
    }
  }
  return cal;
}

} // namespace perfmodel::calibrate
