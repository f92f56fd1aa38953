// Hardware spec queries and validation.
#include "perfmodel/hw_spec.hpp"

#include <charconv>

#include "perfmodel/limits.hpp"

namespace perfmodel {

std::string range_str(double lo, double hi) {
  auto str = [](double v) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
  };
  return "from " + str(lo) + " to " + str(hi);
}

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
  // The ranges of perfmodel/limits.hpp; 0 stands for "not given" where a field is optional.
  for (const auto &u : hw.compute) {
    const std::string name = "compute unit " + u.unit + "/" + std::string(to_string(u.dtype));
    if (!sane_rate(u.flops_per_second))
      return bad(name + " needs a peak " + range_str(kMinRate, kMaxRate) + " FLOP/s");
    if (!in_range(u.energy_per_flop_joules, 0, kMaxEnergyPerUnit))
      return bad(name + ": energy per FLOP must be " + range_str(0, kMaxEnergyPerUnit) + " J");
  }
  if (hw.memory.empty())
    return bad("no memory levels");
  for (const auto &m : hw.memory) {
    if (!sane_rate(m.bytes_per_second))
      return bad("memory level " + m.name + " needs a bandwidth " +
                 range_str(kMinRate, kMaxRate) + " B/s");
    if (m.capacity_bytes != 0 && !in_range(m.capacity_bytes, kMinCapacity, kMaxCapacity))
      return bad("memory level " + m.name + ": capacity must be " +
                 range_str(kMinCapacity, kMaxCapacity) + " B");
    if (!in_range(m.energy_per_byte_joules, 0, kMaxEnergyPerUnit))
      return bad("memory level " + m.name + ": energy per byte must be " +
                 range_str(0, kMaxEnergyPerUnit) + " J");
  }
  if (!in_range(hw.launch_overhead_seconds, 0, kMaxOverheadSeconds))
    return bad("launch overhead must be " + range_str(0, kMaxOverheadSeconds) + " s");
  if (hw.units < 0 || hw.units > kMaxUnits)
    return bad("units must be from 1 to " + std::to_string(kMaxUnits));
  if (hw.clock_hz != 0 && !in_range(hw.clock_hz, kMinClock, kMaxClock))
    return bad("clock must be " + range_str(kMinClock, kMaxClock) + " Hz");
  if (hw.tdp_watts != 0 && !in_range(hw.tdp_watts, kMinPower, kMaxPower))
    return bad("tdp must be " + range_str(kMinPower, kMaxPower) + " W");
  if (!in_range(hw.static_watts, 0, hw.tdp_watts > 0 ? hw.tdp_watts : kMaxPower))
    return bad("static power must be from 0 to the tdp");
  return true;
}

} // namespace perfmodel
