// The gradient reduction overlapped with the backward pass (perfmodel/llm/overlap.hpp).
#include "perfmodel/llm/overlap.hpp"

#include <algorithm>

namespace perfmodel::llm {

OverlapSplit overlap_grad_reduce(double comm, double backward, int64_t buckets) {
  if (comm <= 0)
    return {};
  if (buckets <= 1 || backward <= 0)
    return {comm, 0};
  const double k = double(buckets);
  const double exposed = std::max(comm / k, comm - backward * (k - 1) / k);
  return {exposed, comm - exposed};
}

} // namespace perfmodel::llm
