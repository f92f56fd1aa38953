// The LRU stack distance of a layer's inputs inside a forward pass: how many distinct bytes the
// pass touched since it last touched them (docs/calibration.md, "Data that earlier layers
// pushed out").
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/memory_footprint.hpp"

namespace perfmodel {

namespace {

// The activation storages a layer touches, by root tensor name (a view's output is its
// input's storage, and a view touches nothing).
struct Touches {
  std::vector<std::vector<std::string>> roots; // per layer: storages read or written
  std::map<std::string, double> bytes;         // per storage
};

Touches touches_of(const Graph &g) {
  Touches t;
  const ViewStorages storage(g);
  auto size_of = [&](const std::string &name) {
    const auto it = g.tensors.find(name);
    return it == g.tensors.end() ? 0.0 : double(it->second.bytes());
  };
  for (const Layer &l : g.layers) {
    std::vector<std::string> r;
    if (ViewStorages::is_view(l)) { // touches nothing
      t.roots.push_back(r);
      continue;
    }
    for (const std::string &in : l.inputs)
      r.push_back(storage.of(in));
    for (const std::string &out : l.outputs) {
      r.push_back(out);
      t.bytes[out] = size_of(out);
    }
    for (const std::string &s : r)
      if (!t.bytes.count(s))
        t.bytes[s] = size_of(s); // graph inputs and constants
    t.roots.push_back(std::move(r));
  }
  return t;
}

} // namespace

std::vector<double> input_reuse_bytes(const Graph &g, const std::vector<LayerCost> &costs) {
  const size_t n = g.layers.size();
  const Touches t = touches_of(g);
  // What a layer touches besides activations: its weights, and the im2col workspace (one
  // scratch buffer that every lowered convolution reuses).
  std::vector<double> weights(n, 0.0), workspace(n, 0.0);
  for (size_t i = 0; i < n && i < costs.size(); ++i) {
    for (const TensorDesc &p : g.layers[i].params)
      weights[i] += double(p.bytes());
    workspace[i] = layer_features(g, g.layers[i], costs[i], KernelPass::fwd).lowered_bytes;
  }
  std::map<std::string, size_t> last_touch; // storage -> the last layer that touched it
  std::vector<double> out(n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    for (const std::string &in : t.roots[i]) {
      const auto lt = last_touch.find(in);
      if (lt == last_touch.end())
        continue; // first touch in the pass: handed over just before (a graph input)
      // Distinct bytes touched by layers lt..i-1, the input itself excluded.
      std::set<std::string> seen{in};
      double distinct = 0, scratch = 0;
      for (size_t j = lt->second; j < i; ++j) {
        for (const std::string &s : t.roots[j])
          if (seen.insert(s).second)
            distinct += t.bytes.at(s);
        distinct += weights[j];
        scratch = std::max(scratch, workspace[j]);
      }
      out[i] = std::max(out[i], distinct + scratch);
    }
    for (const std::string &s : t.roots[i])
      last_touch[s] = i;
  }
  return out;
}

} // namespace perfmodel
