// Running one microbenchmark: buffers, the kernel call (the executor's own), timing, counts.
#include "perfmodel/kernels/cpu/microbench.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <thread>
#include <tuple>

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/normalize.hpp"
#include "perfmodel/epilogue.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/kernels/cpu/conv.hpp"
#include "perfmodel/kernels/cpu/elementwise.hpp"
#include "perfmodel/kernels/cpu/gemm.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/pool.hpp"
#include "perfmodel/kernels/cpu/stream.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"

namespace perfmodel::kernels::cpu {

namespace {

constexpr double kMinSampleSeconds = 2e-4; // short kernels repeat inside one sample

// Timed runs per case when MicrobenchOptions::iters is 0 (over all rounds in run_cases).
int default_iters(const MicrobenchOptions &opts) { return opts.quick ? 5 : 15; }

// Rounds when MicrobenchOptions::rounds is 0: nine for the full plan (two runs per case each),
// one for --quick. With three, fresh calibrations on the shared host scored 14-51 of 64
// targets on the same 32 measured networks, with nine 40-51 in four of five (docs/calibration.md,
// "Rounds").
int default_rounds(const MicrobenchOptions &opts) { return opts.quick ? 1 : 9; }

std::atomic<float> g_sink{0}; // results of read/fma kernels land here so they are not elided

Buffer filled(int64_t n, float v) {
  return Buffer(static_cast<size_t>(std::max<int64_t>(n, 1)), v);
}

// Times fn with enough inner repetitions that one sample lasts at least kMinSampleSeconds.
TimingStats timed(const std::function<void()> &fn, int warmup, int iters) {
  const double t0 = now_seconds();
  fn();
  const double once = std::max(now_seconds() - t0, 1e-9);
  const int inner = static_cast<int>(std::clamp(std::ceil(kMinSampleSeconds / once), 1.0, 1e5));
  return time_runs(fn, warmup, iters, inner);
}

// Rewrites a tensor in place with every thread (contiguous slices, as the executor's maps and
// row-split GEMMs write their outputs): it is then fresh in the writers' caches.
void produce(float *p, int64_t n) {
  parallel_for(n, 4096, [p](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      p[i] = -p[i]; // keeps the values' distribution (symmetric around 0)
  });
}

struct Span {
  float *p;
  int64_t n;
};
Span span(Tensor &t) { return {t.ptr(), t.size()}; }

// The executor's kernels are timed one call per sample in the state of a layer inside a forward
// pass of a network larger than the caches: the activation inputs were just written by their
// producer (rewritten here by every thread); the weights and any im2col workspace are evicted
// from every cache level (the weights were last touched a pass ago). The output of a GEMM or a
// convolution stays as the previous call left it: under the executor's `reuse` plan an output
// takes a buffer freed a layer or two before, still in cache (evicting it made the 1x1
// convolutions 2-5% slower than the same calls with it cached; in eight A/B cycles fits on
// evicted outputs predicted ResNet-50's 1x1 convolutions 7% slow on average, against 2%). The
// workspace stays as the previous call left it when the input, output and workspace fit in the
// outermost cache (MicrobenchOptions::cache_bytes), and is evicted otherwise: each thread lowers
// into a slab of its own (conv.hpp), which a network's next lowered convolution finds as that
// thread left it, in the cache unless the layers between pushed it out. On a host with a 32 MiB
// L3 a fit on evicted workspaces predicted the calibration networks' lowered convolutions
// within a few percent; on one with a 128 MiB share of the L3 it predicted them 18-29%
// slow (held-out medians), and a convolution with a 7-32 MB workspace ran 25-37% faster with it
// left cached (docs/calibration.md, "Cache state").
//
// Not emulated: the dirty lines earlier layers leave behind. Filling the cache with dirty lines
// first made maps 30-50% slower than the same maps inside a ResNet-50 pass (half the LLC dirty:
// 53 GB/s against 69-80 in the network; clean: 83-87) and 1x1 convolutions 25% slower, so the
// write-backs are not paid inside the layer that triggers them often enough to model them so.
TimingStats timed_in_network(const std::function<void()> &fn, std::vector<Span> inputs,
                             std::vector<Span> cold, int warmup, int iters) {
  fn(); // first touch: page faults and lazy allocation stay out of the samples
  auto setup = [&] {
    for (const Span &c : cold)
      evict_from_caches(c.p, c.n);
    for (const Span &in : inputs)
      produce(in.p, in.n);
  };
  return time_runs_after(setup, fn, warmup, iters, "in-network");
}

void run_bandwidth(const BenchCase &c, BenchResult &r, int warmup, int iters) {
  const int arrays = c.variant == "read" ? 1 : c.variant == "copy" ? 2 : 3;
  const int t = num_threads();
  const int64_t n = std::max<int64_t>(c.working_set_bytes / (4 * arrays), 16 * t);
  // read and triad characterise the machine: each thread sweeps its own slice `reps` times
  // inside one parallel_for, so a working set that fits in L1 measures L1 and not the pool's
  // wake-up (about 32 MiB of traffic per call). copy is the executor's data-movement call
  // (parallel_copy: one sweep per call, wake-up included), which calibration fits layers with.
  const int64_t reps =
      c.variant == "copy"
          ? 1
          : std::max<int64_t>(1, (int64_t(32) << 20) / std::max<int64_t>(4 * n * arrays, 1));
  Buffer a = filled(n, 1.0f), b = filled(arrays > 1 ? n : 1, 2.0f),
         d = filled(arrays > 2 ? n : 1, 0.5f);
  std::function<void(int64_t, int64_t)> kernel;
  if (c.variant == "read")
    kernel = [&](int64_t s, int64_t e) {
      float acc = 0;
      for (int64_t i = 0; i < reps; ++i)
        acc += stream_read(a.data() + s, e - s);
      g_sink.store(acc, std::memory_order_relaxed);
    };
  else if (c.variant == "copy")
    kernel = [&](int64_t s, int64_t e) { stream_copy(a.data() + s, b.data() + s, e - s); };
  else if (c.variant == "triad")
    kernel = [&](int64_t s, int64_t e) {
      for (int64_t i = 0; i < reps; ++i)
        stream_triad(a.data() + s, b.data() + s, d.data() + s, 0.5f, e - s);
    };
  else
    throw InputError("microbenchmark " + c.name + ": unknown bandwidth variant '" + c.variant +
                     "'");
  auto fn = [&] {
    if (c.variant == "copy")
      parallel_copy(a.data(), b.data(), n);
    else
      parallel_for(n, (n + t - 1) / t, kernel);
  };
  r.bytes = 4.0 * double(n) * arrays * double(reps);
  r.flops = c.variant == "triad" ? 2.0 * double(n) * double(reps) : 0.0;
  r.time = c.variant == "copy"
               ? timed_in_network(fn, {{a.data(), n}}, {{b.data(), n}}, warmup, iters)
               : timed(fn, warmup, iters);
}

void run_fma(const BenchCase &c, BenchResult &r, int warmup, int iters) {
  const bool fp64 = c.dtype == DType::fp64;
  const int64_t rounds = 1 << 20;
  const int t = num_threads();
  auto fn = [&] {
    parallel_for(t, 1, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i)
        g_sink.store(fp64 ? float(fma_chains_fp64(rounds)) : fma_chains_fp32(rounds),
                     std::memory_order_relaxed);
    });
  };
  r.flops = fma_flops(rounds, fp64) * t;
  r.time = timed(fn, warmup, iters);
}

