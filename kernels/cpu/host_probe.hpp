// The host probe: three short microbenchmarks that say what state a shared host is in right now
// (FMA rate on every thread, DRAM read bandwidth, the rate at which a thread reads what another
// one just wrote). `calibrate` stores them in the calibration, `measure` takes them before and
// after its passes and reports the drift (docs/measure.md, "Host state").
#pragma once

#include <cstdint>

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

/// Runs the fma/fp32 case and a read sweep over kHostProbeDramBytes on every thread of the pool
/// (`runs` timed runs each after one warm-up) and the cross-core probe (3 x `runs` rounds), and
/// returns the rates of their medians. About 60 ms on the 2-core VM, most of it the DRAM sweeps.
HostState probe_host(int runs = 7);

} // namespace perfmodel::kernels::cpu
