// The GPU layer executor (gpu_measure.hpp): a layer plan's tensors on the device, each call
// prepared once (cuBLAS, cuDNN, our kernels), each layer and the whole pass timed from CUDA-graph
// replays, the NVML energy over the timed passes.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/cuda/bench_kernels.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/gpu_layer_conv.hpp"
#include "kernels/cuda/gpu_timing.hpp"
#include "kernels/cuda/layer_kernels.hpp"
#include "perfmodel/kernels/cuda/gpu_measure.hpp"

namespace perfmodel::kernels::cuda {

namespace {

namespace gp = gpu_plan;
using detail::check_cuda;
using detail::check_launch;
using detail::DeviceBuffer;
using Enqueue = std::function<void(cudaStream_t)>;

void check_cublas(cublasStatus_t s, const std::string &what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw RuntimeFailure("cuBLAS: " + what + ": " + cublasGetStatusString(s));
}

/// The pointwise opcode of a plan function (gpu_plan::pointwise_functions, same order).
int pointwise_opcode(const std::string &f) {
  const auto &names = detail::kPointwiseNames;
  for (size_t i = 0; i < std::size(names); ++i)
    if (f == names[i])
      return int(i);
  throw InputError("GPU plan: no kernel for the pointwise function '" + f + "'");
}

struct GemmTypes {
  cudaDataType t;
  cublasComputeType_t compute;
  const char *label;
};

GemmTypes gemm_types(DType d) {
  switch (d) {
  case DType::fp32:
    return {CUDA_R_32F, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F"};
  case DType::tf32:
    return {CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, "CUBLAS_COMPUTE_32F_FAST_TF32"};
  case DType::fp16:
    return {CUDA_R_16F, CUBLAS_COMPUTE_32F, "fp16 in/out, CUBLAS_COMPUTE_32F"};
  default:
    throw InputError("GPU plan: GEMMs run fp32, tf32 or fp16");
  }
}

std::string pci_bus_id(int device) {
  char buf[32] = {0};
  if (cudaDeviceGetPCIBusId(buf, sizeof buf, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return "";
  }
  return buf;
}

/// Everything one run of a plan holds on the device, destroyed together (handles before
/// buffers, in reverse order of the members).
class PlanRun {
public:
  PlanRun(const gp::ModelPlan &plan, const DeviceInfo &dev) : plan_(plan) {
    const size_t n = plan.tensors.size();
    ptr_.assign(n, nullptr);
    double bytes = 0;
    for (const gp::PlanTensor &t : plan.tensors)
      if (t.alias < 0)
        bytes += double(t.storage_elements()) * double(bytes_of(t.dtype));
    const double free_b = detail::free_device_bytes();
    if (bytes > 0.9 * free_b)
      throw RuntimeFailure("--device cuda: the model's tensors take " +
                           std::to_string(int64_t(bytes / 1e6)) + " MB, more than 90% of the " +
                           std::to_string(int64_t(free_b / 1e6)) + " MB free on " + dev.name);
    allocated_bytes = bytes;
    for (size_t i = 0; i < n; ++i) {
      const gp::PlanTensor &t = plan.tensors[i];
      if (t.alias >= 0)
        continue;
      const int64_t elems = t.storage_elements();
      owned_.push_back(std::make_unique<DeviceBuffer>(size_t(elems) * size_t(bytes_of(t.dtype))));
      ptr_[i] = owned_.back()->get();
      const uint32_t seed = uint32_t(1000 + i);
      if (t.dtype == DType::int64)
        check_launch(detail::launch_fill_indices(static_cast<int64_t *>(ptr_[i]), elems,
                                                 t.index_bound, seed, stream_.get()),
                     "fill indices");
      else
        check_launch(
            detail::launch_fill_values(ptr_[i], elems, seed, t.dtype == DType::fp16, stream_.get()),
            "fill");
    }
    for (size_t i = 0; i < n; ++i) { // views: their root's buffer
      int root = int(i);
      for (size_t hops = 0; plan.tensors[size_t(root)].alias >= 0 && hops <= n; ++hops)
        root = plan.tensors[size_t(root)].alias;
      if (!ptr_[size_t(root)])
        throw InputError("GPU plan: tensor " + plan.tensors[i].name + " is a view of nothing");
      ptr_[i] = ptr_[size_t(root)];
    }
    check_cuda(cudaStreamSynchronize(stream_.get()), "fill");
    check_cublas(cublasCreate(&cublas_), "cublasCreate");
    // cuBLAS on the run's stream with a workspace of its own, so that its calls can be captured
    // into a graph (it allocates none while capturing); 32 MiB, NVIDIA's figure for Hopper.
    check_cublas(cublasSetStream(cublas_, stream_.get()), "cublasSetStream");
    check_cublas(cublasSetWorkspace(cublas_, cublas_ws_.get(), kCublasWorkspace),
                 "cublasSetWorkspace");
  }
  ~PlanRun() {
    if (cublas_)
      cublasDestroy(cublas_);
  }
  PlanRun(const PlanRun &) = delete;
  PlanRun &operator=(const PlanRun &) = delete;

  cudaStream_t stream() const { return stream_.get(); }
  void *device_ptr(size_t tensor) const { return ptr_.at(tensor); }

  /// The calls of layer `l`, prepared; `algorithm` says what they run.
  std::vector<Enqueue> prepare(const gp::PlannedLayer &l, std::string &algorithm) {
    std::vector<Enqueue> calls;
    for (const gp::PlanCall &c : l.calls) {
      algorithm += (algorithm.empty() ? "" : "; ") + c.library + " ";
      calls.push_back(prepare(c, algorithm));
    }
    return calls;
  }

  /// After every layer is prepared: the convolutions' shared workspace.
  void allocate_conv_workspace() {
    conv_ws_ = std::make_unique<DeviceBuffer>(conv_ws_bytes_);
    search_ws_.reset();
  }
  double workspace_bytes() const { return double(conv_ws_bytes_ + kCublasWorkspace); }
  double allocated_bytes = 0;

private:
  static constexpr size_t kCublasWorkspace = size_t(32) << 20;

  const gp::PlanTensor &tensor(const gp::StridedView &v) const {
    if (v.tensor < 0 || size_t(v.tensor) >= plan_.tensors.size())
      throw InputError("GPU plan: a call names no tensor");
    return plan_.tensors[size_t(v.tensor)];
  }
  void *ptr(const gp::StridedView &v, bool whole = true) const {
    tensor(v);
    if (whole && v.offset != 0)
      throw InputError("GPU plan: a library call's operand starts inside its tensor");
    return ptr_[size_t(v.tensor)];
  }
  bool half(const gp::PlanCall &c) const { return tensor(c.out).dtype == DType::fp16; }

  Enqueue prepare(const gp::PlanCall &c, std::string &algorithm) {
    switch (c.kind) {
    case gp::CallKind::conv:
      return prepare_conv(c, algorithm);
    case gp::CallKind::gemm:
      return prepare_gemm(c, algorithm);
    case gp::CallKind::pointwise:
      return prepare_pointwise(c, algorithm);
    case gp::CallKind::layer_norm:
    case gp::CallKind::softmax:
      return prepare_rows(c, algorithm);
    case gp::CallKind::pool:
    case gp::CallKind::global_pool:
      return prepare_pool(c, algorithm);
    case gp::CallKind::gather_rows: {
      if (c.in.size() != 2 || tensor(c.in[1]).dtype != DType::int64)
        throw InputError("GPU plan: a gather takes a table and int64 indices");
      const void *table = ptr(c.in[0]);
      const auto *index = static_cast<const int64_t *>(ptr(c.in[1]));
      void *out = ptr(c.out);
      const int64_t rows = c.rows.rows, cols = c.rows.cols;
      const bool h = half(c);
      algorithm += "gather";
      return [=](cudaStream_t s) {
        check_launch(detail::launch_gather_rows(table, index, out, rows, cols, h, s), "gather");
      };
    }
    }
    throw InputError("GPU plan: unknown call kind");
  }

  Enqueue prepare_conv(const gp::PlanCall &c, std::string &algorithm) {
    if (c.in.size() != 2)
      throw InputError("GPU plan: a convolution takes x and w");
    if (!cudnn_)
      cudnn_ = std::make_unique<detail::CudnnHandle>(stream_.get());
    if (!search_ws_) {
      // cuDNN's search may use up to half the free memory, 1 GiB at most.
      search_room_ = size_t(std::clamp(0.5 * detail::free_device_bytes(), 0.0, double(1 << 30)));
      search_ws_ = std::make_unique<DeviceBuffer>(search_room_);
    }
    // Convolutions of one shape share the algorithm cuDNN's search found for the first.
    const gp::ConvShape &k = c.conv;
    std::string key;
    for (int64_t v : {k.n, k.c, k.h, k.w, k.k, k.r, k.s, k.pad_h, k.pad_w, k.stride_h, k.stride_w,
                      k.dil_h, k.dil_w, k.groups, int64_t(k.nhwc)})
      key += std::to_string(v) + ",";
    const auto known = conv_by_shape_.find(key);
    convs_.push_back(std::make_unique<detail::ConvForward>(
        *cudnn_, c.conv, plan_.dtype, ptr(c.in[0]), ptr(c.in[1]), ptr(c.out), search_ws_->get(),
        search_room_, known == conv_by_shape_.end() ? nullptr : known->second));
    conv_by_shape_.emplace(key, convs_.back().get());
    const detail::ConvForward *conv = convs_.back().get();
    conv_ws_bytes_ = std::max(conv_ws_bytes_, conv->workspace_bytes());
    algorithm += conv->algorithm() + (c.conv.nhwc ? ", NHWC" : ", NCHW");
    return [this, conv](cudaStream_t) { conv->enqueue(conv_ws_ ? conv_ws_->get() : nullptr); };
  }

  Enqueue prepare_gemm(const gp::PlanCall &c, std::string &algorithm) {
    if (c.in.size() != 2)
      throw InputError("GPU plan: a GEMM takes A and B");
    const GemmTypes g = gemm_types(plan_.dtype);
    const gp::GemmShape s = c.gemm;
    const void *a = ptr(c.in[0]), *b = ptr(c.in[1]);
    void *out = ptr(c.out);
    cublasHandle_t h = cublas_;
    algorithm +=
        std::string(s.batch > 1 ? "cublasGemmStridedBatchedEx " : "cublasGemmEx ") + g.label;
    // Row-major C = op(A) op(B) is, column-major, C^T = op(B)^T op(A)^T.
    const cublasOperation_t op_a = s.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t op_b = s.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
    return [=](cudaStream_t) {
      const float alpha = 1.f, beta = 0.f;
      if (s.batch <= 1)
        check_cublas(cublasGemmEx(h, op_b, op_a, int(s.n), int(s.m), int(s.k), &alpha, b, g.t,
                                  int(s.ldb), a, g.t, int(s.lda), &beta, out, g.t, int(s.ldc),
                                  g.compute, CUBLAS_GEMM_DEFAULT),
                     "cublasGemmEx");
      else
        check_cublas(cublasGemmStridedBatchedEx(h, op_b, op_a, int(s.n), int(s.m), int(s.k), &alpha,
                                                b, g.t, int(s.ldb), s.stride_b, a, g.t, int(s.lda),
                                                s.stride_a, &beta, out, g.t, int(s.ldc), s.stride_c,
                                                int(s.batch), g.compute, CUBLAS_GEMM_DEFAULT),
                     "cublasGemmStridedBatchedEx");
    };
  }

  Enqueue prepare_pointwise(const gp::PlanCall &c, std::string &algorithm) {
    detail::PointwiseArgs a;
    if (c.shape.empty() || c.shape.size() > size_t(detail::kMaxDims) || c.in.empty() ||
        c.in.size() > 3 || c.out.strides.size() != c.shape.size())
      throw InputError("GPU plan: a pointwise call of " + std::to_string(c.shape.size()) +
                       " dims and " + std::to_string(c.in.size()) + " operands");
    a.rank = int(c.shape.size());
    a.inputs = int(c.in.size());
    a.op = pointwise_opcode(c.function);
    a.alpha = c.alpha, a.beta = c.beta;
    a.out = ptr(c.out, false);
    a.out_offset = c.out.offset;
    const DType dt = tensor(c.out).dtype;
    for (int d = 0; d < a.rank; ++d) {
      a.shape[d] = c.shape[size_t(d)];
      a.out_strides[d] = c.out.strides[size_t(d)];
    }
    for (size_t k = 0; k < c.in.size(); ++k) {
      if (tensor(c.in[k]).dtype != dt || c.in[k].strides.size() != c.shape.size())
        throw InputError("GPU plan: pointwise operands of another type or rank");
      a.in[k] = ptr(c.in[k], false);
      a.in_offset[k] = c.in[k].offset;
      for (int d = 0; d < a.rank; ++d)
        a.in_strides[k][d] = c.in[k].strides[size_t(d)];
    }
    if (dt == DType::int64)
      throw InputError("GPU plan: a pointwise call on integers");
    const bool h = dt == DType::fp16;
    algorithm += c.function + (a.rank > 1 ? " (" + std::to_string(a.rank) + "-d)" : "");
    return [a, h](cudaStream_t s) {
      check_launch(detail::launch_pointwise(a, h, s), "pointwise kernel");
    };
  }

  Enqueue prepare_rows(const gp::PlanCall &c, std::string &algorithm) {
    const bool norm = c.kind == gp::CallKind::layer_norm;
    if (c.in.empty() || (norm && c.in.size() != 1 && c.in.size() != 3))
      throw InputError("GPU plan: a row kernel's operands");
    const void *x = ptr(c.in[0]);
    const void *gamma = norm && c.in.size() == 3 ? ptr(c.in[1]) : nullptr;
    const void *beta = norm && c.in.size() == 3 ? ptr(c.in[2]) : nullptr;
    void *y = ptr(c.out);
    const int64_t rows = c.rows.rows, cols = c.rows.cols;
    const float eps = c.alpha;
    const bool h = half(c);
    algorithm += norm ? "layer norm" : "softmax";
    if (norm)
      return [=](cudaStream_t s) {
        check_launch(detail::launch_layer_norm(x, gamma, beta, y, rows, cols, eps, h, s),
                     "layer norm kernel");
      };
    return [=](cudaStream_t s) {
      check_launch(detail::launch_softmax(x, y, rows, cols, h, s), "softmax kernel");
    };
  }

  Enqueue prepare_pool(const gp::PlanCall &c, std::string &algorithm) {
    if (c.in.size() != 1 || c.in[0].strides.size() != 4 || c.out.strides.size() != 4)
      throw InputError("GPU plan: a pool takes one [n, c, h, w] input");
    const gp::PoolShape &p = c.pool;
    detail::PoolArgs a;
    a.n = p.n, a.c = p.c, a.h = p.h, a.w = p.w, a.p = p.p, a.q = p.q;
    a.kh = p.kh, a.kw = p.kw, a.sh = p.stride_h, a.sw = p.stride_w, a.ph = p.pad_h, a.pw = p.pad_w,
    a.dh = p.dil_h, a.dw = p.dil_w;
    a.max = p.max, a.count_include_pad = p.count_include_pad;
    a.in_offset = c.in[0].offset, a.out_offset = c.out.offset;
    for (int d = 0; d < 4; ++d)
      a.in_strides[d] = c.in[0].strides[size_t(d)], a.out_strides[d] = c.out.strides[size_t(d)];
    const void *x = ptr(c.in[0], false);
    void *y = ptr(c.out, false);
    const bool h = half(c), global = c.kind == gp::CallKind::global_pool;
    algorithm += std::string(global ? "global " : "") + (p.max ? "max pool" : "average pool");
    return [=](cudaStream_t s) {
      check_launch(global ? detail::launch_global_pool(a, x, y, h, s)
                          : detail::launch_pool(a, x, y, h, s),
                   "pool kernel");
    };
  }

  const gp::ModelPlan &plan_;
  detail::Stream stream_;
  std::vector<std::unique_ptr<DeviceBuffer>> owned_;
  std::vector<void *> ptr_;
  DeviceBuffer cublas_ws_{kCublasWorkspace};
  cublasHandle_t cublas_ = nullptr;
  std::unique_ptr<detail::CudnnHandle> cudnn_;
  std::unique_ptr<DeviceBuffer> search_ws_, conv_ws_;
  size_t search_room_ = 0, conv_ws_bytes_ = 0;
  std::vector<std::unique_ptr<detail::ConvForward>> convs_;
  std::map<std::string, const detail::ConvForward *> conv_by_shape_;
};

} // namespace

GpuModelMeasurement measure_model_on_device(const gp::ModelPlan &plan,
                                            const GpuMeasureOptions &opts) {
  GpuModelMeasurement m;
  m.device = query_device(opts.device);
  check_cuda(cudaSetDevice(m.device.index), "cudaSetDevice");
  for (const gp::PlannedLayer &l : plan.layers)
    if (!l.unsupported.empty())
      throw RuntimeFailure("--device cuda: layer " + l.name +
                           " cannot run on the GPU: " + l.unsupported);
  if (const std::string why = detail::dtype_unsupported(m.device, plan.dtype); !why.empty())
    throw RuntimeFailure("--device cuda: " + m.device.name + ": " + why);
  const int warmup = std::max(opts.warmup, 0), iters = std::max(opts.iters, 1);
  PlanRun run(plan, m.device);
  std::vector<std::vector<Enqueue>> calls;
  std::vector<std::string> algorithms;
  for (const gp::PlannedLayer &l : plan.layers) {
    algorithms.emplace_back();
    calls.push_back(run.prepare(l, algorithms.back()));
  }
  run.allocate_conv_workspace();
  m.allocated_bytes = run.allocated_bytes;
  m.workspace_bytes = run.workspace_bytes();
  const cudaStream_t stream = run.stream();

  double layer_sum = 0;
  for (size_t i = 0; i < plan.layers.size(); ++i) {
    GpuLayerResult r;
    r.name = plan.layers[i].name;
    r.algorithm = algorithms[i];
    if (opts.progress)
      opts.progress(i, plan.layers.size(), r.name);
    if (calls[i].empty()) {
      r.how = "view";
      m.layers.push_back(std::move(r));
      continue;
    }
    const std::vector<Enqueue> &layer = calls[i];
    const auto t = detail::time_device_graph(
        [&](cudaStream_t s) {
          for (const Enqueue &e : layer)
            e(s);
        },
        stream, warmup, iters, nullptr, &r.how);
    r.time = t.time, r.inner = t.inner;
    layer_sum += t.time.median_seconds;
    m.layers.push_back(std::move(r));
  }

  // The whole pass: replays of about 10 ms each (the host's gap between two samples is then
  // well under 1% of the time NVML's counter covers), enough of them to last
  // opts.min_pass_seconds.
  NvmlEnergy nvml(opts.nvml_soname, unsigned(m.device.index), pci_bus_id(m.device.index));
  m.nvml_status = opts.nvml_soname.empty() ? "NVML not read (no library named)" : nvml.status();
  constexpr double kReplaySeconds = 10e-3;
  const double pass = std::max(layer_sum, 1e-6);
  const double per_replay = pass * choose_inner(pass, kReplaySeconds);
  const int replays =
      int(std::clamp(std::ceil(opts.min_pass_seconds / per_replay), double(iters), 100000.0));
  const auto t = detail::time_device_graph(
      [&](cudaStream_t s) {
        for (const std::vector<Enqueue> &layer : calls)
          for (const Enqueue &e : layer)
            e(s);
      },
      stream, warmup, replays, nvml.available() ? &nvml : nullptr, &m.pass_how, kReplaySeconds);
  m.pass = t.time;
  m.pass_inner = t.inner;
  m.passes_timed = t.time.iters * t.inner;
  m.energy_joules = t.energy_joules;
  m.energy_seconds = t.time.mean_seconds * double(m.passes_timed);
  return m;
}

std::vector<float> tensor_after_pass(const gp::ModelPlan &plan, const std::string &name,
                                     int device) {
  size_t index = plan.tensors.size();
  for (size_t i = 0; i < plan.tensors.size(); ++i)
    if (plan.tensors[i].name == name)
      index = i;
  if (index == plan.tensors.size())
    throw InputError("GPU plan: no tensor '" + name + "'");
  const gp::PlanTensor &t = plan.tensors[index];
  if (t.dtype == DType::int64)
    throw InputError("GPU plan: tensor '" + name + "' holds integers");
  const DeviceInfo dev = query_device(device);
  check_cuda(cudaSetDevice(dev.index), "cudaSetDevice");
  PlanRun run(plan, dev);
  std::vector<std::vector<Enqueue>> calls;
  for (const gp::PlannedLayer &l : plan.layers) {
    if (!l.unsupported.empty())
      throw RuntimeFailure("--device cuda: layer " + l.name + " cannot run: " + l.unsupported);
    std::string algorithm;
    calls.push_back(run.prepare(l, algorithm));
  }
  run.allocate_conv_workspace();
  for (const auto &layer : calls)
    for (const Enqueue &e : layer)
      e(run.stream());
  check_cuda(cudaStreamSynchronize(run.stream()), "pass");
  const int64_t n = t.storage_elements();
  std::vector<float> out(static_cast<size_t>(n));
  const void *src = run.device_ptr(index);
  DeviceBuffer staging(t.dtype == DType::fp16 ? size_t(n) * 4 : 0);
  if (t.dtype == DType::fp16) {
    check_launch(detail::launch_from_half(src, staging.get<float>(), n), "from half");
    check_cuda(cudaDeviceSynchronize(), "from half");
    src = staging.get();
  }
  check_cuda(cudaMemcpy(out.data(), src, size_t(n) * 4, cudaMemcpyDeviceToHost),
             "cudaMemcpy to host");
  return out;
}

} // namespace perfmodel::kernels::cuda