void run_gemm(const BenchCase &c, BenchResult &r, int warmup, int iters) {
  const GemmDims g = *c.gemm;
  if (g.m <= 0 || g.n <= 0 || g.k <= 0 || g.batch <= 0)
    throw InputError("microbenchmark " + c.name + ": GEMM dimensions must be positive");
  // B stored [n x k] and used transposed: the layout of a linear layer's weight, the GEMM
  // layers of CNNs that are not convolutions.
  Tensor a = random_tensor({g.batch, g.m, g.k}, 1), b = random_tensor({g.batch, g.n, g.k}, 2);
  Tensor out = zero_tensor({g.batch, g.m, g.n});
  auto fn = [&] {
    for (int64_t i = 0; i < g.batch; ++i)
      gemm(g.m, g.n, g.k, a.ptr() + i * g.m * g.k, g.k, false, b.ptr() + i * g.k * g.n, g.k, true,
           out.ptr() + i * g.m * g.n, g.n);
  };
  r.flops = 2.0 * g.batch * g.m * g.n * g.k;
  r.bytes = 4.0 * g.batch * (g.m * g.k + g.k * g.n + g.m * g.n);
  r.time = timed_in_network(fn, {span(a)}, {span(b)}, warmup, iters);
}

ConvGeom geom(const BenchCase &c) {
  const ConvDims &d = *c.conv;
  ConvGeom g;
  g.n = d.batch, g.c = d.c, g.h = d.h, g.w = d.w, g.oc = d.out_channels;
  g.oh = d.out_h(), g.ow = d.out_w();
  g.kh = d.kernel_h, g.kw = d.kernel_w, g.sh = d.stride_h, g.sw = d.stride_w;
  g.pad_top = d.pad_h, g.pad_left = d.pad_w, g.dh = d.dilation_h, g.dw = d.dilation_w;
  g.groups = d.groups;
  if (d.relu)
    std::tie(g.clamp_lo, g.clamp_hi) = *fused_clamp("relu");
  if (g.n <= 0 || g.c <= 0 || g.oc <= 0 || g.oh <= 0 || g.ow <= 0 || g.groups <= 0 ||
      g.c % g.groups || g.oc % g.groups)
    throw InputError("microbenchmark " + c.name + ": invalid convolution geometry");
  return g;
}

