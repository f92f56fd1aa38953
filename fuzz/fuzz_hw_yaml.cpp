// libFuzzer target: the hardware spec YAML reader (io::parse_hw_yaml). A returned spec must be
// valid (is_valid) with finite, positive peaks and bandwidths.
#include "fuzz_contract.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/io/hw_yaml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  const std::string text(reinterpret_cast<const char *>(data), size);
  fuzz::contract([&] {
    const HwSpec hw = io::parse_hw_yaml(text, fuzz::kFile);
    std::string why;
    fuzz::require(is_valid(hw, &why), "is_valid(spec)");
    fuzz::require(!hw.compute.empty() && !hw.memory.empty(), "compute and memory present");
    for (const auto &c : hw.compute)
      fuzz::require(fuzz::finite_pos(c.flops_per_second) &&
                        fuzz::finite_nonneg(c.energy_per_flop_joules),
                    "compute peak and energy finite");
    for (const auto &m : hw.memory)
      fuzz::require(fuzz::finite_pos(m.bytes_per_second) && fuzz::finite_nonneg(m.capacity_bytes) &&
                        fuzz::finite_nonneg(m.energy_per_byte_joules),
                    "memory rates finite");
    fuzz::require(fuzz::finite_nonneg(hw.tdp_watts) && fuzz::finite_nonneg(hw.static_watts) &&
                      fuzz::finite_nonneg(hw.launch_overhead_seconds) &&
                      fuzz::finite_nonneg(hw.clock_hz) && hw.units >= 0,
                  "power, overhead, clock and units finite and not negative");
  });
  return 0;
}
