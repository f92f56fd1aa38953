// The host probes: short microbenchmarks that say what state a shared host is in right now
// (FMA rate on every thread, DRAM read bandwidth, the rate at which a thread reads what another
// one just wrote, the core round trip, a convolution through the executor's im2col path).
// `calibrate` stores them in the calibration, `measure` takes them before and after its passes;
// how they are judged is policy/host_state_policy.hpp, what each one sees
// docs/measurement-policy.md, "The host probes".
#pragma once

#include <cstdint>

#include "perfmodel/host_state.hpp"
#include "perfmodel/kernels/cpu/microbench.hpp"
#include "perfmodel/policy/measurement_policy.hpp"

namespace perfmodel::kernels::cpu {

/// Working set of the DRAM read probe: the full plan's DRAM case (well beyond any L3 here).
inline constexpr int64_t kHostProbeDramBytes = int64_t(192) << 20;

/// Per thread, the block of the cross-core probe: well inside one core's L2, large enough that
/// the pool's wake-up (about 1 us) is a small part of its read.
inline constexpr int64_t kCrossCoreBlockBytes = int64_t(512) << 10;

/// The cross-core probe: each of the pool's threads writes its own kCrossCoreBlockBytes block,
/// then, timed, reads the block of the next thread (which sits modified in that thread's
/// cache). Returns the bytes read per second of the median of `rounds` rounds; 0 with one
/// thread or no round.
double cross_core_read_bytes_per_second(int rounds);

/// The placement probe: the median of `calls` empty parallel_for calls over every thread of the
/// pool, in seconds (0 with one thread or no call). An empty call is one round trip of the
/// pool's job flag to the spinning workers and of their done flags back: two cache-line
/// transfers between cores and no memory traffic, so it leaves a network's cache state alone.
double core_round_trip_seconds(int calls);

/// The convolution of the conv probe: the plan's conv/im2col/n1c48h40o96k3s1 case (48 -> 96
/// channels, 3x3, 40x40, "same" padding; 133 MFLOP). Its lowered matrix (2.8 MB) lives in the
/// L2 and L3, as a network's convolutions do.
BenchCase conv_probe_case();

/// Runs the fma/fp32 case and a read sweep over kHostProbeDramBytes on every thread of the pool
/// (p.runs timed runs each after one warm-up), the cross-core probe (3 x p.runs rounds) and the
/// core round trip (3 x p.runs calls), and returns the rates of their medians; and the conv
/// probe before and after them (p.runs timed runs each after one warm-up), the faster of its
/// two medians.
HostState probe_host(const policy::ProbePolicy &p = {});

/// The convolution of probe_host alone, the faster of two back-to-back medians of p.runs runs
/// (other figures 0): what `calibrate` takes inside its rounds and `measure` among its passes,
/// every QuietPassPolicy::probe_interval_seconds.
HostState probe_conv(const policy::ProbePolicy &p = {});

} // namespace perfmodel::kernels::cpu
