// The host probe: four short microbenchmarks that say what state a shared host is in right now
// (FMA rate on every thread, DRAM read bandwidth, the rate at which a thread reads what another
// one just wrote, a convolution through the executor's im2col path). `calibrate` stores them in
// the calibration, `measure` takes them before and after its passes and reports the drift
// (docs/measure.md, "Host state").
#pragma once

#include <cstdint>

#include "kernels/cpu/microbench.hpp"
#include "perfmodel/host_state.hpp"

namespace perfmodel::kernels::cpu {

/// Working set of the DRAM read probe: the full plan's DRAM case (6x the 32 MiB L3 here).
inline constexpr int64_t kHostProbeDramBytes = int64_t(192) << 20;

/// Per thread, the block of the cross-core probe: well inside one core's L2 (1 MiB on Zen 5),
/// large enough that the pool's wake-up (about 1 us) is a small part of its read.
inline constexpr int64_t kCrossCoreBlockBytes = int64_t(512) << 10;

/// The cross-core probe: each of the pool's threads writes its own kCrossCoreBlockBytes block,
/// then, timed, reads the block of the next thread (which sits modified in that thread's
/// cache). Returns the bytes read per second of the median of `rounds` rounds; 0 with one
/// thread. It tells where the hypervisor placed the vCPUs: sharing a core complex, the lines
/// come through the shared L3; on different ones, through the I/O die at a third of the rate.
double cross_core_read_bytes_per_second(int rounds);

/// The placement probe: the median of `calls` empty parallel_for calls over every thread of the
/// pool, in seconds (0 with one thread). An empty call is one round trip of the pool's job flag
/// to the spinning workers and of their done flags back: two cache-line transfers between cores,
/// and nothing else (no memory traffic, so it leaves a network's cache state alone). It tells
/// where the hypervisor placed the vCPUs: on the 2-core Zen 3 guest (2026-11-26) 0.29-0.43 us
/// in one placement and 1.06-1.98 us in the other, while the same passes' cross-core read probe
/// read 42-85 and 14-25 GB/s.
double core_round_trip_seconds(int calls);

/// The convolution of the conv probe: the plan's conv/im2col/n1c48h40o96k3s1 case (48 -> 96
/// channels, 3x3, 40x40, "same" padding; 133 MFLOP, 0.5-0.8 ms on the 2-core VM). Its lowered
/// matrix (2.8 MB) lives in the L2 and L3, as a network's convolutions do.
BenchCase conv_probe_case();

/// Runs the fma/fp32 case and a read sweep over kHostProbeDramBytes on every thread of the pool
/// (`runs` timed runs each after one warm-up) and the cross-core probe (3 x `runs` rounds), and
/// returns the rates of their medians; the core round trip (3 x `runs` calls); and the conv probe before and after them (`runs` timed
/// runs each after one warm-up), the faster of its two medians: a dip of tens of milliseconds
/// (one vCPU taken away) halves one of them now and then (a single 14-run probe read under 150
/// GFLOP/s in 16 of 30 probes before `measure`'s passes and 5 of 30 after them), while the slow
/// spells it is there to see last from under a second to minutes. About 70 ms on the 2-core
/// Zen guests, most of it the DRAM sweeps; 148 ms on the Emerald Rapids guest (median of 5,
/// `build/bench/bench_cpu_kernels --benchmark_filter=Probe`, 2026-11-27).
HostState probe_host(int runs = 7);

/// The convolution of probe_host alone, the faster of two back-to-back medians of `runs` runs
/// (other figures 0): what `calibrate` takes inside its rounds, every
/// MicrobenchOptions::probe_interval_seconds, to tell which of a round's runs fell in a slow
/// spell of the caches. 19 ms on the Emerald Rapids guest (BM_ProbeConv, as above).
/// How often calibrate probes the convolution inside a round, and measure among its passes
/// (--probe-interval; 19 ms a probe on the Emerald Rapids guest, 7% of the time). There the
/// caches' slow spells came and went every 0.5-5 s, against 5 s per round. Of calibrations taken
/// in an hour of heavy spells, scored on 67 measurements, 5 of 6 probing every 0.25 s met
/// 118-122 of 134 targets (quiet-state calibrations: 119-123), 3 of 5 probing every 0.5 s
/// 116-122, and 2 of 4 probing between rounds only 122-123, the others 15-107
/// (docs/calibration.md, "Spells shorter than a round").
inline constexpr double kConvProbeIntervalSeconds = 0.25;

HostState probe_conv(int runs = 7);

} // namespace perfmodel::kernels::cpu
