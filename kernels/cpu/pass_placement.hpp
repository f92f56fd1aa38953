// Which timed forward passes ran with the vCPUs in the faster of the host's placements.
//
// On a shared host the hypervisor moves the vCPUs between physical cores, and the round trip of
// a cache line between the two threads tells the placements apart. On the 2-core Zen 3 guest it
// is 0.3-0.4 us with both vCPUs in one core complex and 1.1-2.0 us across two; across, the
// layers that read what the other core wrote slow down (ResNet-50's 53 batch norms: 3.4-4.0 ms
// a pass against 2.2-2.7 ms). On the 2-core Intel Emerald Rapids guest it is 0.5-0.9 us on two
// physical cores and 0.13 us with both vCPUs on the SMT siblings of one core, which share its
// FMA units: there the short round trip is the slow placement (calibration network passes of
// 13.3 against 7.5 ms). So the executor probes the round trip between passes (host_probe.hpp,
// core_round_trip_seconds), splits the passes into the short and the long round trip's, and
// the statistics keep the placement whose passes ran faster (docs/measure.md, "Passes in the
// faster placement").
#pragma once

#include <cstddef>
#include <vector>

#include "perfmodel/host_state.hpp"

namespace perfmodel::kernels::cpu {

/// A probe above this multiple of the reference round trip finds the other placement. The
/// placements seen differ by 3-6x; within one, the probe holds within +-40%. The host-state
/// check judges a measurement's placement against its calibration's by the same factor.
inline constexpr double kPlacementRoundTripFactor = kHostRoundTripFactor;

/// The reference round trip: this quantile of a run's probes (the short round trip's figure as
/// long as a tenth of the probes saw it; when none did, the whole run is in one placement).
inline constexpr double kPlacementReferenceQuantile = 0.10;

/// A placement with fewer passes than this is not kept on its own (too few for a statistic);
/// when neither has this many, every pass is kept.
inline constexpr size_t kPlacementMinPasses = 3;

struct PassSelection {
  std::vector<size_t> kept;     // indices of the passes kept, ascending
  double reference_seconds = 0; // the reference round trip (kPlacementReferenceQuantile)
  bool kept_long_round_trip = false; // the placement kept is the long round trip's
  /// Median pass time in each placement (0: no pass had both probes in it).
  double short_median_seconds = 0, long_median_seconds = 0;
  size_t short_passes = 0, long_passes = 0; // passes with both probes in each placement
  bool all_kept_for_too_few = false; // neither placement had kPlacementMinPasses: all kept
};

/// `round_trips` holds n + 1 probes for n passes: probe i was taken just before pass i, probe n
/// after the last; `pass_seconds` the n passes' times. A pass whose two probes are both within
/// kPlacementRoundTripFactor of the reference ran in the short round trip's placement, one whose
/// probes are both beyond it in the long one's; a pass between the two (the placement changed
/// while it ran) is in neither. With kPlacementMinPasses passes in each placement the one with
/// the smaller median pass time is kept, else the one that has them. Fewer than two probes, or
/// a pass count that does not match: no pass, nothing kept.
/// The median of pass_seconds over the indices `idx` (0 when idx is empty).
double median_pass_seconds(const std::vector<double> &pass_seconds,
                           const std::vector<size_t> &idx);

PassSelection select_faster_placement(const std::vector<double> &round_trips,
                                      const std::vector<double> &pass_seconds);

} // namespace perfmodel::kernels::cpu
