// Liveness walk over a graph's tensors in layer order: weights plus activations at the peak.
#include "perfmodel/memory_footprint.hpp"

#include <algorithm>
#include <unordered_map>

namespace perfmodel {
namespace {

/// One buffer: a tensor, or a tensor and the views of it.
struct Storage {
  int64_t bytes = 0;
  size_t last_use = 0; // index of the last layer reading it; layers.size() = kept to the end
  bool read = false;
  bool unread_alias = false; // some tensor in it is never read (a graph output)
};

int64_t tensor_bytes(const Graph &g, const std::string &name) {
  auto it = g.tensors.find(name);
  if (it != g.tensors.end())
    return it->second.bytes();
  for (const TensorDesc &t : g.inputs)
    if (t.name == name)
      return t.bytes();
  return 0; // not a known activation tensor (infer_shapes rejects these)
}

struct Liveness {
  std::vector<Storage> storages;
  std::unordered_map<std::string, size_t> storage_of; // tensor name -> storage index
  std::vector<size_t> graph_inputs;
};

Liveness build(const Graph &g) {
  Liveness lv;
  auto add = [&](const std::string &name, int64_t bytes) {
    lv.storage_of[name] = lv.storages.size();
    lv.storages.push_back({bytes, 0, false, false});
    return lv.storages.size() - 1;
  };
  for (const TensorDesc &t : g.inputs)
    lv.graph_inputs.push_back(add(t.name, t.bytes()));
  std::unordered_map<std::string, bool> read;
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer &l = g.layers[i];
    for (const std::string &in : l.inputs) {
      read[in] = true;
      auto it = lv.storage_of.find(in);
      if (it == lv.storage_of.end())
        continue;
      Storage &s = lv.storages[it->second];
      s.read = true;
      s.last_use = std::max(s.last_use, i);
    }
    bool view = is_view_op(l.op) && l.outputs.size() == 1 && !l.inputs.empty() &&
                lv.storage_of.count(l.inputs[0]);
    for (const std::string &out : l.outputs) {
      if (view)
        lv.storage_of[out] = lv.storage_of[l.inputs[0]];
      else
        add(out, tensor_bytes(g, out));
    }
  }
  for (const auto &[name, idx] : lv.storage_of)
    if (!read.count(name))
      lv.storages[idx].unread_alias = true;
  for (Storage &s : lv.storages)
    if (s.unread_alias || !s.read)
      s.last_use = g.layers.size();
  return lv;
}

int64_t weight_bytes(const Graph &g) {
  int64_t w = 0;
  for (const Layer &l : g.layers)
    for (const TensorDesc &p : l.params)
      w += p.bytes();
  return w;
}

MemoryFootprint forward(const Graph &g) {
  Liveness lv = build(g);
  MemoryFootprint f;
  f.weights_bytes = weight_bytes(g);
  int64_t live = 0;
  for (size_t s : lv.graph_inputs)
    live += lv.storages[s].bytes;
  f.activation_bytes = live;
  // Storages are created in layer order, so the ones a layer allocates follow the ones
  // allocated before it; `next` walks them once.
  size_t next = lv.graph_inputs.size();
  std::vector<std::vector<size_t>> frees(g.layers.size() + 1);
  for (size_t s = 0; s < lv.storages.size(); ++s)
    frees[lv.storages[s].last_use].push_back(s);
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer &l = g.layers[i];
    for (const std::string &out : l.outputs) {
      size_t s = lv.storage_of[out];
      if (s >= next) {
        live += lv.storages[s].bytes;
        next = s + 1;
      }
    }
    if (f.peak_layer.empty() || live > f.activation_bytes) {
      f.activation_bytes = std::max(f.activation_bytes, live);
      f.peak_layer = l.name;
    }
    for (size_t s : frees[i])
      live -= lv.storages[s].bytes;
  }
  return f;
}

MemoryFootprint train(const Graph &g) {
  Liveness lv = build(g);
  MemoryFootprint f;
  f.weights_bytes = 2 * weight_bytes(g);
  int64_t saved = 0;
  for (const Storage &s : lv.storages)
    saved += s.bytes;
  int64_t worst = 0;
  for (const Layer &l : g.layers) {
    if (is_view_op(l.op))
      continue; // the gradient of a view is a view
    int64_t grads = 0;
    for (const std::string &t : l.inputs)
      grads += tensor_bytes(g, t);
    for (const std::string &t : l.outputs)
      grads += tensor_bytes(g, t);
    if (f.peak_layer.empty() || grads > worst) {
      worst = std::max(worst, grads);
      f.peak_layer = l.name;
    }
  }
  f.activation_bytes = saved + worst;
  return f;
}

} // namespace

ViewStorages::ViewStorages(const Graph &g) {
  for (const Layer &l : g.layers)
    if (is_view(l))
      root_[l.outputs[0]] = of(l.inputs[0]);
}

bool is_view_op(OpKind k) {
  return k == OpKind::flatten || k == OpKind::reshape || k == OpKind::identity ||
         k == OpKind::dropout;
}

MemoryFootprint memory_footprint(const Graph &g, Pass pass) {
  return pass == Pass::train ? train(g) : forward(g);
}

MemoryFit memory_fit(const MemoryFootprint &m, const HwSpec &hw) {
  MemoryFit f;
  f.footprint = m;
  f.capacity_bytes = hw.memory.empty() ? 0.0 : hw.dram().capacity_bytes;
  f.fits = f.capacity_bytes <= 0 || double(m.total_bytes()) <= f.capacity_bytes;
  return f;
}

} // namespace perfmodel
