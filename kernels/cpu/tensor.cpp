// Allocation and random initialisation of executor tensors.
#include "perfmodel/kernels/cpu/tensor.hpp"

#include <random>

namespace perfmodel::kernels::cpu {

Tensor random_tensor(const Shape &shape, uint64_t seed, float lo, float hi) {
  Tensor t{shape,
           std::make_shared<Buffer>(static_cast<size_t>(std::max<int64_t>(numel(shape), 1)))};
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (auto &v : *t.data)
    v = dist(gen);
  return t;
}

Tensor zero_tensor(const Shape &shape) {
  return {shape,
          std::make_shared<Buffer>(static_cast<size_t>(std::max<int64_t>(numel(shape), 1)), 0.0f)};
}

std::vector<int64_t> strides_of(const Shape &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    s[i - 1] = s[i] * shape[i];
  return s;
}

} // namespace perfmodel::kernels::cpu
