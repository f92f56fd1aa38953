// Runs the GPU plan: our own kernels (bandwidth, FMA peak, launch) here, cuBLAS/cuDNN elsewhere.
#include <cuda_runtime.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>

#include "kernels/cuda/bench_kernels.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/gpu_timing.hpp"

namespace perfmodel::kernels::cuda {

namespace detail {

std::string dtype_unsupported(const DeviceInfo &dev, DType dtype) {
  if (dtype == DType::tf32 && dev.cc_major * 10 + dev.cc_minor < 80)
    return "tf32 needs compute capability >= 8.0";
  return "";
}

double free_device_bytes() {
  size_t free_b = 0, total_b = 0;
  check_cuda(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  return double(free_b);
}

namespace {

/// `iters` event-timed samples on `stream`, each of `inner` calls that `sample` enqueues, with
/// the NVML energy over them all: the sampling both timings share.
DeviceTiming sampled(const std::function<void()> &sample, cudaStream_t stream, int inner,
                     int warmup, int iters, const NvmlEnergy *nvml) {
  DeviceTiming out;
  out.inner = inner;
  EventPair ev;
  const EnergyReading before = nvml ? nvml->read() : EnergyReading{};
  std::vector<float> ms;
  for (int i = 0; i < iters; ++i) {
    ev.start(stream);
    sample();
    ms.push_back(ev.stop_ms(stream));
  }
  if (nvml)
    out.energy_joules = energy_between(before, nvml->read());
  out.time = stats_from_event_ms(ms, warmup, out.inner);
  return out;
}

} // namespace

DeviceTiming time_device(const std::function<void()> &enqueue, int warmup, int iters,
                         const NvmlEnergy *nvml) {
  EventPair ev;
  for (int i = 0; i < warmup; ++i)
    enqueue();
  check_cuda(cudaDeviceSynchronize(), "warm-up");
  ev.start();
  enqueue();
  const int inner = choose_inner(1e-3 * ev.stop_ms());
  return sampled(
      [&] {
        for (int j = 0; j < inner; ++j)
          enqueue();
      },
      nullptr, inner, warmup, iters, nvml);
}

Stream::Stream() { check_cuda(cudaStreamCreate(&s_), "cudaStreamCreate"); }
Stream::~Stream() { cudaStreamDestroy(s_); }

namespace {

struct ExecDeleter {
  void operator()(cudaGraphExec_t e) const { cudaGraphExecDestroy(e); }
};
using GraphExec = std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, ExecDeleter>;

/// The graph of `calls` captured calls of `enqueue` on `stream`, instantiated; null (and
/// `*why` set) where the capture fails, with the stream left out of capture mode.
GraphExec capture(const std::function<void(cudaStream_t)> &enqueue, cudaStream_t stream, int calls,
                  std::string *why) {
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
    *why = "cudaStreamBeginCapture failed";
    (void)cudaGetLastError();
    return nullptr;
  }
  std::string failed;
  try {
    for (int i = 0; i < calls; ++i)
      enqueue(stream);
  } catch (const std::exception &e) {
    failed = e.what();
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(stream, &graph);
  if (failed.empty() && end != cudaSuccess)
    failed = std::string("cudaStreamEndCapture: ") + cudaGetErrorString(end);
  cudaGraphExec_t exec = nullptr;
  if (failed.empty() && cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess)
    failed = "cudaGraphInstantiate failed";
  if (graph)
    cudaGraphDestroy(graph);
  (void)cudaGetLastError(); // a failed capture leaves its error behind
  if (!failed.empty()) {
    *why = failed;
    return nullptr;
  }
  return GraphExec(exec);
}

} // namespace

DeviceTiming time_device_graph(const std::function<void(cudaStream_t)> &enqueue,
                               cudaStream_t stream, int warmup, int iters, const NvmlEnergy *nvml,
                               std::string *how, double target_seconds) {
  const auto eager = [&](const std::string &why) {
    *how = "eager (no graph: " + why + ")";
    return time_device([&] { enqueue(stream); }, warmup, iters, nvml);
  };
  for (int i = 0; i < warmup; ++i)
    enqueue(stream);
  check_cuda(cudaStreamSynchronize(stream), "warm-up");
  std::string why;
  GraphExec one = capture(enqueue, stream, 1, &why);
  if (!one)
    return eager(why);
  EventPair ev;
  check_cuda(cudaGraphLaunch(one.get(), stream), "cudaGraphLaunch"); // its first launch
  ev.start(stream);
  check_cuda(cudaGraphLaunch(one.get(), stream), "cudaGraphLaunch");
  const int inner = choose_inner(1e-3 * ev.stop_ms(stream), target_seconds);
  one.reset();
  GraphExec many = capture(enqueue, stream, inner, &why);
  if (!many)
    return eager(why);
  check_cuda(cudaGraphLaunch(many.get(), stream), "cudaGraphLaunch");
  check_cuda(cudaStreamSynchronize(stream), "cudaGraphLaunch");
  const DeviceTiming out =
      sampled([&] { check_cuda(cudaGraphLaunch(many.get(), stream), "cudaGraphLaunch"); }, stream,
              inner, warmup, iters, nvml);
  *how = "graph replay";
  return out;
}

} // namespace detail

namespace {

using detail::check_launch;
using detail::DeviceBuffer;

void run_bandwidth(int warmup, int iters, const NvmlEnergy *nvml, GpuBenchResult &r) {
  const GpuBenchCase &c = r.bench;
  if (double(c.working_set_bytes) > 0.8 * detail::free_device_bytes()) {
    r.skipped = "working set larger than 80% of the free device memory";
    return;
  }
  const int64_t n = c.elements;
  const size_t bytes = size_t(n) * sizeof(float);
  DeviceBuffer a(bytes), b(c.variant == "read" ? 0 : bytes), cc(c.variant == "triad" ? bytes : 0);
  DeviceBuffer sink(sizeof(float));
  check_launch(detail::launch_fill(a.get<float>(), n, 1), "fill");
  if (c.variant != "read")
    check_launch(detail::launch_fill(b.get<float>(), n, 2), "fill");
  if (c.variant == "triad")
    check_launch(detail::launch_fill(cc.get<float>(), n, 3), "fill");
  const int blocks = int(c.blocks), threads = int(c.threads_per_block);
  std::function<void()> call;
  if (c.variant == "read")
    call = [&] {
      check_launch(detail::launch_read(a.get<float>(), n, sink.get<float>(), blocks, threads),
                   "read kernel");
    };
  else if (c.variant == "copy")
    call = [&] {
      check_launch(detail::launch_copy(a.get<float>(), b.get<float>(), n, blocks, threads),
                   "copy kernel");
    };
  else
    call = [&] {
      check_launch(detail::launch_triad(a.get<float>(), b.get<float>(), cc.get<float>(), 0.5f, n,
                                        blocks, threads),
                   "triad kernel");
    };
  const auto t = detail::time_device(call, warmup, iters, nvml);
  r.time = t.time, r.inner = t.inner, r.energy_joules = t.energy_joules;
}

void run_fma(const DeviceInfo &dev, int warmup, int iters, const NvmlEnergy *nvml,
             GpuBenchResult &r) {
  const GpuBenchCase &c = r.bench;
  if (c.variant == "half2" && dev.cc_major * 10 + dev.cc_minor < 53) {
    r.skipped = "half2 arithmetic needs compute capability >= 5.3";
    return;
  }
  DeviceBuffer sink(sizeof(float));
  const int blocks = int(c.blocks), threads = int(c.threads_per_block);
  auto call = [&] {
    check_launch(
        c.variant == "half2"
            ? detail::launch_fma_half2(sink.get<float>(), c.fma_iterations, blocks, threads)
            : detail::launch_fma_fp32(sink.get<float>(), c.fma_iterations, blocks, threads),
        "fma kernel");
  };
  const auto t = detail::time_device(call, warmup, iters, nvml);
  r.time = t.time, r.inner = t.inner, r.energy_joules = t.energy_joules;
}

void run_launch(int warmup, int iters, const NvmlEnergy *nvml, GpuBenchResult &r) {
  auto call = [] { check_launch(detail::launch_empty(), "empty kernel"); };
  const auto t = detail::time_device(call, std::max(warmup, 10), iters, nvml);
  r.time = t.time, r.inner = t.inner, r.energy_joules = t.energy_joules;
}

GpuBenchResult run_case(const GpuBenchCase &c, const DeviceInfo &dev, const GpuBenchOptions &o,
                        const NvmlEnergy *nvml) {
  GpuBenchResult r;
  r.bench = c;
  const int warmup = o.warmup > 0 ? o.warmup : 3;
  const int iters = o.iters > 0 ? o.iters : (o.quick ? 5 : 15);
  try {
    switch (c.kind) {
    case BenchKind::bandwidth:
      run_bandwidth(warmup, iters, nvml, r);
      break;
    case BenchKind::fma:
      run_fma(dev, warmup, iters, nvml, r);
      break;
    case BenchKind::launch:
      run_launch(warmup, iters, nvml, r);
      break;
    case BenchKind::gemm:
      detail::run_gemm(dev, warmup, iters, nvml, r);
      break;
    case BenchKind::conv:
      detail::run_conv(dev, warmup, iters, nvml, r);
      break;
    default:
      r.skipped = "no GPU benchmark of this kind";
      break;
    }
  } catch (const RuntimeFailure &e) {
    // One failing case (out of memory, an unsupported shape) does not lose the others.
    r.skipped = std::string("failed: ") + e.what();
    r.time = TimingStats{};
  }
  return r;
}

std::string pci_bus_id(int device) {
  char buf[32] = {0};
  if (cudaDeviceGetPCIBusId(buf, sizeof buf, device) != cudaSuccess) {
    cudaGetLastError();
    return "";
  }
  return buf;
}

} // namespace

GpuBenchResult run_gpu_bench(const GpuBenchCase &c, const GpuBenchOptions &opts) {
  const DeviceInfo dev = query_device(opts.device);
  detail::check_cuda(cudaSetDevice(dev.index), "cudaSetDevice");
  return run_case(c, dev, opts, nullptr);
}

std::vector<GpuBenchResult> run_gpu_microbenchmarks(const GpuBenchOptions &opts) {
  const DeviceInfo dev = query_device(opts.device);
  detail::check_cuda(cudaSetDevice(dev.index), "cudaSetDevice");
  NvmlEnergy nvml(opts.nvml_soname, unsigned(dev.index), pci_bus_id(dev.index));
  const std::vector<GpuBenchCase> plan = gpu_bench_plan(opts);
  std::vector<GpuBenchResult> out;
  for (size_t i = 0; i < plan.size(); ++i) {
    if (opts.progress)
      opts.progress(i, plan.size(), plan[i]);
    out.push_back(run_case(plan[i], dev, opts, nvml.available() ? &nvml : nullptr));
  }
  return out;
}

} // namespace perfmodel::kernels::cuda
