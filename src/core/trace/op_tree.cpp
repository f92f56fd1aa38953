// Builds the per-thread operator trees and their host/device self and total times.
#include "perfmodel/trace/op_tree.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace perfmodel::trace {
namespace {

bool in_tree(const TraceEvent &e) {
  return e.kind == EventKind::op || e.kind == EventKind::python ||
         e.kind == EventKind::profiler_step || e.kind == EventKind::user_annotation;
}

// Merges an operator with its only child of the same name (the child's runtimes win, as in
// torch.autograd.profiler's EventList._remove_dup_nodes).
void remove_dup_nodes(const Trace &t, OpTree &tree, int n) {
  while (true) {
    OpNode &node = tree.nodes[n];
    if (node.event == OpTree::npos || node.children.size() != 1)
      break;
    int c = node.children[0];
    const TraceEvent &pe = t.events[node.event];
    const TraceEvent &ce = t.events[tree.nodes[c].event];
    if (pe.kind != EventKind::op || ce.kind != EventKind::op || pe.name != ce.name)
      break;
    node.children = tree.nodes[c].children;
    node.runtimes = tree.nodes[c].runtimes;
    tree.nodes[c].children.clear();
    tree.nodes[c].runtimes.clear();
    tree.nodes[c].parent = -2; // detached
    for (int g : node.children)
      tree.nodes[g].parent = n;
  }
  std::vector<int> kids = tree.nodes[n].children;
  for (int c : kids)
    remove_dup_nodes(t, tree, c);
}

void fill_stats(const Trace &t, const Links &l, OpTree &tree, int n) {
  for (int c : tree.nodes[n].children)
    fill_stats(t, l, tree, c);
  OpNode &node = tree.nodes[n];
  const bool root = node.event == OpTree::npos;
  double host = root ? 0 : t.events[node.event].duration();
  node.host_total = host;
  node.host_self = host;
  node.device_self = 0;
  for (size_t rt : node.runtimes) {
    node.host_self -= t.events[rt].duration();
    node.device_self += launched_seconds(t, l, rt);
  }
  node.device_total = node.device_self;
  for (int c : node.children) {
    node.host_self -= tree.nodes[c].host_total;
    node.device_total += tree.nodes[c].device_total;
  }
  if (root)
    node.host_self = 0;
}

} // namespace

OpTree build_op_tree(const Trace &t, const Links &l) {
  OpTree tree;
  std::unordered_map<std::string, size_t> tid_index;
  std::vector<std::vector<size_t>> per_tid;
  for (size_t i = 0; i < t.events.size(); ++i) {
    if (!in_tree(t.events[i]))
      continue;
    auto [it, fresh] = tid_index.emplace(t.events[i].tid, per_tid.size());
    if (fresh)
      per_tid.emplace_back();
    per_tid[it->second].push_back(i);
  }
  std::unordered_map<int64_t, std::vector<size_t>> runtimes_of; // external id -> runtimes
  for (size_t rt : l.runtimes)
    runtimes_of[t.events[rt].external_id].push_back(rt);

  std::vector<std::vector<size_t>> own_runtimes(t.events.size());
  for (const auto &ops : per_tid) {
    for (size_t op : ops) {
      auto it = runtimes_of.find(t.events[op].external_id);
      if (it == runtimes_of.end() || t.events[op].external_id <= 0)
        continue;
      own_runtimes[op] = std::move(it->second);
      runtimes_of.erase(it);
    }
  }

  for (auto &ops : per_tid) {
    std::stable_sort(ops.begin(), ops.end(), [&](size_t a, size_t b) {
      const TraceEvent &x = t.events[a], &y = t.events[b];
      return x.start != y.start ? x.start < y.start : x.end > y.end;
    });
    int root = static_cast<int>(tree.nodes.size());
    tree.nodes.emplace_back();
    tree.nodes.back().event = OpTree::npos;
    tree.roots.push_back(root);
    // Runtime calls that belong to no operator (external id 0) on this thread hang off the root.
    const std::string &tid = t.events[ops.front()].tid;
    for (size_t rt : l.runtimes)
      if (t.events[rt].external_id == 0 && t.events[rt].tid == tid)
        tree.nodes[root].runtimes.push_back(rt);
    std::vector<int> stack{root};
    auto end_of = [&](int n) {
      size_t ev = tree.nodes[n].event;
      return ev == OpTree::npos ? std::numeric_limits<double>::infinity() : t.events[ev].end;
    };
    for (size_t op : ops) {
      const TraceEvent &e = t.events[op];
      while (true) {
        int tail = stack.back();
        if (e.start < end_of(tail)) {
          if (e.end <= end_of(tail)) {
            int n = static_cast<int>(tree.nodes.size());
            OpNode node;
            node.event = op;
            node.parent = tail;
            node.runtimes = std::move(own_runtimes[op]);
            tree.nodes.push_back(std::move(node));
            tree.nodes[tail].children.push_back(n);
            stack.push_back(n);
          } else {
            ++tree.overlapping;
          }
          break;
        }
        stack.pop_back();
      }
    }
    remove_dup_nodes(t, tree, root);
    fill_stats(t, l, tree, root);
  }
  return tree;
}

bool is_operator_node(const Trace &t, const OpTree &tree, int n) {
  const OpNode &node = tree.nodes[n];
  if (node.event == OpTree::npos || node.parent == -2)
    return false;
  const TraceEvent &e = t.events[node.event];
  if (e.kind != EventKind::op)
    return false;
  const std::string &s = e.name;
  if (s.rfind("enumerate(DataLoader)#", 0) == 0 && s.size() >= 9 &&
      s.compare(s.size() - 9, 9, ".__next__") == 0)
    return false;
  if (s.rfind("Optimizer.", 0) == 0)
    return false;
  return s != "DataParallel.forward" && s != "DistributedDataParallel.forward";
}

} // namespace perfmodel::trace
