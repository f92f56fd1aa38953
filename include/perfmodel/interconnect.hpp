// How a device reaches the others: levels of links, innermost first (NVLink / NVSwitch inside a
// node, PCIe, the network between nodes), each with its per-direction bandwidth per device and
// its latency (docs/parallel.md, "Interconnect").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace perfmodel {

/// One level: `devices` devices share it (8 GPUs of a DGX node behind its NVSwitches); the
/// outermost level may leave `devices` 0 (the network: any number of nodes). A collective whose
/// group fits in one domain of this level runs at `bytes_per_second` per device and direction,
/// paying `latency_seconds` per algorithm step.
struct LinkLevel {
  std::string name; // "nvlink", "pcie", "network"
  int64_t devices = 0;
  double bytes_per_second = 0;
  double latency_seconds = 0;
};

struct Interconnect {
  std::vector<LinkLevel> levels; // innermost first; empty: the spec names no links
  bool empty() const { return levels.empty(); }
  /// Devices in one domain of the innermost level (a node): 1 without levels.
  int64_t node_devices() const;
  /// The innermost level whose domain holds `group` devices (0 = unbounded); nullptr when none
  /// does (the group spans more devices than the outermost level has).
  const LinkLevel *level_for(int64_t group) const;
};

/// Checks a level list: names, positive bandwidths, latencies >= 0, device counts growing
/// outwards (each a multiple of the one inside), only the outermost unbounded. Returns false
/// and fills `error` with the first problem.
bool is_valid(const Interconnect &ic, std::string *error);

} // namespace perfmodel
