// GPU result helpers: event timings to statistics, batching of short kernels, CPU-result view.
#include <algorithm>
#include <cmath>

#include "perfmodel/kernels/cuda/gpu_bench.hpp"

namespace perfmodel::kernels::cuda {

double GpuBenchResult::flops_per_second() const {
  return time.median_seconds > 0 ? bench.flops / time.median_seconds : 0.0;
}

double GpuBenchResult::bytes_per_second() const {
  return time.median_seconds > 0 ? bench.bytes / time.median_seconds : 0.0;
}

TimingStats stats_from_event_ms(const std::vector<float> &ms, int warmup, int inner) {
  inner = std::max(inner, 1);
  std::vector<double> seconds;
  seconds.reserve(ms.size());
  for (float v : ms)
    seconds.push_back(double(v) * 1e-3 / inner);
  TimingStats s = cpu::summarize(std::move(seconds), warmup);
  s.cache_state = warmup > 0 ? "warm" : "not warmed";
  return s;
}

int choose_inner(double seconds_per_call, double target_seconds, int max_inner) {
  max_inner = std::max(max_inner, 1);
  if (!(seconds_per_call > 0) || !std::isfinite(seconds_per_call))
    return max_inner;
  const double n = std::ceil(target_seconds / seconds_per_call);
  if (n <= 1)
    return 1;
  return n >= max_inner ? max_inner : static_cast<int>(n);
}

std::optional<cpu::BenchResult> as_bench_result(const GpuBenchResult &r) {
  if (!r.skipped.empty() || !(r.time.median_seconds > 0))
    return std::nullopt;
  cpu::BenchResult out;
  out.bench.name = "cuda/" + r.bench.name;
  out.bench.kind = r.bench.kind;
  out.bench.variant = r.bench.variant;
  out.bench.dtype = r.bench.dtype;
  out.bench.threads = 0;
  out.bench.working_set_bytes = r.bench.working_set_bytes;
  out.bench.gemm = r.bench.gemm;
  out.bench.conv = r.bench.conv;
  out.threads = int(r.bench.blocks * r.bench.threads_per_block);
  out.flops = r.bench.flops;
  out.bytes = r.bench.bytes;
  out.time = r.time;
  return out;
}

std::vector<cpu::BenchResult> as_bench_results(const std::vector<GpuBenchResult> &rs) {
  std::vector<cpu::BenchResult> out;
  for (const auto &r : rs)
    if (auto b = as_bench_result(r))
      out.push_back(std::move(*b));
  return out;
}

} // namespace perfmodel::kernels::cuda
