#include "perfmodel/host_state.hpp"

#include <cmath>

namespace perfmodel {

HostDrift host_drift(const HostState &reference, const HostState &now) {
  auto rel = [](double ref, double v) { return ref > 0 && v > 0 ? v / ref - 1 : 0.0; };
  return {rel(reference.fp32_flops_per_second, now.fp32_flops_per_second),
          rel(reference.dram_bytes_per_second, now.dram_bytes_per_second)};
}

double HostDrift::largest() const {
  return std::abs(compute) >= std::abs(memory) ? compute : memory;
}

} // namespace perfmodel
