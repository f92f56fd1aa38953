// The operator call tree of each host thread, with the runtime calls each operator made and the
// device time they launched (the TensorBoard plugin's node/op_tree rules).
//
// Nesting comes from time containment on one thread; runtime calls belong to the operator with
// the same "External id" (runtime calls with id 0 to the thread's root); an operator whose only
// child has its own name is merged with it (PyTorch's _remove_dup_nodes). Device time of an
// operator: "self" = what its own runtime calls launched, "total" = self + its descendants'.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/trace/links.hpp"
#include "perfmodel/trace/trace.hpp"

namespace perfmodel::trace {

struct OpNode {
  size_t event = 0;             // index into Trace::events; npos for a thread root
  std::vector<int> children;    // node indices, in time order
  std::vector<size_t> runtimes; // runtime call event indices made by this node itself
  int parent = -1;
  double host_total = 0, host_self = 0;     // seconds
  double device_total = 0, device_self = 0; // seconds
};

struct OpTree {
  static constexpr size_t npos = static_cast<size_t>(-1);
  std::vector<OpNode> nodes;
  std::vector<int> roots; // one per host thread, in order of first appearance
  /// Host events dropped because they overlap a sibling without nesting (bad input data).
  int overlapping = 0;
};

OpTree build_op_tree(const Trace &t, const Links &links);

/// True for nodes the operator view counts: "Operator" events other than ProfilerStep#N,
/// DataLoader iteration, "Optimizer.*" and (Distributed)DataParallel.forward.
bool is_operator_node(const Trace &t, const OpTree &tree, int node);

} // namespace perfmodel::trace