void run_conv(const BenchCase &c, BenchResult &r, int warmup, int iters, double cache_bytes) {
  const ConvGeom g = geom(c);
  Tensor in = random_tensor({g.n, g.c, g.h, g.w}, 1);
  Tensor wt = random_tensor({g.oc, g.c / g.groups, g.kh, g.kw}, 2), bias = random_tensor({g.oc}, 3);
  Tensor out = zero_tensor({g.n, g.oc, g.oh, g.ow});
  Tensor ws = zero_tensor({std::max<int64_t>(conv_workspace(g, false), 1)});
  const float *b = c.conv->bias ? bias.ptr() : nullptr;
  auto fn = [&] { conv2d(g, in.ptr(), wt.ptr(), b, out.ptr(), ws.ptr()); };
  const double macs = double(g.n) * g.oh * g.ow * g.oc * (g.c / g.groups) * g.kh * g.kw;
  r.flops = 2.0 * macs;
  r.bytes = 4.0 * (double(in.size()) + wt.size() + (b ? bias.size() : 0) + out.size());
  std::vector<Span> cold = {span(wt), span(bias)};
  if (!conv_workspace_stays_cached(double(in.size()), double(out.size()), double(ws.size()),
                                   cache_bytes))
    cold.push_back(span(ws));
  r.time = timed_in_network(fn, {span(in)}, cold, warmup, iters);
}

void run_map(const BenchCase &c, BenchResult &r, int warmup, int iters) {
  const bool binary = c.variant == "add" || c.variant == "add_bcast";
  // Working set: input + output (+ second input of a same-shape add); 64 channels of planes.
  const int64_t n = std::max<int64_t>(c.working_set_bytes / (4 * (c.variant == "add" ? 3 : 2)), 64);
  const int64_t ch = 64, plane = std::max<int64_t>(n / ch, 1), total = ch * plane;
  Tensor x = random_tensor({1, ch, plane}, 1), y = random_tensor({1, ch, plane}, 2);
  Tensor cb = random_tensor({1, ch, 1}, 3), cs = random_tensor({ch}, 4);
  Tensor out = zero_tensor({1, ch, plane});
  std::function<void()> fn;
  double flops_per = 1;
  if (c.variant == "relu" || c.variant == "sigmoid") {
    flops_per = c.variant == "relu" ? 1 : 4;
    fn = [&, f = c.variant] { activation(f, {}, x.ptr(), out.ptr(), total); };
  } else if (c.variant == "add") {
    fn = [&] { elementwise("add", {x.ptr(), y.ptr()}, {x.shape, y.shape}, out.shape, out.ptr()); };
  } else if (c.variant == "add_bcast") {
    fn = [&] {
      elementwise("add", {x.ptr(), cb.ptr()}, {x.shape, cb.shape}, out.shape, out.ptr());
    };
  } else if (c.variant == "batchnorm") {
    flops_per = 2;
    fn = [&] { batch_norm(1, ch, plane, x.ptr(), cs.ptr(), cs.ptr(), out.ptr()); };
  } else {
    throw InputError("microbenchmark " + c.name + ": unknown elementwise variant '" + c.variant +
                     "'");
  }
  r.flops = flops_per * double(total);
  r.bytes =
      4.0 * double(total) * (c.variant == "add" ? 3 : 2) +
      (c.variant == "add_bcast" || c.variant == "batchnorm" ? 4.0 * ch * (binary ? 1 : 4) : 0.0);
  std::vector<Span> inputs{span(x)};
  if (c.variant == "add")
    inputs.push_back(span(y));
  r.time = timed_in_network(fn, inputs, {span(out), span(cb), span(cs)}, warmup, iters);
}

