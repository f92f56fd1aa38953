// Roofline attainment of traced operators: attribution of device time, counts, roofline times.
#include "perfmodel/trace/attainment.hpp"

#include <algorithm>
#include <unordered_map>

#include "perfmodel/cost.hpp"

namespace perfmodel::trace {
namespace {

// Everything a model depends on: the op, its shapes, and its parent's (conv backward parts).
std::string context_key(const Trace &t, const OpTree &tree, int n) {
  auto dims = [](const TraceEvent &e) {
    std::string s = e.name + "(";
    for (const Dims &d : e.input_dims)
      s += shape_str(d, 'x') + ";";
    return s + ")";
  };
  const OpNode &node = tree.nodes[n];
  std::string k = dims(t.events[node.event]);
  if (node.parent >= 0 && tree.nodes[node.parent].event != OpTree::npos)
    k += "<" + dims(t.events[tree.nodes[node.parent].event]);
  for (int c : node.children)
    k += "|" + t.events[tree.nodes[c].event].name;
  return k;
}

struct Signature {
  OpModel model;
  OpModelTime time;
};

PassCost part_cost(const LayerCost &lc, OpPart p) {
  switch (p) {
  case OpPart::fwd:
    return lc.fwd;
  case OpPart::bwd_data:
    return lc.bwd_data;
  case OpPart::bwd_weight:
    return lc.bwd_weight;
  case OpPart::bwd: {
    PassCost c = lc.bwd_data;
    c += lc.bwd_weight;
    return c;
  }
  }
  return {};
}

} // namespace

OpModelTime op_model_time(const OpModel &m, const HwSpec &hw, const Calibration *cal) {
  OpModelTime s;
  const Layer &l = m.graph.layers.at(0);
  LayerCost lc = layer_cost(m.graph, l, m.part == OpPart::fwd ? Pass::fwd : Pass::train);
  LayerCost part = lc;
  part.total = part_cost(lc, m.part);
  LayerTiming tm = roofline_time(hw, part, l.dtype);
  s.op = l.op_name + " " + std::string(to_string(m.part));
  s.flops = static_cast<double>(part.total.flops);
  s.bytes = static_cast<double>(part.total.bytes());
  // A kernel's device time does not hold its launch: the roofline it is judged against is the
  // kernel's work alone, max(compute, memory), without the spec's launch overhead. Only a kernel
  // that does fewer operations than the counting rules (Winograd, a fused or skipped op) can
  // then run faster than its roofline.
  s.roofline = std::max(tm.compute_seconds, tm.memory_seconds);
  s.bound = s.roofline <= 0                           ? Bound::none
            : tm.compute_seconds >= tm.memory_seconds ? Bound::compute
                                                      : Bound::memory;
  if (cal) {
    std::vector<KernelPart> kps;
    if (m.part == OpPart::fwd)
      kps = {KernelPart::fwd};
    if (m.part == OpPart::bwd_data || m.part == OpPart::bwd)
      kps.push_back(KernelPart::bwd_data);
    if (m.part == OpPart::bwd_weight ||
        (m.part == OpPart::bwd && lc.bwd_weight.bytes() + lc.bwd_weight.flops > 0))
      kps.push_back(KernelPart::bwd_weight);
    s.calibrated = 0;
    for (KernelPart kp : kps)
      s.calibrated += calibrated_time(*cal, hw, layer_features(m.graph, l, lc, kp)).seconds;
  }
  return s;
}

AttainmentView attainment_view(const Trace &t, const Links &l, const OpTree &tree, const HwSpec &hw,
                               const Calibration *cal) {
  AttainmentView v;
  v.hardware = hw.name;
  const ShapeHints hints = collect_shape_hints(t);
  const int n_nodes = static_cast<int>(tree.nodes.size());

  // 1. A model for every operator node with a rule (computed once per context).
  std::vector<Signature> sigs;
  std::unordered_map<std::string, int> sig_of_key;
  std::unordered_map<std::string, std::string> why_of_key;
  std::vector<int> sig(n_nodes, -1);
  std::vector<std::string> why(n_nodes);
  for (int n = 0; n < n_nodes; ++n) {
    if (!is_operator_node(t, tree, n))
      continue;
    const TraceEvent &e = t.events[tree.nodes[n].event];
    if (!has_shape_rule(e.name)) {
      why[n] = "no shape rule for this operator";
      continue;
    }
    std::string key = context_key(t, tree, n);
    if (auto it = sig_of_key.find(key); it != sig_of_key.end()) {
      sig[n] = it->second;
      continue;
    }
    if (auto it = why_of_key.find(key); it != why_of_key.end()) {
      why[n] = it->second;
      continue;
    }
    std::string w;
    std::optional<OpModel> m = model_op(t, tree, n, hints, &w);
    if (m) {
      try {
        OpModelTime time = op_model_time(*m, hw, cal);
        sigs.push_back(Signature{std::move(*m), std::move(time)});
        sig[n] = sig_of_key[key] = static_cast<int>(sigs.size() - 1);
        continue;
      } catch (const InputError &err) {
        w = err.message();
      }
    }
    why[n] = why_of_key[key] = w;
  }
  // 2. Which nodes have a modelled descendant (children always come after their parent).
  std::vector<char> modelled_below(n_nodes, 0);
  for (int n = n_nodes - 1; n >= 0; --n) {
    int p = tree.nodes[n].parent;
    if (p >= 0 && (sig[n] >= 0 || modelled_below[n]))
      modelled_below[p] = 1;
  }

  // 3. Walk the trees: innermost modelled operators take their subtree's device time.
  std::vector<char> reached(t.events.size(), 0);
  std::unordered_map<std::string, size_t> row_at, unattributed_at;
  auto unattributed = [&](size_t dev, const std::string &op, const std::string &reason) {
    const TraceEvent &d = t.events[dev];
    std::string k = d.name + '\n' + op + '\n' + reason;
    auto [it, fresh] = unattributed_at.emplace(k, v.unattributed.size());
    if (fresh)
      v.unattributed.push_back(UnattributedRow{d.name, op, reason});
    ++v.unattributed[it->second].calls;
    v.unattributed[it->second].seconds += d.duration();
    reached[dev] = 1;
  };
  std::vector<int> stack(tree.roots.rbegin(), tree.roots.rend());
  std::vector<int> sub;
  while (!stack.empty()) {
    int n = stack.back();
    stack.pop_back();
    const OpNode &node = tree.nodes[n];
    if (sig[n] >= 0 && !modelled_below[n]) {
      const OpModelTime &s = sigs[sig[n]].time;
      const TraceEvent &e = t.events[node.event];
      std::string shapes = dims_label(e);
      auto [it, fresh] = row_at.emplace(e.name + '\n' + shapes + '\n' + s.op, v.rows.size());
      if (fresh) {
        AttainmentRow r;
        r.name = e.name;
        r.op = s.op;
        r.shapes = shapes;
        r.bound = s.bound;
        r.model = sigs[sig[n]].model;
        if (cal)
          r.calibrated_seconds = 0;
        v.rows.push_back(std::move(r));
      }
      AttainmentRow &r = v.rows[it->second];
      ++r.calls;
      r.flops += s.flops;
      r.bytes += s.bytes;
      r.roofline_seconds += s.roofline;
      if (cal)
        r.calibrated_seconds += s.calibrated;
      r.device_seconds += node.device_total;
      r.call_seconds.push_back(node.device_total);
      v.modelled_seconds += node.device_total;
      sub.assign(1, n); // mark the subtree's device activity as attributed
      while (!sub.empty()) {
        int m = sub.back();
        sub.pop_back();
        for (size_t rt : tree.nodes[m].runtimes)
          for (size_t d : l.launched[rt])
            reached[d] = 1;
        sub.insert(sub.end(), tree.nodes[m].children.begin(), tree.nodes[m].children.end());
      }
      continue;
    }
    const bool root = node.event == OpTree::npos;
    const std::string op = root ? "" : t.events[node.event].name;
    std::string reason = root              ? "launched outside any operator (External id 0)"
                         : sig[n] >= 0     ? "operators inside it are modelled separately"
                         : !why[n].empty() ? why[n]
                                           : "not an operator (annotation or step)";
    for (size_t rt : node.runtimes)
      for (size_t d : l.launched[rt])
        unattributed(d, op, reason);
    stack.insert(stack.end(), node.children.rbegin(), node.children.rend());
  }
  std::vector<char> orphan(t.events.size(), 0);
  for (size_t d : l.orphans)
    orphan[d] = 1;
  for (size_t d : l.devices) {
    v.device_seconds += t.events[d].duration();
    if (reached[d])
      continue;
    unattributed(d, "",
                 orphan[d] ? "no runtime call has its correlation id"
                           : "its runtime call matches no operator's External id");
  }

  // 4. Per layer kind and pass part; sort everything.
  std::unordered_map<std::string, size_t> sum_at;
  for (const AttainmentRow &r : v.rows) {
    auto [it, fresh] = sum_at.emplace(r.op, v.summary.size());
    if (fresh)
      v.summary.push_back(AttainmentSummary{r.op});
    AttainmentSummary &s = v.summary[it->second];
    s.calls += r.calls;
    s.flops += r.flops;
    s.bytes += r.bytes;
    s.device_seconds += r.device_seconds;
    s.roofline_seconds += r.roofline_seconds;
  }
  auto by_lost = [](const auto &a, const auto &b) { return a.time_lost() > b.time_lost(); };
  std::stable_sort(v.rows.begin(), v.rows.end(), by_lost);
  std::stable_sort(v.summary.begin(), v.summary.end(), by_lost);
  std::stable_sort(
      v.unattributed.begin(), v.unattributed.end(),
      [](const UnattributedRow &a, const UnattributedRow &b) { return a.seconds > b.seconds; });
  return v;
}

} // namespace perfmodel::trace
