// The GPU execution target (cuDNN, cuBLAS and our own CUDA kernels: kernels/cuda), from the
// GPU's own structure (docs/gpu_model.md):
//   one_call    one call per layer over the whole batch (cuDNN and cuBLAS take the batch in one
//               call); an implicit-GEMM convolution materialises no im2col matrix (no lowered
//               bytes); a strided 1x1 convolution reads only the rows it uses
//               (gpu/conv_rules.hpp)
//   tile_call   GEMMs (not GEMVs) and implicit-GEMM convolutions run as CTA tiles of the
//   architecture's set
//               (gpu/arch.hpp), in waves over the SMs, split along K when the tiles do not fill
//               them (gpu/tiles.hpp); the tile and split are the ones the model finds fastest
//               at the class's rates. The work is scaled by Winograd's saving (fp32 3x3 / 5x5,
//               stride 1), by the SIMT path's cost for half-precision operands the tensor cores
//               cannot take (channels not a multiple of 8) (gpu/conv_rules.hpp)
//               A depthwise convolution runs PyTorch's direct kernels: its counted work,
//               no tiles (gpu/direct.hpp)
//   plane_of    the streaming kernels' and depthwise kernels' CTAs per SM (gpu/streaming.hpp,
//               gpu/direct.hpp): the parallelism factor u / (u + m_half)
//   terms       split_k_bytes_per_second (memory): the partial sums of a split-K call;
//               cta_starts_per_second (serial): a streaming call's per-CTA start-up time, its
//               count the call's CTAs per SM (gpu/streaming.hpp)
//               layout_bytes_per_second (serial): the layout conversions around a convolution
//               run in a layout other than its kernel's (gpu/layout.hpp)
//   classes     one per pass part (fwd, bwd_data, bwd_weight) where the samples have several:
//               cuDNN runs other kernels for each
#pragma once

#include "perfmodel/target.hpp"

namespace perfmodel::gpu {

/// The indices of the target's terms in ExecutionTarget::terms() and EfficiencyParams::
/// term_rates.
enum Term : size_t { kSplitK = 0, kCtaStart = 1, kLayout = 2 };

/// The target (`target: gpu` in a calibration file).
const ExecutionTarget &target();

} // namespace perfmodel::gpu
