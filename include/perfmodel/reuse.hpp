// The distinct bytes a forward pass touches between two layers: the LRU stack distance behind
// input_reuse_bytes (a layer's inputs) and behind input_cross_core_bytes' writes (whether the
// old lines of a reused buffer are still in a cache). docs/model.md, "Reuse
// distance".
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

  /// The activation storages layer i reads or writes, as ids (a view's output is its input's
  /// storage; a view touches nothing).
  const std::vector<int> &storages(size_t layer) const { return roots_[layer]; }
  /// The id of a storage (a root tensor's name); -1 for a name no layer touches.
  int id(const std::string &storage) const;

  /// The distinct bytes layers [from, to) touch, storage `except` left out: each activation
  /// storage once, every layer's weights, and the im2col workspace once at its largest (one
  /// scratch buffer serves every lowered convolution).
  double distance(size_t from, size_t to, int except) const;
  double distance(size_t from, size_t to, const std::string &except) const {
    return distance(from, to, id(except));
  }

private:
  std::vector<std::vector<int>> roots_;     // per layer: storages read or written
  std::map<std::string, int> ids_;          // storage name -> id
  std::vector<double> bytes_;               // per storage id
  std::vector<double> weights_, workspace_; // per layer
};

} // namespace perfmodel
