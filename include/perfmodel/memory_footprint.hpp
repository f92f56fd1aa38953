// Device memory a model needs: weights plus the activations live at the peak (a liveness walk).
//
// Forward pass: layers run in graph order; a tensor is allocated when its layer runs and freed
// after its last reader. While a layer runs, its inputs and outputs are live together. Views
// (flatten, reshape, identity, dropout) share their input's storage. Graph inputs are live from
// the start; tensors nobody reads (the graph's outputs) stay live to the end. No op is assumed
// to run in place, so this is an upper bound on what a framework's allocator needs.
//
// Train pass: the forward activations are all kept for the backward pass, the weights get a
// gradient each (2 x weights; optimizer state is not counted), and during the backward pass of
// a layer the gradients of its outputs and inputs are live on top of the saved activations.
#pragma once

#include <map>
#include <string>

#include <cstdint>
#include <string>

#include "perfmodel/cost.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/hw_spec.hpp"

namespace perfmodel {

struct MemoryFootprint {
  int64_t weights_bytes = 0;    // parameters (x2 for the train pass: weights + gradients)
  int64_t activation_bytes = 0; // activation (and activation-gradient) bytes live at the peak
  int64_t total_bytes() const { return weights_bytes + activation_bytes; }
  std::string peak_layer; // the layer during which the peak occurs ("" = no layers)
};

/// Footprint of a shape-inferred graph for one pass.
MemoryFootprint memory_footprint(const Graph &g, Pass pass);

/// A footprint held against a device's memory: what `sweep` and `predict` report.
struct MemoryFit {
  MemoryFootprint footprint;
  double capacity_bytes = 0; // the spec's DRAM capacity; 0 = not given
  bool fits = true;          // footprint <= capacity (true when the capacity is not given)
};

/// Whether `m` fits in the DRAM of `hw`.
MemoryFit memory_fit(const MemoryFootprint &m, const HwSpec &hw);

/// True when the op's output is a view of its input (no storage of its own).
bool is_view_op(OpKind k);

/// Which tensor's storage each tensor of a forward pass lives in: a view's output lives in its
/// input's (through chains of views); every other tensor is its own storage.
class ViewStorages {
public:
  explicit ViewStorages(const Graph &g);
  /// Whether layer `l` is a view (one output sharing its first input's storage).
  static bool is_view(const Layer &l) {
    return is_view_op(l.op) && l.outputs.size() == 1 && !l.inputs.empty();
  }
  std::string of(const std::string &tensor) const {
    const auto it = root_.find(tensor);
    return it == root_.end() ? tensor : it->second;
  }

private:
  std::map<std::string, std::string> root_;
};

} // namespace perfmodel