void run_pool(const BenchCase &c, BenchResult &r, int warmup, int iters) {
  const ConvDims &d = *c.conv;
  Tensor in = random_tensor({1, d.c, d.h, d.w}, 1);
  std::function<void()> fn;
  Tensor out;
  if (c.variant == "global") {
    out = zero_tensor({1, d.c});
    fn = [&] { global_pool(d.c, d.h * d.w, false, in.ptr(), out.ptr()); };
    r.flops = double(in.size());
  } else {
    PoolGeom g;
    g.c = d.c, g.h = d.h, g.w = d.w, g.oh = d.out_h(), g.ow = d.out_w();
    g.kh = d.kernel_h, g.kw = d.kernel_w, g.sh = d.stride_h, g.sw = d.stride_w;
    g.pad_top = d.pad_h, g.pad_left = d.pad_w;
    out = zero_tensor({1, d.c, g.oh, g.ow});
    const bool max = c.variant == "max";
    if (!max && c.variant != "avg")
      throw InputError("microbenchmark " + c.name + ": unknown pool variant '" + c.variant + "'");
    fn = [&, g, max] { max ? max_pool(g, in.ptr(), out.ptr()) : avg_pool(g, in.ptr(), out.ptr()); };
    r.flops = double(out.size()) * g.kh * g.kw;
  }
  r.bytes = 4.0 * double(in.size() + out.size());
  r.time = timed_in_network(fn, {span(in)}, {span(out)}, warmup, iters);
}

void run_launch(const BenchCase &c, BenchResult &r, int warmup, int iters) {
  std::function<void()> fn;
  if (c.variant == "pool")
    fn = [] { parallel_for(num_threads(), 1, [](int64_t, int64_t) {}); };
  else if (c.variant == "thread")
    fn = [] { std::thread([] {}).join(); };
  else
    throw InputError("microbenchmark " + c.name + ": unknown launch variant '" + c.variant + "'");
  r.time = timed(fn, warmup, iters);
}

} // namespace

std::string_view to_string(BenchKind k) {
  switch (k) {
  case BenchKind::bandwidth:
    return "bandwidth";
  case BenchKind::fma:
    return "fma";
  case BenchKind::gemm:
    return "gemm";
  case BenchKind::conv:
    return "conv";
  case BenchKind::elementwise:
    return "elementwise";
  case BenchKind::pool:
    return "pool";
  case BenchKind::launch:
    return "launch";
  }
  return "?";
}

double BenchResult::flops_per_second() const {
  return time.median_seconds > 0 ? flops / time.median_seconds : 0.0;
}
double BenchResult::bytes_per_second() const {
  return time.median_seconds > 0 ? bytes / time.median_seconds : 0.0;
}

bool conv_workspace_stays_cached(double input, double output, double workspace,
                                 double cache_bytes) {
  return cache_bytes > 0 && 4.0 * (input + output + workspace) <= cache_bytes;
}

BenchResult run_bench(const BenchCase &c, const MicrobenchOptions &opts) {
  retain_freed_heap_memory();
  ThreadCountScope scope(c.threads > 0 ? c.threads : opts.threads);
  BenchResult r;
  r.bench = c;
  r.threads = num_threads();
  const int warmup = opts.warmup > 0 ? opts.warmup : (opts.quick ? 1 : 2);
  const int iters = opts.iters > 0 ? opts.iters : default_iters(opts);
  if ((c.kind == BenchKind::gemm && !c.gemm) ||
      ((c.kind == BenchKind::conv || c.kind == BenchKind::pool) && !c.conv))
    throw InputError("microbenchmark " + c.name + ": missing dimensions");
  switch (c.kind) {
  case BenchKind::bandwidth:
    run_bandwidth(c, r, warmup, iters);
    break;
  case BenchKind::fma:
    run_fma(c, r, warmup, iters);
    break;
  case BenchKind::gemm:
    run_gemm(c, r, warmup, iters);
    break;
  case BenchKind::conv:
    run_conv(c, r, warmup, iters, opts.cache_bytes);
    break;
  case BenchKind::elementwise:
    run_map(c, r, warmup, iters);
    break;
  case BenchKind::pool:
    run_pool(c, r, warmup, iters);
    break;
  case BenchKind::launch:
    run_launch(c, r, warmup, iters);
    break;
  }
  return r;
}

