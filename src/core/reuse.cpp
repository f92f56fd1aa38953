// The LRU stack distance of a layer's inputs inside a forward pass: how many distinct bytes the
// pass touched since it last touched them (docs/model.md, "Reuse
// distance").
#include "perfmodel/reuse.hpp"

#include <algorithm>

#include "perfmodel/calibration.hpp"
#include "perfmodel/memory_footprint.hpp"

namespace perfmodel {

PassTouches::PassTouches(const Graph &g, const std::vector<LayerCost> &costs)
    : weights_(g.layers.size(), 0.0), workspace_(g.layers.size(), 0.0) {
  const ViewStorages storage(g);
  auto id_of = [&](const std::string &name) {
    const auto [it, added] = ids_.emplace(name, int(bytes_.size()));
    if (added) {
      const auto t = g.tensors.find(name);
      bytes_.push_back(t == g.tensors.end() ? 0.0 : double(t->second.bytes()));
    }
    return it->second;
  };
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer &l = g.layers[i];
    std::vector<int> r;
    if (!ViewStorages::is_view(l)) { // a view touches nothing
      for (const std::string &in : l.inputs)
        r.push_back(id_of(storage.of(in)));
      for (const std::string &out : l.outputs)
        r.push_back(id_of(out));
      // What it touches besides activations: its weights and the im2col workspace.
      for (const TensorDesc &p : l.params)
        weights_[i] += double(p.bytes());
      if (i < costs.size())
        workspace_[i] = layer_features(g, l, costs[i], KernelPart::fwd).lowered_bytes;
    }
    roots_.push_back(std::move(r));
  }
}

int PassTouches::id(const std::string &storage) const {
  const auto it = ids_.find(storage);
  return it == ids_.end() ? -1 : it->second;
}

double PassTouches::distance(size_t from, size_t to, int except) const {
  std::vector<char> seen(bytes_.size(), 0);
  if (except >= 0)
    seen[size_t(except)] = 1;
  double distinct = 0, scratch = 0;
  for (size_t j = from; j < to && j < roots_.size(); ++j) {
    for (const int s : roots_[j])
      if (!seen[size_t(s)]) {
        seen[size_t(s)] = 1;
        distinct += bytes_[size_t(s)];
      }
    distinct += weights_[j];
    scratch = std::max(scratch, workspace_[j]);
  }
  return distinct + scratch;
}

std::vector<double> input_reuse_bytes(const Graph &g, const std::vector<LayerCost> &costs) {
  const size_t n = g.layers.size();
  const PassTouches t(g, costs);
  std::map<int, size_t> last_touch; // storage -> the last layer that touched it
  std::vector<double> out(n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    for (const int in : t.storages(i)) {
      const auto lt = last_touch.find(in);
      if (lt == last_touch.end())
        continue; // first touch in the pass: handed over just before (a graph input)
      out[i] = std::max(out[i], t.distance(lt->second, i, in));
    }
    for (const int s : t.storages(i))
      last_touch[s] = i;
  }
  return out;
}

} // namespace perfmodel
