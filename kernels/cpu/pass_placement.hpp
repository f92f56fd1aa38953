// Which timed forward passes ran with the vCPUs in the faster of the host's placements.
//
// On a shared host the hypervisor moves the vCPUs between physical cores: on the 2-core Zen 3
// guest the round trip of a cache line between the two threads is 0.3-0.4 us in one placement
// and 1.1-2.0 us in the other, each holding from about a second to minutes. In the slower one the
// layers that read what the other core wrote slow down (ResNet-50's 53 batch norms: 3.4-4.0 ms a
// pass against 2.2-2.7 ms), and a model calibrated in one placement mispredicts the other. So
// the executor probes the round trip between passes (host_probe.hpp, core_round_trip_seconds)
// and the statistics keep the passes that ran in the faster placement (docs/measure.md,
// "Passes in the faster placement").
#pragma once

#include <cstddef>
#include <vector>

#include "perfmodel/host_state.hpp"

namespace perfmodel::kernels::cpu {

/// A probe above this multiple of the reference round trip finds the slower placement. The two
/// placements seen differ by 3-6x; within one, the probe holds within +-40%. The host-state
/// check judges a measurement's placement against its calibration's by the same factor.
inline constexpr double kPlacementRoundTripFactor = kHostRoundTripFactor;

/// The reference round trip: this quantile of a run's probes (the faster placement's figure as
/// long as a tenth of the probes saw it; when none did, the whole run is in one placement).
inline constexpr double kPlacementReferenceQuantile = 0.10;

/// Fewer passes than this in the faster placement: all are kept (too few for a statistic).
inline constexpr size_t kPlacementMinPasses = 3;

struct PassSelection {
  std::vector<size_t> kept;    // indices of the passes kept, ascending
  double reference_seconds = 0; // the reference round trip (kPlacementReferenceQuantile)
  bool all_kept_for_too_few = false; // fewer than kPlacementMinPasses qualified: all kept
};

/// `round_trips` holds n + 1 probes for n passes: probe i was taken just before pass i, probe n
/// after the last. Pass i is kept when probes i and i + 1 are both within
/// kPlacementRoundTripFactor of the reference. Fewer than two probes: no pass, nothing kept.
PassSelection select_faster_placement(const std::vector<double> &round_trips);

} // namespace perfmodel::kernels::cpu
