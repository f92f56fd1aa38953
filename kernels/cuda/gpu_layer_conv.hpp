// Internal: one cuDNN convolution forward of the GPU layer executor, its descriptors and the
// algorithm cuDNN's search found fastest in the plan's layout (gpu_layer_conv.cpp).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>

#include "perfmodel/dtype.hpp"
#include "perfmodel/kernels/gpu_plan/layer_plan.hpp"

namespace perfmodel::kernels::cuda::detail {

/// A cuDNN handle on one stream; without cuDNN in the build, constructing one throws
/// RuntimeFailure.
class CudnnHandle {
public:
  explicit CudnnHandle(cudaStream_t stream);
  ~CudnnHandle();
  CudnnHandle(const CudnnHandle &) = delete;
  CudnnHandle &operator=(const CudnnHandle &) = delete;
  void *get() const { return h_; }

private:
  void *h_ = nullptr;
};

class ConvForward {
public:
  /// Describes the convolution `s` on x, w, y (device pointers in `dtype`: fp32 data for fp32
  /// and tf32, half for fp16) and picks the fastest algorithm
  /// cudnnFindConvolutionForwardAlgorithmEx reports whose workspace fits `room` bytes (fp32: FMA
  /// math only, no TF32), searching with `search_workspace` (at least `room` bytes); or, given
  /// `same` (a convolution of the same shape, type and layout), its algorithm without searching
  /// again. Throws RuntimeFailure when none fits.
  ConvForward(const CudnnHandle &h, const gpu_plan::ConvShape &s, DType dtype, const void *x,
              const void *w, void *y, void *search_workspace, size_t room,
              const ConvForward *same = nullptr);
  ~ConvForward();
  ConvForward(const ConvForward &) = delete;
  ConvForward &operator=(const ConvForward &) = delete;
  size_t workspace_bytes() const;
  std::string algorithm() const; // "IMPLICIT_PRECOMP_GEMM (tensor cores)"
  /// One convolution on the handle's stream, with `workspace` of workspace_bytes().
  void enqueue(void *workspace) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace perfmodel::kernels::cuda::detail
