// The host probe: two short microbenchmarks that say what state a shared host is in right now
// (FMA rate on every thread, DRAM read bandwidth). `calibrate` stores them in the calibration,
// `measure` takes them before and after its passes and reports the drift (docs/measure.md).
#pragma once

#include <cstdint>

#include "perfmodel/host_state.hpp"

namespace perfmodel::kernels::cpu {

/// Working set of the DRAM read probe: the full plan's DRAM case (6x the 32 MiB L3 here).
inline constexpr int64_t kHostProbeDramBytes = int64_t(192) << 20;

/// Runs the fma/fp32 case and a read sweep over kHostProbeDramBytes on every thread of the pool
/// (`runs` timed runs each after one warm-up) and returns the rates of their medians. About
/// 60 ms on the 2-core VM, most of it the DRAM sweeps.
HostState probe_host(int runs = 7);

} // namespace perfmodel::kernels::cpu
