// The distinct bytes a forward pass touches between two layers: the LRU stack distance behind
// input_reuse_bytes (a layer's inputs) and behind input_cross_core_bytes' writes (whether the
// old lines of a reused buffer are still in a cache). docs/calibration.md, "Data that earlier
// layers pushed out".
#pragma once

#include <map>
#include <string>
#include <vector>

#include "perfmodel/cost.hpp"
#include "perfmodel/graph.hpp"

namespace perfmodel {

class PassTouches {
 public:
  /// `costs`: one forward cost per layer of g (graph_cost), for the im2col workspace.
  PassTouches(const Graph &g, const std::vector<LayerCost> &costs);

  /// The activation storages layer i reads or writes (a view's output is its input's
  /// storage; a view touches nothing).
  const std::vector<std::string> &storages(size_t layer) const { return roots_[layer]; }

  /// The distinct bytes layers [from, to) touch, `except`'s storage left out: each activation
  /// storage once, every layer's weights, and the im2col workspace once at its largest (one
  /// scratch buffer serves every lowered convolution).
  double distance(size_t from, size_t to, const std::string &except) const;

 private:
  std::vector<std::vector<std::string>> roots_; // per layer: storages read or written
  std::map<std::string, double> bytes_;         // per storage
  std::vector<double> weights_, workspace_;     // per layer
};

} // namespace perfmodel
