// Aggregation of operators (from the call trees) and kernels (from all kernel events) by name.
#include "perfmodel/trace/op_table.hpp"

#include <algorithm>
#include <unordered_map>

namespace perfmodel::trace {

std::vector<OperatorRow> operator_table(const Trace &t, const OpTree &tree) {
  std::vector<OperatorRow> rows;
  std::unordered_map<std::string, size_t> at;
  for (int n = 0; n < static_cast<int>(tree.nodes.size()); ++n) {
    if (!is_operator_node(t, tree, n))
      continue;
    const OpNode &node = tree.nodes[n];
    const std::string &name = t.events[node.event].name;
    auto [it, fresh] = at.emplace(name, rows.size());
    if (fresh)
      rows.push_back(OperatorRow{name});
    OperatorRow &r = rows[it->second];
    ++r.calls;
    r.device_self += node.device_self;
    r.device_total += node.device_total;
    r.host_self += node.host_self;
    r.host_total += node.host_total;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const OperatorRow &a, const OperatorRow &b) {
    return a.device_self != b.device_self ? a.device_self > b.device_self
                                          : a.host_total > b.host_total;
  });
  return rows;
}

std::vector<KernelRow> kernel_table(const Trace &t) {
  std::vector<KernelRow> rows;
  std::unordered_map<std::string, size_t> at;
  for (const TraceEvent &e : t.events) {
    if (e.kind != EventKind::kernel)
      continue;
    auto [it, fresh] = at.emplace(e.name, rows.size());
    double d = e.duration();
    if (fresh)
      rows.push_back(KernelRow{e.name, 0, 0, 0, d, d});
    KernelRow &r = rows[it->second];
    ++r.calls;
    r.total += d;
    r.max = std::max(r.max, d);
    r.min = std::min(r.min, d);
  }
  for (KernelRow &r : rows)
    r.mean = r.total / static_cast<double>(r.calls);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const KernelRow &a, const KernelRow &b) { return a.total > b.total; });
  return rows;
}

} // namespace perfmodel::trace