CountedRuns counted_runs(const std::vector<BenchResult> &results) {
  CountedRuns c;
  for (const BenchResult &r : results) {
    size_t n = 0;
    for (const BenchResult::Run &x : r.runs)
      n += x.counted ? 1 : 0;
    c.counted += n;
    c.runs += r.runs.size();
    c.cases_without += n == 0 && !r.runs.empty() ? 1 : 0;
  }
  return c;
}

std::vector<BenchResult> run_cases(const std::vector<BenchCase> &cases,
                                   const MicrobenchOptions &opts) {
  const int rounds = std::max(1, opts.rounds > 0 ? opts.rounds : default_rounds(opts));
  const int most = rounds + std::max(0, opts.extra_rounds);
  const int iters = opts.iters > 0 ? opts.iters : default_iters(opts);
  MicrobenchOptions per_round = opts;
  per_round.iters = std::max(1, (iters + rounds - 1) / rounds);
  // Every round's results and, for each, the index of the probe just before it (the next
  // probe is the one just after it).
  std::vector<std::vector<BenchResult>> runs;
  std::vector<std::vector<size_t>> probe_before;
  std::vector<bool> steady; // every probe, by the latest judgement
  double last_probe = 0;
  auto probe = [&](bool boundary) {
    const size_t taken = steady.size() + 1;
    steady = opts.at_probe ? opts.at_probe(boundary) : std::vector<bool>{};
    steady.resize(taken, true); // an answer short of the probes: the rest steady
    last_probe = now_seconds();
  };
  auto counts = [&](size_t r, size_t i) {
    const size_t p = probe_before[r][i];
    return steady[p] && steady[p + 1];
  };
  auto fewest_counted = [&] {
    int fewest = std::numeric_limits<int>::max();
    for (size_t i = 0; i < cases.size(); ++i) {
      int n = 0;
      for (size_t r = 0; r < runs.size(); ++r)
        n += counts(r, i) ? 1 : 0;
      fewest = std::min(fewest, n);
    }
    return fewest;
  };
  probe(true);
  for (int round = 0; round < most && fewest_counted() < rounds; ++round) {
    const int planned = std::max(rounds, round + 1);
    std::vector<BenchResult> results;
    std::vector<size_t> before;
    for (size_t i = 0; i < cases.size(); ++i) {
      if (opts.probe_interval_seconds > 0 && i > 0 &&
          now_seconds() - last_probe >= opts.probe_interval_seconds)
        probe(false);
      before.push_back(steady.size() - 1);
      if (opts.progress)
        opts.progress(size_t(round) * cases.size() + i, size_t(planned) * cases.size(), cases[i]);
      results.push_back(run_bench(cases[i], per_round));
    }
    runs.push_back(std::move(results));
    probe_before.push_back(std::move(before));
    probe(true);
  }
  std::vector<BenchResult> out = runs.front();
  for (size_t i = 0; i < cases.size(); ++i) {
    std::vector<size_t> kept;
    for (size_t r = 0; r < runs.size(); ++r)
      if (counts(r, i))
        kept.push_back(r);
    if (kept.empty()) // never in a steady state: every round rather than none
      for (size_t r = 0; r < runs.size(); ++r)
        kept.push_back(r);
    out[i] = runs[kept.front()][i];
    for (size_t r = 0; r < runs.size(); ++r)
      out[i].runs.push_back({runs[r][i].time, probe_before[r][i], counts(r, i)});
    if (kept.size() == 1 && rounds == 1)
      continue; // one round: its statistics are `time`'s
    std::vector<double> samples;
    for (size_t r : kept) {
      const TimingStats &t = runs[r][i].time;
      samples.insert(samples.end(), t.samples_seconds.begin(), t.samples_seconds.end());
      out[i].rounds.push_back(t);
    }
    const std::string state = out[i].time.cache_state;
    out[i].time = summarize(std::move(samples), out[i].time.warmup);
    out[i].time.cache_state = state;
  }
  return out;
}

std::vector<BenchResult> run_microbenchmarks(const MicrobenchOptions &opts) {
  return run_cases(microbench_plan(opts), opts);
}

} // namespace perfmodel::kernels::cpu
