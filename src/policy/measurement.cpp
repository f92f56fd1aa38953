#include "perfmodel/policy/measurement.hpp"

#include <algorithm>
#include <utility>

namespace perfmodel::policy {

HostCheck check_host(const MeasurementRun &run) {
  HostCheck h;
  h.reference = run.host_reference;
  h.before = run.host_before;
  h.after = run.host_after;
  h.policy = run.host_policy;
  if (h.reference) {
    for (auto [probe, drift] : {std::pair{&h.before, &h.drift_before}, {&h.after, &h.drift_after}})
      if (*probe)
        *drift = host_drift(*h.reference, **probe);
    h.drifted = measurement_changed(*h.reference, h.before, h.after, h.policy);
  }
  if (const auto &q = run.quiet)
    h.passes_in_spell =
        passes_in_spell(q->calibration_flops_per_second, size_t(q->quiet_passes),
                        size_t(q->spell_passes), q->all_kept_for_too_few, run.quiet_policy);
  h.changed = h.drifted || h.passes_in_spell;
  return h;
}

double attempt_severity(const HostCheck &h, const std::optional<QuietPasses> &quiet) {
  double s = h.reference ? measurement_severity(*h.reference, h.before, h.after, h.policy) : 0.0;
  if (h.passes_in_spell && quiet) {
    const int judged = quiet->quiet_passes + quiet->spell_passes;
    s = std::max(s, 2 - (judged > 0 ? double(quiet->quiet_passes) / judged : 0.0));
  }
  return s;
}

} // namespace perfmodel::policy
