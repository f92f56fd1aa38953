// Memory planning for the executor's layer outputs: buffers whose tensors have all been read go
// back to a pool, and later outputs take them, as inference runtimes plan memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "kernels/cpu/tensor.hpp"

namespace perfmodel::kernels::cpu {

/// How the executor gives layer outputs their memory.
/// distinct: every tensor keeps its own buffer, so every intermediate stays readable after a
///   pass (tests), and a pass writes each output to memory no other layer touched since the
///   previous pass (for a network larger than the caches, a cold write per layer).
/// reuse: once every reader of a buffer has been prepared, the buffer returns to a pool and a
///   later output that fits takes it (BufferPool::take), as ONNX
///   Runtime, TFLite and PyTorch's caching allocator do; the activations of a pass then take a
///   few buffers that stay warm in cache, and every layer's workspace (an im2col matrix) is one
///   shared scratch buffer. Only graph inputs, outputs and constants stay readable.
enum class BufferPlan { distinct, reuse };
std::string_view to_string(BufferPlan p);
/// "distinct" or "reuse"; nullopt for anything else.
std::optional<BufferPlan> parse_buffer_plan(std::string_view s);

/// Free fp32 buffers by capacity (elements). Not thread-safe: used while preparing layers.
class BufferPool {
public:
  /// A buffer of at least n elements: the free one perfmodel::pick_free_buffer names (the most
  /// recently given back one that fits without wasting more than half of it, else the smallest
  /// that fits), else a new zeroed one. Contents of a reused buffer are whatever its last
  /// tensor left there.
  std::shared_ptr<Buffer> take(size_t n);
  /// Whether `b` was taken from this pool and not given back.
  bool in_use(const Buffer *b) const { return in_use_.count(b) != 0; }
  /// Gives back a buffer taken from this pool (no-op for any other): later take() calls may
  /// hand it out again.
  void give(const Buffer *b);
  /// Elements allocated by this pool so far (reused buffers counted once).
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
  std::shared_ptr<Buffer> scratch_;
  std::vector<std::shared_ptr<Buffer>> free_; // in the order they were given back
  std::map<const Buffer *, std::shared_ptr<Buffer>> in_use_;
  size_t allocated_ = 0;
};

} // namespace perfmodel::kernels::cpu
