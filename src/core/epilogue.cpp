// The GEMM epilogue rules of the CPU executor (perfmodel/epilogue.hpp).
#include "perfmodel/epilogue.hpp"

#include <limits>

namespace perfmodel {

bool layer_has_bias(const Layer &l) {
  return l.params.empty() ? l.attrs.get_int("bias", 1) != 0 : l.params.size() >= 2;
}

std::optional<std::pair<float, float>> fused_clamp(const std::string &activation) {
  if (activation == "relu")
    return std::pair<float, float>{0.0f, std::numeric_limits<float>::infinity()};
  if (activation == "relu6")
    return std::pair<float, float>{0.0f, 6.0f};
  return std::nullopt;
}

int epilogue_sweeps(const Layer &l) {
  int steps = 0; // the element-wise steps inference fusion put after the product
  for (const FusedPart &p : l.fused.parts)
    steps += p.folded ? 0 : 1;
  if (l.op == OpKind::matmul)
    return steps;
  if (l.op != OpKind::conv2d && l.op != OpKind::linear)
    return 0;
  return (layer_has_bias(l) ? 1 : 0) + (fused_clamp(l.activation) ? 1 : 0) + steps;
}

} // namespace perfmodel
