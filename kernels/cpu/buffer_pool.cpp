// The pool of executor output buffers and the memory plan's names.
#include "kernels/cpu/buffer_pool.hpp"

#include <algorithm>

#include "perfmodel/buffer_plan.hpp"

namespace perfmodel::kernels::cpu {

std::string_view to_string(BufferPlan p) { return p == BufferPlan::reuse ? "reuse" : "distinct"; }

std::optional<BufferPlan> parse_buffer_plan(std::string_view s) {
  if (s == "reuse")
    return BufferPlan::reuse;
  if (s == "distinct")
    return BufferPlan::distinct;
  return std::nullopt;
}

std::shared_ptr<Buffer> BufferPool::take(size_t n) {
  n = std::max<size_t>(n, 1);
  std::vector<size_t> caps;
  for (const auto &b : free_)
    caps.push_back(b->size());
  std::shared_ptr<Buffer> b;
  const size_t pick = pick_free_buffer(caps, n);
  if (pick != size_t(-1)) {
    b = std::move(free_[pick]);
    free_.erase(free_.begin() + std::ptrdiff_t(pick));
  } else {
    allocated_ += n;
    b = std::make_shared<Buffer>(n, 0.0f);
  }
  in_use_[b.get()] = b;
  return b;
}

void BufferPool::give(const Buffer *b) {
  auto it = in_use_.find(b);
  if (it == in_use_.end())
    return;
  free_.push_back(std::move(it->second));
  in_use_.erase(it);
}

} // namespace perfmodel::kernels::cpu
