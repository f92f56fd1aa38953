// Memory planning for the executor's layer outputs: buffers whose tensors have all been read go
// back to a pool, and later outputs take them, as inference runtimes plan memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfmodel/kernels/cpu/tensor.hpp"
#include "perfmodel/targets/cpu_eigen/buffer_plan.hpp"

namespace perfmodel::kernels::cpu {

/// How the executor gives layer outputs their memory.
/// distinct: every tensor keeps its own buffer, so every intermediate stays readable after a
///   pass (tests), and a pass writes each output to memory no other layer touched since the
///   previous pass (for a network larger than the caches, a cold write per layer).
/// reuse: once every reader of a buffer has been prepared, the buffer returns to a pool and a
///   later output that fits takes it (perfmodel::plan_reused_buffers), as ONNX
///   Runtime, TFLite and PyTorch's caching allocator do; the activations of a pass then take a
///   few buffers that stay warm in cache, and every layer's workspace (an im2col matrix) is one
///   shared scratch buffer. Only graph inputs, outputs and constants stay readable.
enum class BufferPlan { distinct, reuse };
std::string_view to_string(BufferPlan p);
/// "distinct" or "reuse"; nullopt for anything else.
std::optional<BufferPlan> parse_buffer_plan(std::string_view s);

/// The executor's output buffers under a memory plan (perfmodel::plan_reused_buffers, which
/// the model of cross-core traffic follows too), and its one shared scratch buffer. Not
/// thread-safe: used while preparing layers.
class BufferPool {
public:
  explicit BufferPool(BufferAssignment plan = {}) : plan_(std::move(plan)) {}
  /// The buffer of layer output `tensor` (at least n elements): the plan's buffer for it,
  /// allocated at the plan's capacity when first asked for; a new zeroed buffer of its own for
  /// a tensor the plan does not hold. Contents of a shared buffer are whatever its last tensor
  /// left there.
  std::shared_ptr<Buffer> output(const std::string &tensor, size_t n);
  /// Elements allocated by this pool so far (a shared buffer counted once).
  size_t allocated() const { return allocated_; }

  /// One scratch buffer for every layer's workspace (im2col matrices): layers run one at a
  /// time, so they can share it, as oneDNN's and ONNX Runtime's scratchpads are shared. Callers
  /// grow it while layers are prepared and read its data() when they run.
  const std::shared_ptr<Buffer> &scratch(size_t n) {
    if (!scratch_)
      scratch_ = std::make_shared<Buffer>(std::max<size_t>(n, 1), 0.0f);
    else if (scratch_->size() < n)
      scratch_->resize(n, 0.0f);
    return scratch_;
  }
  size_t scratch_size() const { return scratch_ ? scratch_->size() : 0; }

private:
  BufferAssignment plan_;
  std::map<int, std::shared_ptr<Buffer>> buffers_; // by the plan's buffer id
  std::shared_ptr<Buffer> scratch_;
  size_t allocated_ = 0;
};

} // namespace perfmodel::kernels::cpu
