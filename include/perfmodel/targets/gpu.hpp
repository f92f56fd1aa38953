// The GPU execution target (cuDNN, cuBLAS and our own CUDA kernels: kernels/cuda). Today it is
// the generic model on a GPU: one call per layer over the whole batch (cuDNN and cuBLAS take
// the batch in one call), whole tiles (a partial thread block costs a whole one) spread over
// the SMs in waves (Calibration::cores), no terms of its own. The GPU-specific structure (CTA
// tiles per architecture, waves, split-K, Winograd, per-pass kernels) enters here, as this
// target's schedule, tiles and terms (docs/model.md, "Execution targets").
#pragma once

#include "perfmodel/target.hpp"

namespace perfmodel::gpu {

/// The target (`target: gpu` in a calibration file).
const ExecutionTarget &target();

} // namespace perfmodel::gpu
