// The views of `perfmodel trace`, computed once into a TraceReport and printed as a table,
// CSV, JSON ("schema": "perfmodel.trace/2", times in seconds) or Markdown.
//
// Sample (table, resnet50_v100_num_workers_0.pt.trace.json.gz --hw v100 --view overview):
//   Overview: 6 steps, average 149ms, GPU utilization 67.8%
//   step     Kernel  Memcpy  Memset  Communication  Runtime  DataLoader  CPU Exec  Other   Total
//   5        101ms   1.95ms  69.0us  0s             3.35ms   10.0ms      12.5ms    1.27ms  130ms
//   ...
//   average  101ms   2.12ms  69.0us  0s             2.90ms   31.2ms      10.5ms    1.10ms  149ms
//   share    67.8%   1.4%    0.0%    0.0%           1.9%     21.0%       7.0%      0.7%    100.0%
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfmodel/report/format.hpp"
#include "perfmodel/trace/attainment.hpp"
#include "perfmodel/trace/cross_device.hpp"
#include "perfmodel/trace/op_table.hpp"
#include "perfmodel/trace/overview.hpp"

namespace perfmodel::report {

struct TraceReport {
  std::string file;
  std::optional<trace::Overview> overview;
  std::optional<std::vector<trace::OperatorRow>> operators;
  std::optional<std::vector<trace::KernelRow>> kernels;
  std::optional<trace::AttainmentView> attainment;
  std::optional<trace::CrossDeviceView> cross_device; // --predict-on
  /// The key the attainment rows are ordered by (sort_and_limit; its title says it).
  std::string attainment_order = "time_lost";
};

/// Sort keys each view accepts (the first is the default).
const std::vector<std::string> &operator_sort_keys();   // device_self, device_total, ...
const std::vector<std::string> &kernel_sort_keys();     // total, mean, max, min, calls, name
const std::vector<std::string> &attainment_sort_keys(); // time_lost, device, roofline, ...

/// Sorts the operator, kernel and attainment rows by `key` where the view has that key (its
/// default otherwise; "" = defaults) and keeps the first `top` rows of each (0 = all).
/// Returns false when no present view accepts `key`.
bool sort_and_limit(TraceReport &r, const std::string &key, size_t top);

std::string render_trace(const TraceReport &r, Format f);
std::string render_trace_json(const TraceReport &r);

} // namespace perfmodel::report
