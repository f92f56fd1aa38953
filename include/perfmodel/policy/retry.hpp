// When a measurement or a calibration is taken again, and which attempt is kept.
// Why each default is what it is: docs/measurement-policy.md, "CalibrationRetryPolicy" and
// "MeasureRetryPolicy".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "perfmodel/policy/host_state_policy.hpp"
#include "perfmodel/policy/quiet_passes.hpp"

namespace perfmodel::policy {

struct CalibrationRetryPolicy {
  /// Whole calibrations taken while the host's state changed during the last one
  /// (`calibrate --attempts`); 1: taken once, a change only warned about.
  int attempts = 1;
  /// Measurements of each calibration network taken while its probes find the host in another
  /// state than the rounds' (state_drift beyond one tolerance).
  int network_attempts = 3;
  /// More microbenchmark rounds run while some case has fewer counted rounds than planned, up
  /// to this many (the full plan) or quick_extra_rounds (`calibrate --quick`).
  int extra_rounds = 9;
  int quick_extra_rounds = 2;
  /// More than this share of the microbenchmark cases with no counted run: taken in spells.
  double max_uncounted_case_share = 0.10;
  /// Fewer than this share of the microbenchmark runs counted: taken in spells.
  double min_counted_run_share = 0.20;
};

/// What a calibration attempt's runs and probes came to.
struct CalibrationAttempt {
  bool changed = false; // its host state changed (calibration_changed, or too_few_counted)
  size_t counted_runs = 0, runs = 0;
  /// counted_runs / runs (0 without runs).
  double counted_share() const { return runs > 0 ? double(counted_runs) / double(runs) : 0.0; }
};

/// Whether a calibration's microbenchmarks ran mostly in the host's spells: more than
/// p.max_uncounted_case_share of its `cases` had no counted run (`cases_without`), or fewer
/// than p.min_counted_run_share of its `runs` counted.
bool too_few_counted(size_t counted, size_t runs, size_t cases_without, size_t cases,
                     const CalibrationRetryPolicy &p);

/// Whether another calibration is taken after `attempts` (non-empty, in order): the last one
/// changed and fewer than p.attempts were taken.
bool calibrate_again(const std::vector<CalibrationAttempt> &attempts,
                     const CalibrationRetryPolicy &p);

/// The index of the attempt kept: the first that did not change; where all changed, the one
/// that counted the largest share of its runs (the later of equals). 0 for none.
size_t kept_calibration(const std::vector<CalibrationAttempt> &attempts);

struct MeasureRetryPolicy {
  /// Measurements taken while the host was found in another state than the calibration's
  /// (`measure --attempts`); 1: measured once, a change only warned about.
  int attempts = 1;
  /// Seconds waited before another attempt (`measure --attempt-wait`).
  double wait_seconds = 20;
};

/// The index of the attempt with the least severity (the later of equals); 0 for none.
size_t least_severe(const std::vector<double> &severities);

/// How far a measurement probed before and after its passes, and among them, drifted from a
/// reference state, in tolerances, and the figure that drifted most ("" where none did).
struct StateDrift {
  double severity = 0;
  std::string worst;
};

/// measurement_severity and worst_drift of the probes before and after the passes; where the
/// median of the convolution probes among the passes (passes_drift) is further off, in
/// p.conv_tolerance, that figure ("conv -15% among the passes (median of 9 probes)").
StateDrift state_drift(const HostState &reference, const std::optional<HostState> &before,
                       const std::optional<HostState> &after,
                       const std::vector<PassProbe> &pass_probes, const HostStatePolicy &p);

} // namespace perfmodel::policy
