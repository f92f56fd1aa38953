// cuDNN convolution forward for the GPU layer executor (gpu_layer_conv.hpp).
#include "kernels/cuda/gpu_layer_conv.hpp"

#if PERFMODEL_HAVE_CUDNN
#include <cudnn.h>
#endif

#include "kernels/cuda/cuda_check.hpp"

namespace perfmodel::kernels::cuda::detail {

#if !PERFMODEL_HAVE_CUDNN

CudnnHandle::CudnnHandle(cudaStream_t) {
  throw RuntimeFailure("--device cuda: the CUDA backend was built without cuDNN (libcudnn was "
                       "not found at configure time): convolutions cannot run");
}
CudnnHandle::~CudnnHandle() = default;
struct ConvForward::Impl {};
ConvForward::ConvForward(const CudnnHandle &, const gpu_plan::ConvShape &, DType, const void *,
                         const void *, void *, void *, size_t, const ConvForward *) {
  throw RuntimeFailure("--device cuda: built without cuDNN");
}
ConvForward::~ConvForward() = default;
size_t ConvForward::workspace_bytes() const { return 0; }
std::string ConvForward::algorithm() const { return ""; }
void ConvForward::enqueue(void *) const {}

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

} // namespace

CudnnHandle::CudnnHandle(cudaStream_t stream) {
  cudnnHandle_t h = nullptr;
  check_cudnn(cudnnCreate(&h), "cudnnCreate");
  h_ = h;
  check_cudnn(cudnnSetStream(h, stream), "cudnnSetStream");
}

CudnnHandle::~CudnnHandle() {
  if (h_)
    cudnnDestroy(static_cast<cudnnHandle_t>(h_));
}

struct ConvForward::Impl {
  cudnnHandle_t h = nullptr;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnConvolutionFwdAlgoPerf_t perf{};
  const void *xp = nullptr, *wp = nullptr;
  void *yp = nullptr;
  ~Impl() {
    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyFilterDescriptor(w);
    cudnnDestroyTensorDescriptor(y);
    cudnnDestroyTensorDescriptor(x);
  }
};

ConvForward::ConvForward(const CudnnHandle &handle, const gpu_plan::ConvShape &s, DType dtype,
                         const void *x, const void *w, void *y, void *search_workspace, size_t room,
                         const ConvForward *same)
    : impl_(std::make_unique<Impl>()) {
  Impl &c = *impl_;
  c.h = static_cast<cudnnHandle_t>(handle.get());
  c.xp = x, c.wp = w, c.yp = y;
  check_cudnn(cudnnCreateTensorDescriptor(&c.x), "tensor descriptor");
  check_cudnn(cudnnCreateTensorDescriptor(&c.y), "tensor descriptor");
  check_cudnn(cudnnCreateFilterDescriptor(&c.w), "filter descriptor");
  check_cudnn(cudnnCreateConvolutionDescriptor(&c.conv), "convolution descriptor");
  const cudnnTensorFormat_t f = s.nhwc ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
  const cudnnDataType_t dt = dtype == DType::fp16 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
  // fp32 stays on FMA math (no silent TF32 on Ampere and later); tf32 is fp32 data on tensor
  // cores; fp16 accumulates in fp32 (PSEUDO_HALF), as frameworks run it.
  const bool tensor_ops = dtype != DType::fp32;
  check_cudnn(cudnnSetTensor4dDescriptor(c.x, f, dt, int(s.n), int(s.c), int(s.h), int(s.w)),
              "input descriptor");
  check_cudnn(
      cudnnSetFilter4dDescriptor(c.w, dt, f, int(s.k), int(s.c / s.groups), int(s.r), int(s.s)),
      "filter descriptor");
  check_cudnn(cudnnSetConvolution2dDescriptor(c.conv, int(s.pad_h), int(s.pad_w), int(s.stride_h),
                                              int(s.stride_w), int(s.dil_h), int(s.dil_w),
                                              CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              "convolution descriptor");
  check_cudnn(cudnnSetConvolutionGroupCount(c.conv, int(s.groups)), "group count");
  check_cudnn(
      cudnnSetConvolutionMathType(c.conv, tensor_ops ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH),
      "math type");
  int on = 0, oc = 0, oh = 0, ow = 0;
  check_cudnn(cudnnGetConvolution2dForwardOutputDim(c.conv, c.x, c.w, &on, &oc, &oh, &ow),
              "output dims");
  if (on != s.n || oc != s.k || oh != s.p || ow != s.q)
    throw RuntimeFailure("cuDNN: output shape differs from the plan's");
  check_cudnn(cudnnSetTensor4dDescriptor(c.y, f, dt, on, oc, oh, ow), "output descriptor");
  if (same) {
    c.perf = same->impl_->perf;
    check_cudnn(cudnnSetConvolutionMathType(c.conv, c.perf.mathType), "math type");
    return;
  }
  cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int returned = 0;
  check_cudnn(cudnnFindConvolutionForwardAlgorithmEx(c.h, c.x, x, c.w, w, c.conv, c.y, y,
                                                     CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned,
                                                     perf, search_workspace, room),
              "cudnnFindConvolutionForwardAlgorithmEx");
  for (int i = 0; i < returned; ++i) {
    const cudnnConvolutionFwdAlgoPerf_t &p = perf[i];
    const bool tensor_math =
        p.mathType == CUDNN_TENSOR_OP_MATH || p.mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    if (p.status == CUDNN_STATUS_SUCCESS && p.memory <= room && (tensor_ops || !tensor_math)) {
      c.perf = p;
      check_cudnn(cudnnSetConvolutionMathType(c.conv, p.mathType), "math type");
      return;
    }
  }
  throw RuntimeFailure("cuDNN offers no forward algorithm for this convolution within " +
                       std::to_string(room >> 20) + " MiB of workspace");
}

ConvForward::~ConvForward() = default;

size_t ConvForward::workspace_bytes() const { return impl_->perf.memory; }

std::string ConvForward::algorithm() const {
  return std::string(algo_name(impl_->perf.algo)) +
         (impl_->perf.mathType == CUDNN_TENSOR_OP_MATH ? " (tensor cores)" : "");
}

void ConvForward::enqueue(void *workspace) const {
  const Impl &c = *impl_;
  const float alpha = 1.f, beta = 0.f;
  check_cudnn(cudnnConvolutionForward(c.h, &alpha, c.x, c.xp, c.w, c.wp, c.conv, c.perf.algo,
                                      workspace, c.perf.memory, &beta, c.y, c.yp),
              "cudnnConvolutionForward");
}

#endif

} // namespace perfmodel::kernels::cuda::detail
