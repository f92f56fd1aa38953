// The state of a shared host at one moment, as four probe figures, and how far it drifted from
// the state a calibration was taken in (docs/measure.md, "Host state").
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace perfmodel {

/// The probe figures of the host's state at one moment (kernels/cpu/host_probe.hpp): on a
/// shared host the neighbours can halve a core's compute (a busy SMT sibling) or move the DRAM
/// bandwidth by half (40-48 against 65-72 GB/s on the 2-core VM), for seconds at a time, and the
/// hypervisor moves the vCPUs between physical cores: on the 2-core VM a thread reads what the
/// other one just wrote at 128-146 GB/s when they share a core complex and at about 60 GB/s when
/// they do not, for minutes at a time.
struct HostState {
  double fp32_flops_per_second = 0; // FMA chains on every thread
  double dram_bytes_per_second = 0; // a read sweep over a working set well beyond the LLC
  /// Each thread reads the block another thread has just written (0: not probed, one thread).
  double cross_core_bytes_per_second = 0;
  /// A 3x3 convolution through the executor's im2col path on every thread (0: not probed, a
  /// calibration from before this probe). It sees what the FMA probe does not: a neighbour
  /// contending for the caches and memory bus slows the network's convolutions by a sixth to a
  /// third while the FMA chains, which touch no memory, keep their rate.
  double conv_flops_per_second = 0;
  /// The core round trip: the median of empty parallel_for calls over every thread, seconds (0:
  /// not probed, one thread, a calibration from before this probe). Where the hypervisor put
  /// the vCPUs, and little else: on the 2-core Zen 3 guest 0.29-0.43 us in one placement and
  /// 1.06-1.98 us in the other (kernels/cpu/host_probe.hpp, core_round_trip_seconds).
  double core_round_trip_seconds = 0;
};

/// A measurement whose compute probe drifts further than this from the calibration's was taken
/// in another host state than the one calibrated (a busy SMT sibling halves a core): its errors
/// reflect the host, not only the model. 10% moves a compute-bound network's time by as much.
/// The DRAM probe is reported but not judged: on a shared host it swings between two modes from
/// one probe to the next (36-48 and 64-72 GB/s here, bursts of seconds), and in 9 accuracy
/// runs its drift (up to +87%) did not go with the errors while the compute drift (-50%) did.
inline constexpr double kHostComputeTolerance = 0.10;

/// A measurement whose cross-core probe drifts further than this from the calibration's ran
/// with the threads placed otherwise than calibrated. The two placements seen on the 2-core VM
/// differ by 2.1-2.4x (128-146 against 57-62 GB/s) and each holds within +-6% from probe to
/// probe; in the slow one ResNet-50 at batch 1 took 46-50 ms against 39-41 ms in the fast one,
/// its batch norms after a convolution 3-5x longer (half of their input sits in the other
/// core's cache).
inline constexpr double kHostCrossCoreTolerance = 0.25;

/// A measurement whose core round trip is more than this factor from the calibration's (slower
/// or faster) ran with the threads placed otherwise than calibrated. The two placements of the
/// Zen 3 guest differ by 3-6x (0.29-0.43 against 1.06-1.98 us); within one the probe holds
/// within +-40%. Where both have it, the placement is judged on it rather than on the cross-core
/// read, which also moves with what ran before it (88-97 GB/s in probes back to back, 34-53
/// with 200 ms pauses between them, in one placement). `measure`'s passes are kept by the same
/// factor (kernels/cpu/pass_placement.hpp).
inline constexpr double kHostRoundTripFactor = 2.0;

/// A measurement whose convolution probe drifts further than this from the calibration's ran
/// in a slow spell of the host's caches or memory bus (a neighbour's traffic) that the FMA probe
/// does not see. In 50 ResNet-50 measurements in a row (2026-11-25, 03:43-03:49Z) the probe
/// taken after the passes read 193-254 GFLOP/s while the passes took 41-45 ms, and 143-185
/// (mostly 165-185) while they took 50-58 ms: the spells cost the network about what they cost
/// the probe (+20%), and last from tens of seconds to minutes. Within one state the probe holds
/// within +-5%, so 10% separates the two.
inline constexpr double kHostConvTolerance = 0.10;

/// `measure --passes quiet` (kernels/cpu/pass_spells.hpp): a measurement judged against a
/// calibration's convolution figure whose quiet passes are fewer than this fraction of those
/// judged (or than 3) ran in a slow spell, and the report flags it (passes_in_spell). Between
/// two quiet probes a spell can still come and go: in run s1 (2026-11-27 06:49Z) 6 of VGG-16's
/// 40 passes ran between quiet probes, median 177 ms against 163-167 in quiet runs, while in
/// runs with 38-54% quiet passes the kept passes of ResNet-50 and NIN matched the quiet runs'
/// (45.9-46.0 and 59.3-59.6 ms).
inline constexpr double kMinQuietFraction = 0.25;

/// A compute probe below this fraction of the machine's undisturbed FMA rate (the hardware
/// spec's fp32 vector peak, measured on an idle machine) finds the host disturbed: on the 2-core
/// VM the rate halves for minutes at a time (the two vCPUs on the two threads of one core, or a
/// busy SMT sibling: 210-218 against 405-447 GFLOP/s, 2026-11-24), and a calibration taken so
/// predicted every network 30-80% slow once the host was back. `calibrate --device cpu` does not
/// count a microbenchmark round next to such a probe (steady_compute).
inline constexpr double kSteadyComputeFraction = 0.85;

/// Whether a probe's FMA rate is at least kSteadyComputeFraction of `undisturbed_flops` (true
/// when that is unknown, <= 0, and for a probe without an FMA figure: calibrate's convolution
/// probes inside its rounds).
bool steady_compute(const HostState &probe, double undisturbed_flops);

/// Which of a calibration's probes found the host steady: its FMA rate steady_compute, and its
/// convolution within kHostConvTolerance of the fastest convolution among the probes (every
/// convolution counts as steady where none was probed). A microbenchmark's runs beside a probe
/// that is not steady do not count (`calibrate --device cpu`, which also probes the convolution
/// alone inside its rounds: those probes have no FMA figure and are judged on it only).
///
/// The convolution rule is for the slow spells of the caches and memory bus, which the FMA
/// probe does not see. On the Emerald Rapids guest (xeon-emr-2c, 2026-11-26, 56 calibration
/// logs; scripts/spell_calibrations.py out/i1 … out/u6 prints these figures) the convolution
/// probe sat mostly at 180-194 GFLOP/s in the quiet state and at 125-160 in a spell,
/// flipping between the two every few seconds for tens of minutes at a time; the fastest probe
/// of every calibration read 172-194. Calibrations whose probes' median read under 178 fitted
/// the conv class's peak at 180-225 GFLOP/s, against 243-277 for the others, and of the judged
/// networks that `measure` then found in the quiet state (probe >= 180) they predicted 18 end to
/// end at -6..+32% (median +23%, none within 5%), the others 106 at -20..+19% (median +1.2%, 77
/// within 5%). The fastest probe is the reference, as the spec's peak is the FMA rule's: about
/// the same figure in every calibration, where a median moves with the share of the rounds that
/// fell in a spell.
std::vector<bool> steady_probes(const std::vector<HostState> &probes, double undisturbed_flops);

/// now / reference - 1 for each probe figure (0 where the reference is missing).
struct HostDrift {
  double compute = 0;
  double memory = 0;
  double cross_core = 0;
  double conv = 0;
  double round_trip = 0; // the core round trip: now / reference - 1 (0 where either lacks it)
  /// Whether the placement is judged on the round trip (both have it) or on the cross-core read.
  bool placement_by_round_trip = false;
  /// The placement's drift in tolerances: max(now / ref, ref / now) - 1 of the round trip over
  /// kHostRoundTripFactor - 1 where judged on it, else |cross_core| / kHostCrossCoreTolerance.
  double placement() const;
  /// A judged figure: its name, its drift (now / reference - 1) and that drift in tolerances.
  struct Figure {
    const char *name = "";
    double drift = 0;
    double tolerances = 0;
  };
  /// The judged figure farthest from the reference, in tolerances: compute
  /// (|compute| / kHostComputeTolerance), the placement (placement(): "core round trip" or
  /// "cross-core read") or conv (|conv| / kHostConvTolerance), the first of equals; a Figure
  /// of 0 tolerances and no name when none drifted. The memory drift is not judged (above).
  Figure worst() const;
  /// How far from the reference, in tolerances: worst().tolerances.
  double severity() const;
  /// compute, cross_core or conv beyond its tolerance (severity() > 1)
  bool beyond_tolerance() const;
};
HostDrift host_drift(const HostState &reference, const HostState &now);

/// A measurement's probes before and after its timed runs, each with the faster of the two
/// convolution figures: a probe taken early in a process came out at a third to a half of its
/// convolution rate now and then (one vCPU taken away for tens of milliseconds; in 50 ResNet-50
/// measurements, 7 probes before the passes and 1 after them), while a slow spell, which lasts
/// longer than a measurement, slows both. Absent probes stay absent.
std::pair<std::optional<HostState>, std::optional<HostState>>
with_faster_conv(std::optional<HostState> before, std::optional<HostState> after);

/// How far a measurement probed before and after its timed runs drifted from the calibration's
/// state, in tolerances: the larger HostDrift::severity of the two probes (with_faster_conv); 0
/// without probes.
double measurement_severity(const HostState &reference, const std::optional<HostState> &before,
                            const std::optional<HostState> &after);

/// Which figure puts a measurement's probes farthest from `reference` (the one that sets
/// measurement_severity): its name, its drift and the probe, e.g. "conv -18% after the passes"
/// or "core round trip +240% before the passes"; "" without probes or figures to compare.
std::string worst_drift(const HostState &reference, const std::optional<HostState> &before,
                        const std::optional<HostState> &after);

/// Whether a measurement probed before and after its timed runs ran in another state than the
/// calibration's: either probe (with_faster_conv) beyond tolerance (measurement_severity > 1).
bool measurement_changed(const HostState &reference, const std::optional<HostState> &before,
                         const std::optional<HostState> &after);

/// Whether the host's state changed during a calibration whose probes' median is `median`:
/// a probe's placement drift beyond its tolerance (HostDrift::placement) (the vCPUs moved to another placement, which
/// changes what the fit sees for minutes); over a third of the probes' compute or convolution
/// drifts beyond theirs; or fewer than two thirds of the convolution figures within half their
/// tolerance of the median (within one state they hold within +-5%; a calibration that ran half
/// in a slow spell has two clusters 15-20% apart and a median between them: at 04:14Z on
/// 2026-11-25, five probes at 207-223 GFLOP/s and five at 178-192, two of them beyond 10% of
/// the median, two within 5%). The fit takes each microbenchmark's median round, which a
/// disturbance over fewer rounds does not move; a round beside a probe whose FMA rate is under
/// kSteadyComputeFraction of the spec's does not count at all. Single probes dip (in three
/// calibrations at 03:56Z, one FMA probe of 11-12 in each at 11-18% under the median, the
/// others within 5%).
bool calibration_changed(const HostState &median, const std::vector<HostState> &probes);

/// Whether any probe ran with the threads placed otherwise than `median`'s (HostDrift::placement
/// beyond its tolerance): the first condition of calibration_changed.
bool placement_changed(const HostState &median, const std::vector<HostState> &probes);

/// The median of each figure over several probes (a steadier reference than any one of them).
HostState median_state(const std::vector<HostState> &probes);

/// Of several calibrations' host states (nullopt: a calibration without probes), the index of
/// the one `now` drifted least from (smallest severity; the first of equals); nullopt when none
/// has a state. `measure` with several --calibration files predicts with that one, so that a
/// host that changes state (on the 2-core VM: the vCPUs' placement, the caches' slow spells) is
/// predicted by a calibration taken in the state it is in.
std::optional<size_t> nearest_state(const std::vector<std::optional<HostState>> &references,
                                    const HostState &now);

/// Which of several calibrations `measure` predicts with, and how many it left out.
struct CalibrationChoice {
  size_t index = 0;    // the calibration predicted with
  size_t left_out = 0; // calibrations taken on another machine, left out of the choice
};

/// The choice among calibrations whose host states are `states` (nullopt: no probes), of which
/// `foreign[i]` were taken on another machine (a foreign one describes that machine), for a
/// measurement probed `before` and `after` its passes. Where some are not foreign the foreign
/// ones are left out (where all are, none is); of the rest, the one whose state the probe
/// before the passes (else after; with_faster_conv's figures) drifted least from
/// (nearest_state), else the first of them.
CalibrationChoice choose_calibration(const std::vector<bool> &foreign,
                                     const std::vector<std::optional<HostState>> &states,
                                     const std::optional<HostState> &before,
                                     const std::optional<HostState> &after);

} // namespace perfmodel
