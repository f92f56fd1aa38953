// CUDA microbenchmarks behind a plain C++ interface (no CUDA types): device query, the plan, the
// runner.
//
// The structs mirror kernels/cpu/microbench.hpp (kind, name, variant, dtype, GEMM/conv dims,
// flops, bytes, TimingStats) so that as_bench_result() hands a GPU result to the calibration
// code (calibrate::sample_from_bench) unchanged. Every function that touches the device throws
// perfmodel::RuntimeFailure when there is no driver or device; the plan functions never touch it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/dtype.hpp"
#include "perfmodel/kernels/cpu/microbench.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"

namespace perfmodel::kernels::cuda {

using cpu::BenchKind;
using cpu::ConvDims;
using cpu::GemmDims;
using cpu::TimingStats;

/// What the CUDA runtime reports about one device (SI units).
struct DeviceInfo {
  int index = 0;
  std::string name;
  int sm_count = 0;
  int cc_major = 0, cc_minor = 0; // compute capability
  double sm_clock_hz = 0;         // peak SM clock
  double memory_clock_hz = 0;     // peak memory clock
  int memory_bus_width_bits = 0;
  double memory_bytes = 0; // total global memory
  double l2_bytes = 0;
  int driver_version = 0; // 13000 = 13.0
  int runtime_version = 0;
  /// 2 (double data rate) x memory clock x bus width: the datasheet DRAM bandwidth.
  double theoretical_bytes_per_second() const {
    return 2.0 * memory_clock_hz * memory_bus_width_bits / 8.0;
  }
};

/// Every visible device. Throws RuntimeFailure ("CUDA: no usable device: ...") when the driver
/// is missing or too old or no device is visible.
std::vector<DeviceInfo> query_devices();
/// One device; throws RuntimeFailure as above or when `index` is out of range.
DeviceInfo query_device(int index);

/// One GPU microbenchmark. Sizes are fixed by the plan so that flops and bytes are known before
/// anything runs (and tested without a device).
struct GpuBenchCase {
  std::string name; // unique, e.g. "gemm/tf32/1024x1024x1024", "bw/triad/256MiB"
  BenchKind kind = BenchKind::gemm;
  std::string variant; // bandwidth: read|copy|triad; fma: fp32|half2; gemm: fp32|tf32|fp16;
                       // conv: fp32|fp16; launch: empty
  DType dtype = DType::fp32;
  int64_t working_set_bytes = 0;             // bandwidth: bytes of all arrays; 0 otherwise
  int64_t elements = 0;                      // bandwidth: floats per array
  int64_t blocks = 0, threads_per_block = 0; // own kernels: the launch grid
  int64_t fma_iterations = 0; // fma: loop trips of each thread (kFmaChains FMAs each)
  std::optional<GemmDims> gemm;
  std::optional<ConvDims> conv;
  double flops = 0; // boda rules: 2 x MACs; an FMA counts 2, a half2 FMA 4
  double bytes = 0; // compulsory traffic: every array read or written once
};

/// Independent FMA accumulators per thread in the peak kernels (enough to hide FMA latency).
inline constexpr int kFmaChains = 8;

/// One measured (or skipped) case.
struct GpuBenchResult {
  GpuBenchCase bench;
  std::string skipped;   // non-empty: why it did not run (cc too low, memory, no cuDNN)
  std::string algorithm; // conv: the cuDNN algorithm chosen; gemm: the cuBLAS compute type
  TimingStats time;      // seconds per kernel call (median of event-timed samples)
  int inner = 1;         // kernel calls per timed sample
  std::optional<double> energy_joules; // NVML, over all timed samples, when available
  double flops_per_second() const;
  double bytes_per_second() const;
};

struct GpuBenchOptions {
  bool quick = false;
  int device = 0;
  int warmup = 0;   // 0 = the plan's default (3)
  int iters = 0;    // 0 = the plan's default (quick 5, full 15)
  std::string only; // run only cases whose name contains this ("" = all)
  std::string nvml_soname = "libnvidia-ml.so.1"; // "" = no energy readings
  std::function<void(size_t, size_t, const GpuBenchCase &)> progress;
};

/// The quick or full plan, in run order (no device needed).
std::vector<GpuBenchCase> gpu_bench_plan(const GpuBenchOptions &opts);

/// Plan builders (exposed for tests and for custom sweeps).
GpuBenchCase bandwidth_case(const std::string &variant, int64_t working_set_bytes);
GpuBenchCase fma_case(const std::string &variant);
GpuBenchCase gemm_case(const std::string &variant, GemmDims d);
GpuBenchCase conv_case(const std::string &variant, ConvDims d);
GpuBenchCase launch_case();

/// Statistics of event timings: `ms` holds one elapsed time (milliseconds) per sample, each
/// covering `inner` calls; the result is seconds per call.
TimingStats stats_from_event_ms(const std::vector<float> &ms, int warmup, int inner);

/// Calls per timed sample so that one sample lasts about `target_seconds` (at least 1, at most
/// `max_inner`): CUDA events resolve ~0.5 us, so microsecond kernels are batched.
int choose_inner(double seconds_per_call, double target_seconds = 2e-4, int max_inner = 1000);

/// Runs the whole plan on opts.device. Throws RuntimeFailure when there is no device.
std::vector<GpuBenchResult> run_gpu_microbenchmarks(const GpuBenchOptions &opts);

/// Runs one case (device selected by opts.device). Cases that cannot run come back skipped.
GpuBenchResult run_gpu_bench(const GpuBenchCase &c, const GpuBenchOptions &opts);

/// One GEMM, C = A B^T with A [m x k], B [n x k], row-major, in `dtype` (fp32, tf32 or fp16;
/// fp16 rounds the inputs), batch 1. For checking cuBLAS against a CPU reference.
std::vector<float> gemm_on_device(const GemmDims &d, DType dtype, const std::vector<float> &a,
                                  const std::vector<float> &b, int device = 0);

/// The GPU result as a CPU BenchResult (name prefixed "cuda/") so that the calibration code
/// turns it into a fit sample; nullopt for skipped or unmeasured results.
std::optional<cpu::BenchResult> as_bench_result(const GpuBenchResult &r);
std::vector<cpu::BenchResult> as_bench_results(const std::vector<GpuBenchResult> &rs);

} // namespace perfmodel::kernels::cuda
