// Which timed forward passes ran between two convolution probes that found the host outside
// its caches' slow spells, and whether too few did (the passes ran in a spell).
// Why each default is what it is: docs/measurement-policy.md, "QuietPassPolicy".
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "perfmodel/host_state.hpp"

namespace perfmodel::policy {

struct QuietPassPolicy {
  /// A probe is quiet when its convolution rate is within this fraction of the reference
  /// (HostStatePolicy::conv_tolerance judges a probe against a calibration by the same default).
  double conv_tolerance = 0.10;
  /// Seconds between the convolution probes among `measure`'s passes and inside `calibrate`'s
  /// rounds (`--probe-interval`).
  double probe_interval_seconds = 0.25;
  /// Fewer quiet candidates than min(this, candidates): every candidate is kept (flagged).
  size_t min_passes = 3;
  /// Judged against a calibration's convolution figure, quiet passes fewer than this fraction
  /// of those judged (or all kept for too few) mean the passes ran in a slow spell.
  double min_quiet_fraction = 0.25;
};

/// A convolution probe taken during the timed passes: just before timed pass `before_pass`
/// (the number of timed passes before it; the last probe, after the last pass, has the pass
/// count).
struct PassProbe {
  size_t before_pass = 0;
  double conv_flops_per_second = 0;
};

/// The reference is the fastest probe of the measurement, or the calibration's convolution
/// figure where that is faster.
struct QuietSelection {
  std::vector<size_t> kept;              // indices of the passes kept, ascending
  double reference_flops_per_second = 0; // the fastest probe, or the outside reference
  size_t quiet_passes = 0;               // candidate passes with a quiet probe on either side
  size_t spell_passes = 0;               // the other candidates
  double quiet_median_seconds = 0, spell_median_seconds = 0; // 0 where there is none
  bool all_kept_for_too_few = false; // fewer than min_passes quiet: all candidates kept
};

/// `probes` in time order, the first before the first candidate pass and the last after the
/// last one; `pass_seconds` every timed pass; `candidates` the passes that may be kept
/// (ascending: all of them, or those of the faster placement). A candidate pass is quiet when
/// the last probe before it and the first after it are both within p.conv_tolerance of the
/// reference. With at least min(p.min_passes, candidates) quiet candidates those are kept, else
/// every candidate (flagged). No probes, or probes that do not enclose the candidates: every
/// candidate is kept, none judged. `reference_flops_per_second` (0: none) is the outside
/// reference.
QuietSelection select_quiet_passes(const std::vector<PassProbe> &probes,
                                   const std::vector<double> &pass_seconds,
                                   const std::vector<size_t> &candidates,
                                   double reference_flops_per_second, const QuietPassPolicy &p);

/// Whether passes judged against a calibration's convolution figure
/// (`calibration_flops_per_second` > 0) ran in a slow spell: some were judged and either all
/// were kept for too few quiet ones or the quiet ones are fewer than p.min_quiet_fraction of
/// those judged.
bool passes_in_spell(double calibration_flops_per_second, size_t quiet_passes, size_t spell_passes,
                     bool all_kept_for_too_few, const QuietPassPolicy &p);

/// The median of the convolution probes among a measurement's passes against the reference's
/// convolution figure: median / reference - 1 (nullopt: no probes, or a reference without it).
std::optional<double> passes_drift(const HostState &reference,
                                   const std::vector<PassProbe> &probes);

} // namespace perfmodel::policy
