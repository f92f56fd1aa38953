// The hardware spec's limits on the fitted efficiency parameters (perfmodel/calibrate/bounds.hpp).
#include "perfmodel/calibrate/bounds.hpp"

#include <cstdio>

namespace perfmodel::calibrate {

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

} // namespace

double algorithmic_savings(OpClass c) { return c == OpClass::conv ? kWinogradSavings : 1.0; }

SpecLimit peak_limit(const HwSpec &hw, OpClass c, DType dtype) {
  const bool gemm = is_gemm_class(c);
  std::optional<ComputeUnit> unit = hw.best_unit(dtype, gemm);
  // An fp32 product may run in tf32 on the matrix units (cuDNN's default for convolutions in
  // PyTorch; cuBLAS when asked): the faster of the two bounds it.
  if (gemm && dtype == DType::fp32)
    if (auto tf32 = hw.best_unit(DType::tf32, true))
      if (!unit || tf32->flops_per_second > unit->flops_per_second)
        unit = tf32;
  if (!unit || !(unit->flops_per_second > 0))
    return {};
  const double savings = algorithmic_savings(c);
  SpecLimit l;
  l.value = unit->flops_per_second * savings;
  l.what = "the spec's " + std::string(to_string(unit->dtype)) + " " + unit->unit + " peak " +
           num(unit->flops_per_second) + " FLOP/s";
  if (savings != 1.0)
    l.what += " x " + num(savings) + " (Winograd F(2x2,3x3))";
  return l;
}

SpecLimit bandwidth_limit(const HwSpec &hw, size_t level) {
  if (level >= hw.memory.size() || !(hw.memory[level].bytes_per_second > 0))
    return {};
  const MemoryLevel &m = hw.memory[level];
  return {m.bytes_per_second,
          "the spec's " + m.name + " bandwidth " + num(m.bytes_per_second) + " B/s"};
}

SpecLimit term_rate_limit(const HwSpec &hw) {
  SpecLimit best;
  for (size_t l = 0; l < hw.memory.size(); ++l)
    if (hw.memory[l].bytes_per_second > best.value)
      best = bandwidth_limit(hw, l);
  if (best.value > 0)
    best.what += " (its fastest level)";
  return best;
}

std::string bandwidth_parameter(const std::vector<MemoryLevelCapacity> &levels, size_t level) {
  return "bytes_per_second[" +
         (level < levels.size() ? levels[level].name : std::to_string(level)) + "]";
}

} // namespace perfmodel::calibrate
