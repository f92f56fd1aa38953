// The operator view (per operator name: calls, device/host self/total time) and the kernel view
// (per kernel name: calls, total/mean/max/min duration) of a trace.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/trace/op_tree.hpp"
#include "perfmodel/trace/trace.hpp"

namespace perfmodel::trace {

struct OperatorRow {
  std::string name;
  int64_t calls = 0;
  double device_self = 0, device_total = 0, host_self = 0, host_total = 0; // seconds
};

struct KernelRow {
  std::string name;
  int64_t calls = 0;
  double total = 0, mean = 0, max = 0, min = 0; // seconds
};

/// Operators of every thread's tree, aggregated by name, sorted by device self time (desc).
std::vector<OperatorRow> operator_table(const Trace &t, const OpTree &tree);

/// Every kernel event, aggregated by name, sorted by total time (desc).
std::vector<KernelRow> kernel_table(const Trace &t);

} // namespace perfmodel::trace
