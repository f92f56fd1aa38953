// The pool of executor output buffers and the memory plan's names.
#include "kernels/cpu/buffer_pool.hpp"

#include <algorithm>

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
  std::shared_ptr<Buffer> b;
  auto pick = free_.end();
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const size_t cap = (*it)->size();
    if (cap < n)
      continue;
    if (cap <= 2 * n) {
      pick = it; // later entries were given back more recently
    } else if (pick == free_.end() || ((*pick)->size() > 2 * n && cap < (*pick)->size())) {
      pick = it;
    }
  }
  if (pick != free_.end()) {
    b = std::move(*pick);
    free_.erase(pick);
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
