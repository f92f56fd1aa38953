// The pool of executor output buffers and the memory plan's names.
#include "perfmodel/kernels/cpu/buffer_pool.hpp"

#include <algorithm>
#include <stdexcept>

#include "perfmodel/targets/cpu_eigen/buffer_plan.hpp"

namespace perfmodel::kernels::cpu {

std::string_view to_string(BufferPlan p) { return p == BufferPlan::reuse ? "reuse" : "distinct"; }

std::optional<BufferPlan> parse_buffer_plan(std::string_view s) {
  if (s == "reuse")
    return BufferPlan::reuse;
  if (s == "distinct")
    return BufferPlan::distinct;
  return std::nullopt;
}

std::shared_ptr<Buffer> BufferPool::output(const std::string &tensor, size_t n) {
  n = std::max<size_t>(n, 1);
  const auto id = plan_.buffer_of.find(tensor);
  if (id == plan_.buffer_of.end() || size_t(id->second) >= plan_.capacity.size()) {
    allocated_ += n;
    return std::make_shared<Buffer>(n, 0.0f);
  }
  std::shared_ptr<Buffer> &b = buffers_[id->second];
  if (!b) {
    const size_t cap = std::max(plan_.capacity[size_t(id->second)], n);
    allocated_ += cap;
    b = std::make_shared<Buffer>(cap, 0.0f);
  }
  if (b->size() < n) // a plan never asks for this; a buffer too small would be overrun
    throw std::logic_error("buffer plan: '" + tensor + "' does not fit its buffer");
  return b;
}

} // namespace perfmodel::kernels::cpu
