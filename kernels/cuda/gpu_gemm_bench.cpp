// cuBLAS GEMM (cublasGemmEx: fp32, tf32, fp16 on tensor cores), timed and once for checking.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "kernels/cuda/bench_kernels.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/gpu_timing.hpp"

namespace perfmodel::kernels::cuda {

namespace detail {

namespace {

void check_cublas(cublasStatus_t s, const std::string &what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw RuntimeFailure("cuBLAS: " + what + ": " + cublasGetStatusString(s));
}

struct Cublas {
  cublasHandle_t h = nullptr;
  Cublas() { check_cublas(cublasCreate(&h), "cublasCreate"); }
  ~Cublas() { cublasDestroy(h); }
};

/// A device array of `n` values of `dtype` (fp16 or 32-bit), filled from a pattern or host data.
struct Operand {
  DeviceBuffer buf;
  Operand(int64_t n, DType dtype) : buf(size_t(n) * size_t(bytes_of(dtype))) {}
};

void upload(Operand &dst, int64_t n, DType dtype, const float *host, uint32_t seed) {
  DeviceBuffer staging(dtype == DType::fp16 ? size_t(n) * 4 : 0);
  float *f = dtype == DType::fp16 ? staging.get<float>() : dst.buf.get<float>();
  if (host)
    check_cuda(cudaMemcpy(f, host, size_t(n) * 4, cudaMemcpyHostToDevice), "cudaMemcpy to device");
  else
    check_launch(launch_fill(f, n, seed), "fill");
  if (dtype == DType::fp16)
    check_launch(launch_to_half(f, dst.buf.get(), n), "to half");
  check_cuda(cudaDeviceSynchronize(), "upload");
}

struct GemmCall {
  cudaDataType t;
  cublasComputeType_t compute;
  std::string label;
};

GemmCall gemm_call(DType dtype) {
  switch (dtype) {
  case DType::fp32:
    return {CUDA_R_32F, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F"};
  case DType::tf32:
    return {CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, "CUBLAS_COMPUTE_32F_FAST_TF32"};
  case DType::fp16:
    return {CUDA_R_16F, CUBLAS_COMPUTE_32F, "fp16 in/out, CUBLAS_COMPUTE_32F"};
  default:
    throw InputError("gpu bench: GEMM dtype must be fp32, tf32 or fp16");
  }
}

// Row-major C[m x n] = A[m x k] B^T with B [n x k] is, column-major, C^T = op_T(B) A^T.
void enqueue_gemm(const Cublas &cb, const GemmDims &d, const GemmCall &g, const void *A,
                  const void *B, void *C) {
  const float alpha = 1.f, beta = 0.f;
  const int m = int(d.m), n = int(d.n), k = int(d.k);
  if (d.batch == 1)
    check_cublas(cublasGemmEx(cb.h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, B, g.t, k, A, g.t, k,
                              &beta, C, g.t, n, g.compute, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
  else
    check_cublas(cublasGemmStridedBatchedEx(cb.h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, B, g.t,
                                            k, d.n * d.k, A, g.t, k, d.m * d.k, &beta, C, g.t, n,
                                            d.m * d.n, int(d.batch), g.compute,
                                            CUBLAS_GEMM_DEFAULT),
                 "cublasGemmStridedBatchedEx");
}

} // namespace

void run_gemm(const DeviceInfo &dev, int warmup, int iters, const NvmlEnergy *nvml,
              GpuBenchResult &r) {
  const GemmDims &d = *r.bench.gemm;
  const int cc = dev.cc_major * 10 + dev.cc_minor;
  r.skipped = dtype_unsupported(dev, r.bench.dtype);
  if (!r.skipped.empty())
    return;
  if (r.bench.bytes > 0.8 * free_device_bytes()) {
    r.skipped = "operands larger than 80% of the free device memory";
    return;
  }
  const GemmCall g = gemm_call(r.bench.dtype);
  r.algorithm = g.label + (r.bench.dtype == DType::fp16 && cc < 70 ? " (no tensor cores)" : "");
  Operand a(d.batch * d.m * d.k, r.bench.dtype), b(d.batch * d.n * d.k, r.bench.dtype),
      c(d.batch * d.m * d.n, r.bench.dtype);
  upload(a, d.batch * d.m * d.k, r.bench.dtype, nullptr, 11);
  upload(b, d.batch * d.n * d.k, r.bench.dtype, nullptr, 12);
  Cublas cb;
  // On a stream of its own with a workspace of its own, so that the calls can be captured
  // into a graph (cuBLAS allocates none while capturing); 32 MiB, NVIDIA's figure for Hopper.
  Stream stream;
  DeviceBuffer workspace(size_t(32) << 20);
  check_cublas(cublasSetStream(cb.h, stream.get()), "cublasSetStream");
  check_cublas(cublasSetWorkspace(cb.h, workspace.get(), size_t(32) << 20), "cublasSetWorkspace");
  auto call = [&](cudaStream_t) { enqueue_gemm(cb, d, g, a.buf.get(), b.buf.get(), c.buf.get()); };
  std::string how;
  const auto t = time_device_graph(call, stream.get(), warmup, iters, nvml, &how);
  r.algorithm += ", " + how;
  r.time = t.time, r.inner = t.inner, r.energy_joules = t.energy_joules;
}

} // namespace detail

std::vector<float> gemm_on_device(const GemmDims &d, DType dtype, const std::vector<float> &a,
                                  const std::vector<float> &b, int device) {
  if (d.batch != 1 || d.m <= 0 || d.n <= 0 || d.k <= 0 || a.size() != size_t(d.m * d.k) ||
      b.size() != size_t(d.n * d.k))
    throw InputError("gemm_on_device: A must be m x k and B n x k, batch 1");
  const DeviceInfo dev = query_device(device);
  detail::check_cuda(cudaSetDevice(dev.index), "cudaSetDevice");
  const detail::GemmCall g = detail::gemm_call(dtype);
  detail::Operand da(d.m * d.k, dtype), db(d.n * d.k, dtype), dc(d.m * d.n, dtype);
  detail::upload(da, d.m * d.k, dtype, a.data(), 0);
  detail::upload(db, d.n * d.k, dtype, b.data(), 0);
  detail::Cublas cb;
  detail::enqueue_gemm(cb, d, g, da.buf.get(), db.buf.get(), dc.buf.get());
  std::vector<float> out(size_t(d.m * d.n));
  detail::DeviceBuffer f(dtype == DType::fp16 ? out.size() * 4 : 0);
  const float *src = dc.buf.get<float>();
  if (dtype == DType::fp16) {
    detail::check_launch(detail::launch_from_half(dc.buf.get(), f.get<float>(), d.m * d.n),
                         "from half");
    src = f.get<float>();
  }
  detail::check_cuda(cudaMemcpy(out.data(), src, out.size() * 4, cudaMemcpyDeviceToHost),
                     "cudaMemcpy to host");
  return out;
}

} // namespace perfmodel::kernels::cuda
