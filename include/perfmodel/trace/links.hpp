// Which device activities (kernels, memcpys, memsets) each CUDA runtime call launched,
// matched by the "correlation" id that the runtime call and its device events share.
#pragma once

#include <cstddef>
#include <vector>

#include "perfmodel/trace/trace.hpp"

namespace perfmodel::trace {

struct Links {
  /// For each event index: the device events it launched (non-empty only for runtime calls).
  std::vector<std::vector<size_t>> launched;
  /// Device events whose correlation matches no runtime call.
  std::vector<size_t> orphans;
  /// Runtime call event indices, in file order.
  std::vector<size_t> runtimes;
  /// Device event indices, in file order.
  std::vector<size_t> devices;
};

Links link_events(const Trace &t);

/// Device time (seconds) of everything runtime call `rt` launched.
double launched_seconds(const Trace &t, const Links &l, size_t rt);

} // namespace perfmodel::trace
