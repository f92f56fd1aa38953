// Hardware spec queries and validation.
#include "perfmodel/hw_spec.hpp"

namespace perfmodel {

std::optional<ComputeUnit> HwSpec::best_unit(DType dtype, bool gemm_like) const {
  auto pick = [&](DType dt) -> std::optional<ComputeUnit> {
    std::optional<ComputeUnit> best;
    for (const auto &u : compute) {
      if (u.dtype != dt || (u.matrix_only && !gemm_like))
        continue;
      if (!best || u.flops_per_second > best->flops_per_second)
        best = u;
    }
    return best;
  };
  if (auto u = pick(dtype))
    return u;
  // Non-GEMM work of a reduced-precision model runs on the fp32 vector/SIMT units when the
  // hardware lists no such unit for the type (tf32 is only a tensor-core mode).
  if (!gemm_like && dtype != DType::fp32)
    return pick(DType::fp32);
  return std::nullopt;
}

bool is_valid(const HwSpec &hw, std::string *error) {
  auto bad = [&](const std::string &msg) {
    if (error)
      *error = msg;
    return false;
  };
  if (hw.name.empty())
    return bad("name is missing");
  if (hw.kind != "gpu" && hw.kind != "cpu")
    return bad("kind must be gpu or cpu");
  if (hw.compute.empty())
    return bad("no compute units");
  for (const auto &u : hw.compute)
    if (!(u.flops_per_second > 0))
      return bad("compute unit " + u.unit + "/" + std::string(to_string(u.dtype)) +
                 " needs a positive peak");
  if (hw.memory.empty())
    return bad("no memory levels");
  for (const auto &m : hw.memory)
    if (!(m.bytes_per_second > 0))
      return bad("memory level " + m.name + " needs a positive bandwidth");
  if (hw.launch_overhead_seconds < 0)
    return bad("launch overhead must not be negative");
  if (hw.static_watts < 0 || hw.tdp_watts < 0)
    return bad("power must not be negative");
  return true;
}

} // namespace perfmodel
