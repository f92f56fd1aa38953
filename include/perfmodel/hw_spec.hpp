// Hardware description: compute peaks per data type and unit, memory levels, power, energy.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfmodel/dtype.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/interconnect.hpp"

namespace perfmodel {

/// One compute unit at one data type, e.g. {"tensor", fp16, 125e12, matrix_only}.
struct ComputeUnit {
  std::string unit; // "simt", "tensor", "vector", ...
  DType dtype = DType::fp32;
  double flops_per_second = 0;       // dense peak
  bool matrix_only = false;          // tensor cores: only GEMM-like ops can use it
  double energy_per_flop_joules = 0; // 0 = not given
};

/// One level of the memory hierarchy, innermost first; the last one is DRAM.
struct MemoryLevel {
  std::string name; // "l1", "l2", "dram"
  double bytes_per_second = 0;
  double capacity_bytes = 0;
  double energy_per_byte_joules = 0;
};

/// The CPU a spec was measured on, as /proc/cpuinfo names it (vendor_id, cpu family, model):
/// `calibrate --device cpu` and `measure` take the shipped spec whose id is this host's.
struct CpuId {
  std::string vendor; // "AuthenticAMD", "GenuineIntel"
  int family = 0;
  int model = 0;
  bool operator==(const CpuId &o) const {
    return vendor == o.vendor && family == o.family && model == o.model;
  }
};

struct HwSpec {
  std::string name;
  std::string kind; // "gpu" or "cpu"
  std::string description;
  std::vector<ComputeUnit> compute;
  std::vector<MemoryLevel> memory;
  double tdp_watts = 0;
  double static_watts = 0; // idle/static power drawn while a layer runs
  double launch_overhead_seconds = 0;
  int units = 0; // SMs or cores
  double clock_hz = 0;
  std::optional<CpuId> cpu_id; // CPU specs measured on one machine
  Interconnect interconnect;   // links to other devices (empty: none given)
  SourceLoc loc;

  const MemoryLevel &dram() const { return memory.back(); }
  /// The fastest unit for `dtype`; only non-matrix units when `gemm_like` is false.
  /// nullopt when the hardware has no unit for that data type.
  std::optional<ComputeUnit> best_unit(DType dtype, bool gemm_like) const;
};

/// Checks a spec (positive peaks and bandwidths, at least one memory level, ...).
/// Returns false and fills `error` with the first problem (Ceres' IsValid style).
bool is_valid(const HwSpec &hw, std::string *error);

} // namespace perfmodel
