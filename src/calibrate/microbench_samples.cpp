// Microbenchmark results -> fit samples (one-layer graphs for GEMM and conv cases).
#include "perfmodel/calibrate/microbench_samples.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "perfmodel/calibrate/kernel_graph.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"

namespace perfmodel::calibrate {

namespace kc = kernels::cpu;

namespace {

// The statistic of each round, then the median across rounds (one round: of its runs). A
// shared host changes speed for seconds at a time, so a round's runs share one state: a p20 of
// the pooled runs is the fastest round's, and calibrations predicted networks measured later
// 1.7-6% faster than with the median across rounds (docs/calibration.md, "Rounds").
double seconds_of(const kc::BenchResult &r, TimeStatistic stat) {
  if (r.rounds.empty())
    return kc::pick(stat, r.time);
  std::vector<double> v;
  for (const kc::TimingStats &t : r.rounds)
    v.push_back(kc::pick(stat, t));
  std::sort(v.begin(), v.end());
  return kc::quantile_sorted(v, 0.5);
}

io::MeasurementRow row_of(const kc::BenchResult &r, TimeStatistic stat) {
  io::MeasurementRow row;
  row.loc = SourceLoc{"microbench:" + r.bench.name, 0, 0};
  row.dtype = r.bench.dtype;
  row.seconds = seconds_of(r, stat);
  if (r.bench.kind == kc::BenchKind::gemm) {
    const kc::GemmDims &d = *r.bench.gemm;
    row.op = io::KernelOp::gemm;
    row.m = d.m, row.n = d.n, row.k = d.k, row.batch = d.batch;
  } else {
    const kc::ConvDims &d = *r.bench.conv;
    row.op = io::KernelOp::conv2d;
    row.batch = d.batch, row.c = d.c, row.h = d.h, row.w = d.w, row.out_channels = d.out_channels;
    row.kernel_h = d.kernel_h, row.kernel_w = d.kernel_w;
    row.stride_h = d.stride_h, row.stride_w = d.stride_w;
    row.pad_h = d.pad_h, row.pad_w = d.pad_w;
    row.dilation_h = d.dilation_h, row.dilation_w = d.dilation_w;
    row.groups = d.groups;
    row.bias = d.bias;
    row.activation = d.relu ? "relu" : "";
  }
  return row;
}

Sample counted(const kc::BenchResult &r, OpClass c, TimeStatistic stat) {
  Sample s;
  s.op_class = c;
  s.dtype = r.bench.dtype;
  s.flops = r.flops;
  s.bytes = r.bytes;
  s.seconds = seconds_of(r, stat);
  s.source = "microbench:" + r.bench.name;
  if (c == OpClass::pool && r.bench.conv) // the planes the pool takes one at a time
    s.plane_elements = double(r.bench.conv->h * r.bench.conv->w);
  return s;
}

} // namespace

int64_t dram_conv_side(int64_t c, int64_t oc, int64_t k, int64_t base_side, double cache_bytes) {
  // A same-size ("same" padding, stride 1) convolution's fp32 bytes per output pixel: the
  // input's and output's channels and the im2col matrix's column of c*k*k.
  const double per_pixel = 4.0 * double(c + oc + c * k * k);
  const double target = kDramCaseCacheMultiple * cache_bytes;
  if (!(target > 0) || !std::isfinite(target))
    return base_side;
  const auto side = int64_t(std::ceil(std::sqrt(target / per_pixel)));
  return std::max(base_side, (side + 7) / 8 * 8); // a multiple of 8, for a tidy name
}

std::vector<kc::BenchCase> supplementary_cases(bool quick, double cache_bytes) {
  std::vector<kc::BenchCase> out;
  // 1 x n x k with the matrix (4nk bytes) at ~48 KB, 0.5 MB, 1.5 MB, 8 MB, 24 MB, 64 MB, 256 MB.
  const std::vector<std::pair<int64_t, int64_t>> full = {
      {96, 128}, {256, 512}, {512, 768}, {1200, 1600}, {2000, 3000}, {4000, 4000}, {8000, 8000}};
  const std::vector<std::pair<int64_t, int64_t>> short_list = {
      {96, 128}, {512, 768}, {1200, 1600}, {4000, 4000}};
  for (auto [n, k] : quick ? short_list : full) {
    kc::BenchCase c;
    c.kind = kc::BenchKind::gemm;
    c.name = "gemv/1x" + std::to_string(n) + "x" + std::to_string(k);
    c.gemm = kc::GemmDims{1, n, k, 1};
    out.push_back(c);
  }
  // Lowered convolutions whose working set (input, output, im2col matrix) lives in DRAM: the
  // plan's largest stay in the caches, and large-image CNN layers lower through DRAM. Each
  // family's image grows from its base size until the working set is kDramCaseCacheMultiple
  // times the outermost cache, so that the model's level rule puts it in DRAM on this host too
  // (dram_conv_side).
  struct Big {
    int64_t c, hw, oc, k;
  };
  const std::vector<Big> big =
      quick ? std::vector<Big>{{32, 200, 64, 3}}
            : std::vector<Big>{{32, 200, 64, 3}, {64, 160, 64, 3}, {16, 256, 32, 5}};
  for (const Big &b : big) {
    kc::BenchCase c;
    c.kind = kc::BenchKind::conv;
    c.variant = "im2col";
    kc::ConvDims d;
    d.c = b.c, d.out_channels = b.oc, d.kernel_h = d.kernel_w = b.k;
    d.h = d.w = dram_conv_side(b.c, b.oc, b.k, b.hw, cache_bytes);
    d.pad_h = d.pad_w = b.k / 2;
    c.conv = d;
    c.name = "conv/im2col-dram/c" + std::to_string(b.c) + "h" + std::to_string(d.h) + "o" +
             std::to_string(b.oc) + "k" + std::to_string(b.k);
    out.push_back(c);
  }
  return out;
}

std::optional<Sample> sample_from_bench(const kc::BenchResult &r, TimeStatistic stat) {
  if (!(seconds_of(r, stat) > 0))
    return std::nullopt;
  const std::string &v = r.bench.variant;
  switch (r.bench.kind) {
  case kc::BenchKind::gemm:
    if (!r.bench.gemm)
      return std::nullopt;
    return kernel_sample(row_of(r, stat));
  case kc::BenchKind::conv:
    if (!r.bench.conv)
      return std::nullopt;
    return kernel_sample(row_of(r, stat));
  case kc::BenchKind::elementwise:
    // A transcendental map (sigmoid: exp per element) or a broadcast (index arithmetic per
    // element) costs more than its counts say; such points would tilt the class that
    // relu/add layers are predicted with.
    if (v == "sigmoid" || v == "tanh" || v == "gelu" || v == "add_bcast")
      return std::nullopt;
    return counted(r, v == "batchnorm" ? OpClass::norm : OpClass::elementwise, stat);
  case kc::BenchKind::pool:
    // A global pool streams each plane once (tens of GB/s); a windowed pool gathers strided
    // windows (a few GB/s): two classes.
    return counted(r, v == "global" ? OpClass::reduce : OpClass::pool, stat);
  case kc::BenchKind::bandwidth:
    if (v == "copy")
      return counted(r, OpClass::data_movement, stat);
    return std::nullopt;
  case kc::BenchKind::fma:
  case kc::BenchKind::launch:
    return std::nullopt;
  }
  return std::nullopt;
}

std::vector<Sample> samples_from_benches(const std::vector<kc::BenchResult> &results,
                                         TimeStatistic stat) {
  std::vector<Sample> out;
  for (const auto &r : results)
    if (auto s = sample_from_bench(r, stat))
      out.push_back(*s);
  return out;
}

MicrobenchReference microbench_reference(const std::vector<kc::BenchResult> &results) {
  MicrobenchReference ref;
  for (const auto &r : results) {
    const double t = r.time.median_seconds;
    if (!(t > 0))
      continue;
    if (r.bench.kind == kc::BenchKind::fma)
      ref.fma_flops_per_second = std::max(ref.fma_flops_per_second, r.flops / t);
    if (r.bench.kind == kc::BenchKind::bandwidth)
      ref.best_bytes_per_second = std::max(ref.best_bytes_per_second, r.bytes / t);
    if (r.bench.kind == kc::BenchKind::launch && r.bench.variant == "pool")
      ref.launch_seconds = t;
  }
  return ref;
}

std::string runs_csv(const std::vector<kc::BenchResult> &results,
                     const std::vector<HostState> &probes, const std::vector<bool> &full,
                     const std::vector<bool> &judged, TimeStatistic stat) {
  std::string s = "case,round,counted,probe_before,probe_before_conv (FLOP/s),"
                  "probe_before_steady,probe_after,probe_after_conv (FLOP/s),probe_after_steady," +
                  std::string(to_string(stat)) + " (s)\n";
  for (const kc::BenchResult &r : results)
    for (size_t k = 0; k < r.runs.size(); ++k) {
      const kc::BenchResult::Run &x = r.runs[k];
      const size_t b = x.probe_before, e = b + 1;
      if (e >= probes.size() || e >= full.size() || e >= judged.size())
        throw InputError("runs_csv: " + r.bench.name + " round " + std::to_string(k + 1) +
                         ": no probe after it");
      char buf[256];
      std::snprintf(buf, sizeof buf, ",%zu,%d,%s,%.6g,%d,%s,%.6g,%d,%.9g\n", k + 1,
                    x.counted ? 1 : 0, full[b] ? "host" : "conv", probes[b].conv_flops_per_second,
                    judged[b] ? 1 : 0, full[e] ? "host" : "conv", probes[e].conv_flops_per_second,
                    judged[e] ? 1 : 0, kc::pick(stat, x.time));
      s += r.bench.name + buf;
    }
  return s;
}

} // namespace perfmodel::calibrate
