// Which timed forward passes ran with the threads in the faster of the host's placements: the
// passes are split by the core round trip probed between them (kernels/cpu/host_probe.hpp,
// core_round_trip_seconds) and the placement whose passes ran faster is kept.
// Why each default is what it is: docs/measurement-policy.md, "PlacementPolicy".
#pragma once

#include <cstddef>
#include <vector>

namespace perfmodel::policy {

struct PlacementPolicy {
  /// A probe above this multiple of the reference round trip finds the other placement
  /// (HostStatePolicy::round_trip_factor judges a measurement against its calibration by the
  /// same default).
  double round_trip_factor = 2.0;
  /// The reference round trip: this quantile of a run's probes.
  double reference_quantile = 0.10;
  /// A placement with fewer passes than this is not kept on its own; when neither has this
  /// many, every pass is kept.
  size_t min_passes = 3;
  /// Empty parallel_for calls per round-trip probe between two passes (the executor's probe).
  int round_trip_calls = 21;
};

struct PassSelection {
  std::vector<size_t> kept;          // indices of the passes kept, ascending
  double reference_seconds = 0;      // the reference round trip (reference_quantile)
  bool kept_long_round_trip = false; // the placement kept is the long round trip's
  /// Median pass time in each placement (0: no pass had both probes in it).
  double short_median_seconds = 0, long_median_seconds = 0;
  size_t short_passes = 0, long_passes = 0; // passes with both probes in each placement
  bool all_kept_for_too_few = false;        // neither placement had min_passes: all kept
};

/// `round_trips` holds n + 1 probes for n passes: probe i was taken just before pass i, probe n
/// after the last; `pass_seconds` the n passes' times. A pass whose two probes are both within
/// p.round_trip_factor of the reference ran in the short round trip's placement, one whose
/// probes are both beyond it in the long one's; a pass between the two (the placement changed
/// while it ran) is in neither. With min(p.min_passes, n) passes in each placement the one with
/// the smaller median pass time is kept, else the one that has them, else every pass. Fewer
/// than two probes, or a pass count that does not match: no pass, nothing kept.
PassSelection select_faster_placement(const std::vector<double> &round_trips,
                                      const std::vector<double> &pass_seconds,
                                      const PlacementPolicy &p);

} // namespace perfmodel::policy
