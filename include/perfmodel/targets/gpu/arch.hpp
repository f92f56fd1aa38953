// What the GPU target knows of an architecture beyond the hardware spec: the CTA tiles its
// GEMM and implicit-GEMM convolution kernels use, how many CTAs of a tile one SM runs at once,
// and how much slower its SIMT units run a matrix product than its tensor cores
// (docs/gpu_model.md, "Architectures").
#pragma once

#include <string_view>
#include <vector>

#include "perfmodel/dtype.hpp"

namespace perfmodel::gpu {

/// One CTA (thread block) output tile of a GEMM kernel: m rows by n columns of C.
struct CtaTile {
  int m = 0, n = 0;
};

struct GpuArch {
  std::string_view name;             // "volta", "turing", "ampere", "hopper"
  std::vector<CtaTile> tensor_tiles; // tiles of the tensor-core kernels (fp16, bf16, tf32, ...)
  std::vector<CtaTile> simt_tiles;   // tiles of the SIMT kernels (fp32, fp64)
  /// The tensor-core fp16 peak over the SIMT fp16 peak (the hardware specs' dense figures): what a
  /// half-precision product costs more when it cannot run on the tensor cores.
  double tensor_over_simt = 4;
  /// The most bytes per channel cuDNN's fp32 training batch norm (bn_fw_tr_1C11_singleread,
  /// bn_bw_1C11_singleread) keeps on chip: a forward pass whose input channel (N*H*W elements),
  /// a backward pass whose input and output gradient channels fit reads them once, a larger
  /// one runs the two-pass kernel and reads them twice (gpu/streaming.hpp,
  /// batch_norm_reread_bytes; docs/gpu_model.md, "Which batch-norm kernel runs").
  double bn_single_read_bytes = 32768;
};

/// The architecture of a GPU named by its hardware spec (v100, t4, a100, h100, h200, ...) or
/// device name ("Tesla V100-SXM2-16GB", "NVIDIA H200"): case-insensitive, by the family's
/// letter and number. Unknown names get the newest architecture's table (hopper).
const GpuArch &arch_for(std::string_view name);

/// Whether a call of `dtype` runs on the tensor cores when its operands are aligned
/// (fp16, bf16, tf32, fp8, int8); fp32 and fp64 products run on the SIMT units.
bool tensor_dtype(DType dtype);

/// CTAs of a tm x tn tile one SM runs at once: the accumulators and operand stages of a 128x128
/// tile fill an SM's registers and shared memory, so 128*128 / (tm*tn) of a smaller tile fit, at
/// least 1 and at most 4 (docs/gpu_model.md, "Waves").
int resident_ctas(const CtaTile &t);

} // namespace perfmodel::gpu
