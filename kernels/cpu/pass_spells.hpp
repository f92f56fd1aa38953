// Which timed forward passes ran between two convolution probes that found the host outside
// its caches' slow spells.
//
// On the Emerald Rapids guest the host's caches and memory bus fall into slow spells that last
// 0.5-5 s and come every few seconds for tens of minutes at a time: the convolution probe
// (host_probe.hpp, probe_conv) reads 180-194 GFLOP/s outside them and 125-160 inside, and a
// network's passes slow down by about as much. A measurement of a few seconds then mixes quiet
// passes and slow ones in any proportion, and its probes before and after the passes need not
// see it: in accuracy run v4 (2026-11-27) over 80% of VGG-16's passes ran in a spell (pass
// median 203 ms, fastest 168) while both probes read quiet. `calibrate` already probes the
// convolution every 0.25 s inside its rounds and counts only the runs between quiet probes;
// `measure` does the same with its passes (docs/measure.md, "Passes between quiet probes").
#pragma once

#include <cstddef>
#include <vector>

#include "perfmodel/host_state.hpp"

namespace perfmodel::kernels::cpu {

/// A convolution probe taken during the timed passes: just before timed pass `before_pass`
/// (the number of timed passes before it; the last probe, after the last pass, has the pass
/// count).
struct PassProbe {
  size_t before_pass = 0;
  double conv_flops_per_second = 0;
};

/// A probe is quiet when its convolution is within kHostConvTolerance of the reference: the
/// fastest probe of the measurement, the rule calibrate judges its runs by (host_state.hpp,
/// steady_probes), or the calibration's convolution figure where that is faster. With only the
/// measurement's own probes a run spent wholly in a spell finds its passes quiet; against the
/// calibration's figure it finds none.
struct QuietSelection {
  std::vector<size_t> kept;      // indices of the passes kept, ascending
  double reference_flops_per_second = 0; // the fastest probe, or the outside reference
  size_t quiet_passes = 0;       // candidate passes with a quiet probe on either side
  size_t spell_passes = 0;       // the other candidates
  double quiet_median_seconds = 0, spell_median_seconds = 0; // 0 where there is none
  bool all_kept_for_too_few = false; // fewer than kPlacementMinPasses quiet: all candidates kept
};

/// `probes` in time order, the first before the first candidate pass and the last after the
/// last one; `pass_seconds` every timed pass; `candidates` the passes that may be kept
/// (ascending: all of them, or those of the faster placement). A candidate pass is quiet when
/// the last probe before it and the first after it are both quiet. With at least
/// kPlacementMinPasses quiet candidates those are kept, else every candidate (flagged). No
/// probes, or probes that do not enclose the candidates: every candidate is kept, none judged.
/// `reference_flops_per_second` (0: none) is the outside reference.
QuietSelection select_quiet_passes(const std::vector<PassProbe> &probes,
                                   const std::vector<double> &pass_seconds,
                                   const std::vector<size_t> &candidates,
                                   double reference_flops_per_second = 0);

} // namespace perfmodel::kernels::cpu
