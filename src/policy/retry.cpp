#include "perfmodel/policy/retry.hpp"

#include <cmath>
#include <cstdio>

namespace perfmodel::policy {

bool too_few_counted(size_t counted, size_t runs, size_t cases_without, size_t cases,
                     const CalibrationRetryPolicy &p) {
  return double(cases_without) > p.max_uncounted_case_share * double(cases) ||
         double(counted) < p.min_counted_run_share * double(runs);
}

bool calibrate_again(const std::vector<CalibrationAttempt> &attempts,
                     const CalibrationRetryPolicy &p) {
  return !attempts.empty() && attempts.back().changed && int(attempts.size()) < p.attempts;
}

size_t kept_calibration(const std::vector<CalibrationAttempt> &attempts) {
  for (size_t i = 0; i < attempts.size(); ++i)
    if (!attempts[i].changed)
      return i;
  size_t best = 0;
  for (size_t i = 1; i < attempts.size(); ++i)
    if (attempts[i].counted_share() >= attempts[best].counted_share())
      best = i;
  return best;
}

size_t least_severe(const std::vector<double> &severities) {
  size_t best = 0;
  for (size_t i = 1; i < severities.size(); ++i)
    if (severities[i] <= severities[best])
      best = i;
  return best;
}

StateDrift state_drift(const HostState &reference, const std::optional<HostState> &before,
                       const std::optional<HostState> &after,
                       const std::vector<PassProbe> &pass_probes, const HostStatePolicy &p) {
  StateDrift d;
  d.severity = measurement_severity(reference, before, after, p);
  d.worst = worst_drift(reference, before, after, p);
  if (const auto among = passes_drift(reference, pass_probes);
      among && std::abs(*among) / p.conv_tolerance > d.severity) {
    d.severity = std::abs(*among) / p.conv_tolerance;
    char buf[96];
    std::snprintf(buf, sizeof buf, "conv %+.0f%% among the passes (median of %zu probes)",
                  100 * *among, pass_probes.size());
    d.worst = buf;
  }
  return d;
}

} // namespace perfmodel::policy
