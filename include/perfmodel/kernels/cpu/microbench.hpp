// CPU microbenchmarks: the plan (which kernels at which sizes) and plain result structs that
// calibration turns into fit samples. The kernels timed are the executor's own code paths.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfmodel/dtype.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"

namespace perfmodel::kernels::cpu {

enum class BenchKind { bandwidth, fma, gemm, conv, elementwise, pool, launch };
std::string_view to_string(BenchKind k);

/// C[m x n] = A[m x k] B[k x n], `batch` independent products, row-major; B is stored [n x k]
/// and used transposed, as a linear layer stores its weight.
struct GemmDims {
  int64_t m = 0, n = 0, k = 0, batch = 1;
};

/// NCHW convolution, the columns of the measurement CSV of issue 4.
struct ConvDims {
  int64_t batch = 1, c = 0, h = 0, w = 0, out_channels = 0;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
  int64_t dilation_h = 1, dilation_w = 1, groups = 1;
  // The epilogue fused into the product (kernels/cpu/gemm.hpp GemmEpilogue): a bias per output
  // channel as C's initial value, and a ReLU's clamp after the product.
  bool bias = true, relu = false;
  int64_t out_h() const { return (h + 2 * pad_h - dilation_h * (kernel_h - 1) - 1) / stride_h + 1; }
  int64_t out_w() const { return (w + 2 * pad_w - dilation_w * (kernel_w - 1) - 1) / stride_w + 1; }
};

/// One microbenchmark to run.
struct BenchCase {
  std::string name; // unique, e.g. "gemm/fp32/256x256x256", "bw/triad/1.00MB"
  BenchKind kind = BenchKind::gemm;
  std::string variant; // bandwidth: read|copy|triad; elementwise: relu|add|...; pool: max|avg;
                       // conv: im2col|direct1x1|depthwise; launch: pool|thread; fma: ""
  DType dtype = DType::fp32;
  int threads = 0;               // 0 = every hardware thread
  int64_t working_set_bytes = 0; // bandwidth/elementwise/pool: bytes of all arrays touched
  std::optional<GemmDims> gemm;
  std::optional<ConvDims> conv;
};

/// One measured microbenchmark. flops and bytes follow the boda counting rules of the
/// executor's layers (compulsory traffic; bandwidth kernels count every byte read or written).
struct BenchResult {
  BenchCase bench;
  int threads = 1; // threads actually used
  double flops = 0;
  double bytes = 0;
  TimingStats time; // over the samples of every round
  /// Each round's own statistics, in order (run_cases with more than one round; empty else).
  /// Calibration fits the median across rounds of a round's statistic (calibrate/
  /// microbench_samples.hpp): a round's runs share one state of a shared host, so a statistic
  /// of the pooled runs takes the fastest round's state, not the typical one.
  std::vector<TimingStats> rounds;
  /// Every round's run of the case in run_cases, counted or not, in order: its statistics,
  /// the index of the host probe taken just before it (MicrobenchOptions::at_probe; the next
  /// probe is the one just after it) and whether it counted. `calibrate --save-runs` writes them.
  struct Run {
    TimingStats time;
    size_t probe_before = 0;
    bool counted = false;
  };
  std::vector<Run> runs;
  double flops_per_second() const;
  double bytes_per_second() const;
};

struct MicrobenchOptions {
  bool quick = false; // the --quick plan (<= ~25 s on 2 cores) instead of the full one
  int threads = 0;    // 0 = every hardware thread
  int warmup = 0;     // 0 = the plan's default for the kind
  int iters = 0;      // timed runs per case over all rounds (0 = 15, 5 with --quick)
  /// The cases run this many times in turn, iters / rounds timed runs each time; each case's
  /// `time` covers the samples of every round and `rounds` keeps each round's statistics
  /// (0 = 9 for the full plan, 1 for --quick).
  /// Spreading a case over the whole run averages out the seconds-long slow spells of a shared
  /// host (2x on memory-bound kernels on a shared host) instead of catching one of them whole.
  int rounds = 0;
  std::string only; // run only cases whose name contains this ("" = all)
  /// The outermost cache's capacity (the hw spec's level before DRAM; 0 = unknown). A lowered
  /// convolution whose input, output and im2col workspace fit in it is timed with the
  /// workspace as the previous call left it, larger ones with it evicted (microbench.cpp,
  /// timed_in_network).
  double cache_bytes = 0;
  /// Host probes, judged by the caller. Called by run_cases before the first round and after
  /// every round (`boundary` true: calibrate takes its full host probe there) and, where
  /// `probe_interval_seconds` > 0, inside a round before a case once that long has passed since
  /// the previous call (`boundary` false: calibrate takes a convolution probe). Returns, for
  /// every probe so far in order (this one last), whether the host was in its steady state
  /// there (nullptr, or an answer short of the probes: the rest steady); an earlier probe may be
  /// judged again, as calibrate's convolution rule compares each probe with the fastest yet.
  /// A case's runs in a round count only when the probes just before and just after them are
  /// steady by the latest answer. run_cases runs up to `extra_rounds` more rounds while some
  /// case has fewer than `rounds` rounds that count, and a case none of whose rounds counts keeps
  /// them all.
  std::function<std::vector<bool>(bool boundary)> at_probe;
  double probe_interval_seconds = 0;
  int extra_rounds = 0;
  /// Called before each case with (index, count, case); progress on stderr in the CLI.
  std::function<void(size_t, size_t, const BenchCase &)> progress;
};

/// Runs `cases` in opts.rounds rounds (see MicrobenchOptions) and merges each case's samples
/// over its rounds that count.
std::vector<BenchResult> run_cases(const std::vector<BenchCase> &cases,
                                   const MicrobenchOptions &opts);

/// Run counts of run_cases' results: runs counted, runs in all, and cases with runs of which
/// none counted (those keep every run, taken beside probes that found the host disturbed).
struct CountedRuns {
  size_t counted = 0, runs = 0, cases_without = 0;
};
CountedRuns counted_runs(const std::vector<BenchResult> &results);

/// Whether a lowered convolution of `input`, `output` and `workspace` elements (fp32) is timed
/// with its im2col workspace as the previous call left it: they all fit in `cache_bytes`
/// (MicrobenchOptions::cache_bytes; 0 = unknown: evicted).
bool conv_workspace_stays_cached(double input, double output, double workspace, double cache_bytes);

/// A convolution case of the plan: batch x c x hw x hw input, `oc` outputs, a `k`x`k` kernel at
/// `stride` with "same" padding, `groups` groups; a bias, no fused activation. Named
/// conv/VARIANT/nBcChWoOkKsS, the variant the executor's path (im2col, direct1x1, depthwise).
BenchCase conv_case(int64_t batch, int64_t c, int64_t hw, int64_t oc, int64_t k, int64_t stride,
                    int64_t groups = 1);

/// The cases of the quick or full plan, in run order.
std::vector<BenchCase> microbench_plan(const MicrobenchOptions &opts);

/// Runs one case. Throws perfmodel::InputError for a malformed case.
BenchResult run_bench(const BenchCase &c, const MicrobenchOptions &opts);

/// Runs the whole plan.
std::vector<BenchResult> run_microbenchmarks(const MicrobenchOptions &opts);

} // namespace perfmodel::kernels::cpu
