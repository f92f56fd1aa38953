// Turns the CPU microbenchmark results (kernels/cpu/microbench.hpp) into fit samples.
//
// GEMM and convolution cases are rebuilt as one-layer graphs (kernel_graph.hpp) so that their
// counts are the core's; maps, pools and copies keep the counts the benchmark reports, which
// follow the same boda rules. Peak-FMA, read/triad bandwidth and launch cases describe the
// machine rather than a layer kind: they are not fitted, only reported (microbench_reference).
// Maps whose time is set by work the counts do not see (sigmoid's exp, a broadcast's index
// arithmetic) are left out too: they would tilt the class plain maps are predicted with.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "calibrate/sample.hpp"
#include "kernels/cpu/microbench.hpp"
#include "perfmodel/time_statistic.hpp"

namespace perfmodel::calibrate {

/// Cases calibration adds to kernels/cpu's plan: matrix-vector products (the linear layers of a
/// batch-1 network) over working sets from L1 to DRAM, and lowered convolutions whose im2col
/// matrix exceeds the L3; sizes on a geometric grid, not taken from any model.
std::vector<kernels::cpu::BenchCase> supplementary_cases(bool quick);

/// The sample of one result, or nullopt for the kinds that are not fitted.
std::optional<Sample> sample_from_bench(const kernels::cpu::BenchResult &r,
                                        TimeStatistic stat = TimeStatistic::median);

/// Samples of every result that gives one, in order.
std::vector<Sample> samples_from_benches(const std::vector<kernels::cpu::BenchResult> &results,
                                         TimeStatistic stat = TimeStatistic::median);

/// Machine figures measured by the plan (for the calibration summary): best FLOP/s of the FMA
/// cases, best bandwidth of the read/copy/triad cases, pool wake-up time.
struct MicrobenchReference {
  double fma_flops_per_second = 0;
  double best_bytes_per_second = 0;
  double launch_seconds = 0;
};
MicrobenchReference microbench_reference(const std::vector<kernels::cpu::BenchResult> &results);

} // namespace perfmodel::calibrate
