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

#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/host_state.hpp"
#include "perfmodel/kernels/cpu/microbench.hpp"
#include "perfmodel/time_statistic.hpp"

namespace perfmodel::calibrate {

/// Cases calibration adds to kernels/cpu's plan: matrix-vector products (the linear layers of a
/// batch-1 network) over working sets from L1 to DRAM, and lowered convolutions whose working
/// set lies in DRAM beyond `cache_bytes` (the spec's outermost cache, cache_bytes_for); sizes on
/// a geometric grid, not taken from any model.
std::vector<kernels::cpu::BenchCase> supplementary_cases(bool quick, double cache_bytes);

/// A DRAM convolution case's working set is at least this many times the outermost cache: the
/// model's level rule (memory_level_for) then puts it in DRAM with a margin for the neighbours'
/// share of a cache that the spec's capacity only estimates.
inline constexpr double kDramCaseCacheMultiple = 1.5;

/// The image side of a DRAM convolution case (c -> oc channels, k x k kernel, stride 1, "same"
/// padding): `base_side`, or the smallest multiple of 8 above it whose input + output + im2col
/// matrix (fp32) reach kDramCaseCacheMultiple x `cache_bytes` (base_side for no finite cache).
int64_t dram_conv_side(int64_t c, int64_t oc, int64_t k, int64_t base_side, double cache_bytes);

/// The sample of one result, or nullopt for the kinds that are not fitted.
std::optional<Sample> sample_from_bench(const kernels::cpu::BenchResult &r,
                                        TimeStatistic stat = TimeStatistic::median);

/// Samples of every result that gives one, in order.
std::vector<Sample> samples_from_benches(const std::vector<kernels::cpu::BenchResult> &results,
                                         TimeStatistic stat = TimeStatistic::median);

/// `calibrate --save-runs`: every run of every case (BenchResult::runs; one per round), with
/// the host probes on either side of it, as CSV:
///   case,round,counted,probe_before,probe_before_conv (FLOP/s),probe_before_steady,
///   probe_after,probe_after_conv (FLOP/s),probe_after_steady,STAT (s)
/// `probes` are the probes in the order run_cases took them (BenchResult::Run::probe_before
/// indexes them), `full` says which were full host probes ("host": between rounds) and which
/// convolution probes ("conv": inside a round), `judged` which were steady (steady_probes); the
/// last column is the run's `stat` (its round's statistic, as the fit takes). Throws InputError
/// for a run whose probes are not in `probes`.
std::string runs_csv(const std::vector<kernels::cpu::BenchResult> &results,
                     const std::vector<HostState> &probes, const std::vector<bool> &full,
                     const std::vector<bool> &judged, TimeStatistic stat);

/// Machine figures measured by the plan (for the calibration summary): best FLOP/s of the FMA
/// cases, best bandwidth of the read/copy/triad cases, pool wake-up time.
struct MicrobenchReference {
  double fma_flops_per_second = 0;
  double best_bytes_per_second = 0;
  double launch_seconds = 0;
};
MicrobenchReference microbench_reference(const std::vector<kernels::cpu::BenchResult> &results);

} // namespace perfmodel::calibrate
