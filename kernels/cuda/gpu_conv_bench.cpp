// cuDNN convolution forward (the fastest of the algorithms cuDNN offers in NCHW and NHWC, timed
// here; fp32, tf32 or fp16), or a skip without cuDNN.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>
#if PERFMODEL_HAVE_CUDNN
#include <cudnn.h>
#endif

#include "kernels/cuda/bench_kernels.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/gpu_timing.hpp"

namespace perfmodel::kernels::cuda::detail {

#if !PERFMODEL_HAVE_CUDNN

void run_conv(const DeviceInfo &, int, int, const NvmlEnergy *, GpuBenchResult &r) {
  r.skipped = "built without cuDNN (libcudnn was not found at configure time)";
}

#else

namespace {

void check_cudnn(cudnnStatus_t s, const std::string &what) {
  if (s != CUDNN_STATUS_SUCCESS)
    throw RuntimeFailure("cuDNN: " + what + ": " + cudnnGetErrorString(s));
}

const char *algo_name(cudnnConvolutionFwdAlgo_t a) {
  switch (a) {
  case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM:
    return "IMPLICIT_GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM:
    return "IMPLICIT_PRECOMP_GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_GEMM:
    return "GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT:
    return "DIRECT";
  case CUDNN_CONVOLUTION_FWD_ALGO_FFT:
    return "FFT";
  case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING:
    return "FFT_TILING";
  case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD:
    return "WINOGRAD";
  case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED:
    return "WINOGRAD_NONFUSED";
  default:
    return "unknown";
  }
}

/// Every cuDNN object of one convolution, destroyed together.
struct ConvSetup {
  cudnnHandle_t h = nullptr;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  ConvSetup() {
    check_cudnn(cudnnCreate(&h), "cudnnCreate");
    check_cudnn(cudnnCreateTensorDescriptor(&x), "tensor descriptor");
    check_cudnn(cudnnCreateTensorDescriptor(&y), "tensor descriptor");
    check_cudnn(cudnnCreateFilterDescriptor(&w), "filter descriptor");
    check_cudnn(cudnnCreateConvolutionDescriptor(&conv), "convolution descriptor");
  }
  ~ConvSetup() {
    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyFilterDescriptor(w);
    cudnnDestroyTensorDescriptor(y);
    cudnnDestroyTensorDescriptor(x);
    if (h)
      cudnnDestroy(h);
  }
};

// Both layouts' descriptors for one shape: a ConvSetup each, NCHW first.
struct LayoutSetup {
  cudnnTensorFormat_t format;
  ConvSetup s;
};

// Sets `l`'s descriptors for the shape `d` in its layout (throws where cuDNN's output shape
// differs from the plan's).
void describe(LayoutSetup &l, const ConvDims &d, cudnnDataType_t dt, cudnnMathType_t math) {
  ConvSetup &s = l.s;
  check_cudnn(
      cudnnSetTensor4dDescriptor(s.x, l.format, dt, int(d.batch), int(d.c), int(d.h), int(d.w)),
      "input descriptor");
  check_cudnn(cudnnSetFilter4dDescriptor(s.w, dt, l.format, int(d.out_channels),
                                         int(d.c / d.groups), int(d.kernel_h), int(d.kernel_w)),
              "filter descriptor");
  // fp16 data with fp32 accumulation (cuDNN's PSEUDO_HALF_CONFIG), as frameworks run it.
  check_cudnn(cudnnSetConvolution2dDescriptor(s.conv, int(d.pad_h), int(d.pad_w), int(d.stride_h),
                                              int(d.stride_w), int(d.dilation_h), int(d.dilation_w),
                                              CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              "convolution descriptor");
  check_cudnn(cudnnSetConvolutionGroupCount(s.conv, int(d.groups)), "group count");
  check_cudnn(cudnnSetConvolutionMathType(s.conv, math), "math type");
  int on = 0, oc = 0, oh = 0, ow = 0;
  check_cudnn(cudnnGetConvolution2dForwardOutputDim(s.conv, s.x, s.w, &on, &oc, &oh, &ow),
              "output dims");
  if (on != d.batch || oc != d.out_channels || oh != d.out_h() || ow != d.out_w())
    throw RuntimeFailure("cuDNN: output shape differs from the plan's");
  check_cudnn(cudnnSetTensor4dDescriptor(s.y, l.format, dt, on, oc, oh, ow), "output descriptor");
}

} // namespace

void run_conv(const DeviceInfo &dev, int warmup, int iters, const NvmlEnergy *nvml,
              GpuBenchResult &r) {
  const ConvDims &d = *r.bench.conv;
  const bool half = r.bench.dtype == DType::fp16, tf32 = r.bench.dtype == DType::tf32;
  r.skipped = dtype_unsupported(dev, r.bench.dtype);
  if (!r.skipped.empty())
    return;
  if (r.bench.bytes > 0.5 * free_device_bytes()) {
    r.skipped = "tensors larger than 50% of the free device memory";
    return;
  }
  const cudnnDataType_t dt = half ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
  // fp32 stays on FMA math (no silent TF32 on Ampere+); tf32 is fp32 data on tensor cores;
  // fp16 may use tensor cores.
  const cudnnMathType_t math = tf32 || half ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH;
  // Both layouts: cuDNN's legacy API runs its tensor-core kernels on NHWC data. On an H200 the
  // fastest tf32 and fp16 algorithm was an NHWC one for 19 of 20 shapes, the fastest fp32 one
  // an NCHW one for 9 of 10 (docs/cuda.md, "Measured on an H200"). Under tensor-op
  // math, tf32 and fp16 take whatever algorithm is fastest, including ones cuDNN reports as
  // default math (which on compute capability 8.0+ may itself run TF32).
  LayoutSetup layouts[2] = {{CUDNN_TENSOR_NCHW, {}}, {CUDNN_TENSOR_NHWC, {}}};
  for (LayoutSetup &l : layouts)
    describe(l, d, dt, math);

  const int64_t nx = d.batch * d.c * d.h * d.w,
                nw = d.out_channels * (d.c / d.groups) * d.kernel_h * d.kernel_w;
  const int64_t ny = d.batch * d.out_channels * d.out_h() * d.out_w();
  const size_t es = size_t(bytes_of(r.bench.dtype));
  // Random operands: their values are the same in either layout's reading.
  DeviceBuffer x(size_t(nx) * es), w(size_t(nw) * es), y(size_t(ny) * es);
  DeviceBuffer staging(half ? size_t(std::max(nx, nw)) * 4 : 0);
  for (auto [buf, n, seed] : {std::tuple{&x, nx, 21u}, std::tuple{&w, nw, 22u}}) {
    float *f = half ? staging.get<float>() : buf->get<float>();
    check_launch(launch_fill(f, n, seed), "fill");
    if (half)
      check_launch(launch_to_half(f, buf->get(), n), "to half");
    check_cuda(cudaDeviceSynchronize(), "fill");
  }

  // The fastest of cuDNN's algorithms in either layout, timed here: per layout the four fastest
  // of cuDNN's own search (cudnnFindConvolutionForwardAlgorithmEx, as PyTorch's
  // cudnn.benchmark and TensorRT search) and the heuristic's first pick
  // (cudnnGetConvolutionForwardAlgorithm_v7), each in a short warm run. The search times each
  // algorithm once, so its order alone is not trusted. On an H200 the fp32
  // convolutions ran 1.3-2.7x faster this way than with the heuristic's pick on six of eight
  // shapes (docs/cuda.md). The workspace is at most half the free memory, 1 GiB at most.
  const size_t room =
      size_t(std::clamp(0.5 * free_device_bytes() - r.bench.bytes, 0.0, double(int64_t(1) << 30)));
  // fp32 keeps to FMA math: a tensor-op algorithm would be TF32 (or fp16 with
  // ALLOW_CONVERSION), another dtype's rate. tf32 and fp16 take any algorithm cuDNN offers
  // under tensor-op math.
  const auto usable = [&](const cudnnConvolutionFwdAlgoPerf_t &p) {
    return p.status == CUDNN_STATUS_SUCCESS && p.memory <= room &&
           (math == CUDNN_TENSOR_OP_MATH || (p.mathType != CUDNN_TENSOR_OP_MATH &&
                                             p.mathType != CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION));
  };
  struct Candidate {
    cudnnConvolutionFwdAlgoPerf_t perf;
    size_t layout;
  };
  std::vector<Candidate> candidates;
  const auto add = [&](size_t layout, const cudnnConvolutionFwdAlgoPerf_t *perf, int n,
                       size_t at_most) {
    for (int i = 0, taken = 0; i < n && size_t(taken) < at_most; ++i)
      if (usable(perf[i])) {
        ++taken;
        if (std::none_of(candidates.begin(), candidates.end(), [&](const Candidate &c) {
              return c.layout == layout && c.perf.algo == perf[i].algo &&
                     c.perf.mathType == perf[i].mathType;
            }))
          candidates.push_back({perf[i], layout});
      }
  };
  for (size_t l = 0; l < 2; ++l) {
    ConvSetup &s = layouts[l].s;
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int returned = 0;
    {
      DeviceBuffer find_ws(room); // freed before the chosen algorithm's own workspace is taken
      check_cudnn(cudnnFindConvolutionForwardAlgorithmEx(
                      s.h, s.x, x.get(), s.w, w.get(), s.conv, s.y, y.get(),
                      CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf, find_ws.get(), room),
                  "cudnnFindConvolutionForwardAlgorithmEx");
    }
    add(l, perf, returned, 4);
    check_cudnn(cudnnGetConvolutionForwardAlgorithm_v7(
                    s.h, s.x, s.w, s.conv, s.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf),
                "cudnnGetConvolutionForwardAlgorithm_v7");
    add(l, perf, returned, 1);
  }
  if (candidates.empty()) {
    r.skipped = "cuDNN offers no forward algorithm for this shape within the free memory";
    return;
  }
  const float alpha = 1.f, beta = 0.f;
  Stream stream;
  for (LayoutSetup &l : layouts)
    check_cudnn(cudnnSetStream(l.s.h, stream.get()), "cudnnSetStream");
  std::string how;
  const auto timed = [&](const Candidate &c, int warm, int runs, const NvmlEnergy *energy) {
    ConvSetup &s = layouts[c.layout].s;
    const cudnnConvolutionFwdAlgoPerf_t &a = c.perf;
    check_cudnn(cudnnSetConvolutionMathType(s.conv, a.mathType), "math type");
    DeviceBuffer ws(a.memory);
    return time_device_graph(
        [&](cudaStream_t) {
          check_cudnn(cudnnConvolutionForward(s.h, &alpha, s.x, x.get(), s.w, w.get(), s.conv,
                                              a.algo, ws.get(), a.memory, &beta, s.y, y.get()),
                      "cudnnConvolutionForward");
        },
        stream.get(), warm, runs, energy, &how);
  };
  size_t best = 0;
  double best_seconds = 0;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const double t = timed(candidates[i], 1, 3, nullptr).time.median_seconds;
    if (i == 0 || t < best_seconds)
      best = i, best_seconds = t;
  }
  const Candidate &pick = candidates[best];
  r.algorithm = std::string(algo_name(pick.perf.algo)) + (pick.layout == 0 ? ", NCHW" : ", NHWC") +
                (pick.perf.mathType == CUDNN_TENSOR_OP_MATH ? " (tensor cores)" : "") +
                ", fastest of " + std::to_string(candidates.size());
  const auto t = timed(pick, warmup, iters, nvml);
  r.algorithm += ", " + how;
  r.time = t.time, r.inner = t.inner, r.energy_joules = t.energy_joules;
}

#endif

} // namespace perfmodel::kernels::cuda::detail
