// Microbenchmark results -> fit samples (one-layer graphs for GEMM and conv cases).
#include "calibrate/microbench_samples.hpp"

#include <algorithm>

#include "calibrate/kernel_graph.hpp"

namespace perfmodel::calibrate {

namespace kc = kernels::cpu;

namespace {

io::MeasurementRow row_of(const kc::BenchResult& r) {
  io::MeasurementRow row;
  row.loc = SourceLoc{"microbench:" + r.bench.name, 0, 0};
  row.dtype = r.bench.dtype;
  row.seconds = r.time.median_seconds;
  if (r.bench.kind == kc::BenchKind::gemm) {
    const kc::GemmDims& d = *r.bench.gemm;
    row.op = io::KernelOp::gemm;
    row.m = d.m, row.n = d.n, row.k = d.k, row.batch = d.batch;
  } else {
    const kc::ConvDims& d = *r.bench.conv;
    row.op = io::KernelOp::conv2d;
    row.batch = d.batch, row.c = d.c, row.h = d.h, row.w = d.w, row.out_channels = d.out_channels;
    row.kernel_h = d.kernel_h, row.kernel_w = d.kernel_w;
    row.stride_h = d.stride_h, row.stride_w = d.stride_w;
    row.pad_h = d.pad_h, row.pad_w = d.pad_w;
    row.dilation_h = d.dilation_h, row.dilation_w = d.dilation_w;
    row.groups = d.groups;
  }
  return row;
}

Sample counted(const kc::BenchResult& r, OpClass c) {
  Sample s;
  s.op_class = c;
  s.dtype = r.bench.dtype;
  s.flops = r.flops;
  s.bytes = r.bytes;
  s.seconds = r.time.median_seconds;
  s.source = "microbench:" + r.bench.name;
  return s;
}

}  // namespace

std::optional<Sample> sample_from_bench(const kc::BenchResult& r) {
  if (!(r.time.median_seconds > 0)) return std::nullopt;
  const std::string& v = r.bench.variant;
  switch (r.bench.kind) {
    case kc::BenchKind::gemm:
      if (!r.bench.gemm) return std::nullopt;
      return kernel_sample(row_of(r));
    case kc::BenchKind::conv:
      if (!r.bench.conv) return std::nullopt;
      return kernel_sample(row_of(r));
    case kc::BenchKind::elementwise:
      // A transcendental map (sigmoid: exp per element) costs far more than its boda FLOPs say;
      // one such point would tilt the class that relu/add layers are predicted with.
      if (v == "sigmoid" || v == "tanh" || v == "gelu") return std::nullopt;
      return counted(r, v == "batchnorm" ? OpClass::norm : OpClass::elementwise);
    case kc::BenchKind::pool: return counted(r, OpClass::pool);
    case kc::BenchKind::bandwidth:
      if (v == "copy") return counted(r, OpClass::data_movement);
      return std::nullopt;
    case kc::BenchKind::fma:
    case kc::BenchKind::launch: return std::nullopt;
  }
  return std::nullopt;
}

std::vector<Sample> samples_from_benches(const std::vector<kc::BenchResult>& results) {
  std::vector<Sample> out;
  for (const auto& r : results)
    if (auto s = sample_from_bench(r)) out.push_back(*s);
  return out;
}

MicrobenchReference microbench_reference(const std::vector<kc::BenchResult>& results) {
  MicrobenchReference ref;
  for (const auto& r : results) {
    const double t = r.time.median_seconds;
    if (!(t > 0)) continue;
    if (r.bench.kind == kc::BenchKind::fma)
      ref.fma_flops_per_second = std::max(ref.fma_flops_per_second, r.flops / t);
    if (r.bench.kind == kc::BenchKind::bandwidth)
      ref.best_bytes_per_second = std::max(ref.best_bytes_per_second, r.bytes / t);
    if (r.bench.kind == kc::BenchKind::launch && r.bench.variant == "pool")
      ref.launch_seconds = t;
  }
  return ref;
}

}  // namespace perfmodel::calibrate
