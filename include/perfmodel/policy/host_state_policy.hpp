// Whether the host was in the state a calibration was taken in: the tolerances of the host
// probes' figures (perfmodel/host_state.hpp) and the functions that judge probes by them.
// Why each default is what it is: docs/measurement-policy.md, "HostStatePolicy".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perfmodel/host_state.hpp"

namespace perfmodel::policy {

/// The tolerances a probe is judged by against a reference probe (a calibration's median).
/// The DRAM figure is reported but never judged (docs/measurement-policy.md, "Figures not
/// judged").
struct HostStatePolicy {
  /// |now / reference - 1| of the FMA rate beyond this: another compute state.
  double compute_tolerance = 0.10;
  /// |now / reference - 1| of the cross-core read beyond this: the threads placed otherwise
  /// (judged so only where either probe lacks the core round trip).
  double cross_core_tolerance = 0.25;
  /// The core round trip beyond this factor either way: the threads placed otherwise.
  double round_trip_factor = 2.0;
  /// |now / reference - 1| of the convolution probe beyond this: a slow spell of the caches.
  double conv_tolerance = 0.10;
  /// A probe whose FMA rate is under this fraction of the machine's undisturbed rate finds
  /// the host disturbed (steady_compute).
  double steady_compute_fraction = 0.85;
  /// calibration_changed: more than this share of the probes with their compute or
  /// convolution beyond tolerance.
  double max_off_probe_share = 1.0 / 3;
  /// calibration_changed: fewer than this share of the convolution figures within
  /// `conv_near_fraction` of conv_tolerance of the median.
  double min_conv_near_share = 2.0 / 3;
  double conv_near_fraction = 0.5;
};

/// now / reference - 1 for each probe figure (0 where either lacks it).
struct HostDrift {
  double compute = 0;
  double memory = 0;
  double cross_core = 0;
  double conv = 0;
  double round_trip = 0;
  /// Whether the placement is judged on the round trip (both have it) or on the cross-core read.
  bool placement_by_round_trip = false;

  /// The placement's drift in tolerances: (max(now / ref, ref / now) - 1) of the round trip
  /// over (round_trip_factor - 1) where judged on it, else |cross_core| / cross_core_tolerance.
  double placement(const HostStatePolicy &p) const;
  /// A judged figure: its name, its drift (now / reference - 1) and that drift in tolerances.
  struct Figure {
    const char *name = "";
    double drift = 0;
    double tolerances = 0;
  };
  /// The judged figure farthest from the reference, in tolerances: compute, the placement
  /// ("core round trip" or "cross-core read") or conv, the first of equals; a Figure of 0
  /// tolerances and no name when none drifted. The memory drift is not judged.
  Figure worst(const HostStatePolicy &p) const;
  /// worst(p).tolerances.
  double severity(const HostStatePolicy &p) const;
  /// severity(p) > 1.
  bool beyond_tolerance(const HostStatePolicy &p) const;
};
HostDrift host_drift(const HostState &reference, const HostState &now);

/// Whether a probe's FMA rate is at least p.steady_compute_fraction of `undisturbed_flops`
/// (true when that is unknown, <= 0, and for a probe without an FMA figure: calibrate's
/// convolution probes inside its rounds).
bool steady_compute(const HostState &probe, double undisturbed_flops, const HostStatePolicy &p);

/// Which of a calibration's probes found the host steady: its FMA rate steady_compute, and its
/// convolution within p.conv_tolerance of the fastest convolution among the probes (every
/// convolution counts as steady where none was probed). The fastest probe is the reference
/// (docs/measurement-policy.md, "The fastest probe as reference").
std::vector<bool> steady_probes(const std::vector<HostState> &probes, double undisturbed_flops,
                                const HostStatePolicy &p);

/// A measurement's probes before and after its timed runs, each with the faster of the two
/// convolution figures (a dip of one probe is not a spell; docs/measurement-policy.md,
/// "ProbePolicy"). Absent probes stay absent.
std::pair<std::optional<HostState>, std::optional<HostState>>
with_faster_conv(std::optional<HostState> before, std::optional<HostState> after);

/// How far a measurement probed before and after its timed runs drifted from `reference`, in
/// tolerances: the larger HostDrift::severity of the two probes (with_faster_conv); 0 without
/// probes.
double measurement_severity(const HostState &reference, const std::optional<HostState> &before,
                            const std::optional<HostState> &after, const HostStatePolicy &p);

/// The figure that sets measurement_severity, e.g. "conv -18% after the passes" or "core round
/// trip +240% before the passes"; "" without probes or figures to compare.
std::string worst_drift(const HostState &reference, const std::optional<HostState> &before,
                        const std::optional<HostState> &after, const HostStatePolicy &p);

/// measurement_severity > 1: the measurement ran in another state than the reference's.
bool measurement_changed(const HostState &reference, const std::optional<HostState> &before,
                         const std::optional<HostState> &after, const HostStatePolicy &p);

/// Whether any probe ran with the threads placed otherwise than `median`'s
/// (HostDrift::placement beyond one tolerance).
bool placement_changed(const HostState &median, const std::vector<HostState> &probes,
                       const HostStatePolicy &p);

/// Whether the host's state changed during a calibration whose probes' median is `median`:
/// placement_changed; or more than p.max_off_probe_share of the probes with their compute or
/// convolution beyond tolerance; or (where the median has a convolution figure) fewer than
/// p.min_conv_near_share of the convolution figures within p.conv_near_fraction of
/// p.conv_tolerance of the median (docs/measurement-policy.md, "A calibration that changed
/// state").
bool calibration_changed(const HostState &median, const std::vector<HostState> &probes,
                         const HostStatePolicy &p);

/// The median of each figure over several probes (0 for each figure when there are none).
HostState median_state(const std::vector<HostState> &probes);

/// Of several calibrations' host states (nullopt: a calibration without probes), the index of
/// the one `now` drifted least from (smallest severity; the first of equals); nullopt when none
/// has a state.
std::optional<size_t> nearest_state(const std::vector<std::optional<HostState>> &references,
                                    const HostState &now, const HostStatePolicy &p);

/// Which of several calibrations `measure` predicts with, and how many it left out.
struct CalibrationChoice {
  size_t index = 0;    // the calibration predicted with
  size_t left_out = 0; // calibrations taken on another machine, left out of the choice
};

/// The choice among calibrations whose host states are `states` (nullopt: no probes), of which
/// `foreign[i]` were taken on another machine, for a measurement probed `before` and `after`
/// its passes. Where some are not foreign the foreign ones are left out (where all are, none
/// is); of the rest, the one whose state the probe before the passes (else after;
/// with_faster_conv's figures) drifted least from (nearest_state), else the first of them.
CalibrationChoice choose_calibration(const std::vector<bool> &foreign,
                                     const std::vector<std::optional<HostState>> &states,
                                     const std::optional<HostState> &before,
                                     const std::optional<HostState> &after,
                                     const HostStatePolicy &p);

} // namespace perfmodel::policy
