// The executor's `reuse` memory plan, followed layer by layer
// (include/perfmodel/targets/cpu_eigen/buffer_plan.hpp).
#include "perfmodel/targets/cpu_eigen/buffer_plan.hpp"

#include <algorithm>

#include "perfmodel/memory_footprint.hpp"

namespace perfmodel {

size_t pick_free_buffer(const std::vector<size_t> &free_capacities, size_t n) {
  size_t pick = size_t(-1);
  for (size_t i = 0; i < free_capacities.size(); ++i) {
    const size_t cap = free_capacities[i];
    if (cap < n)
      continue;
    if (cap <= 2 * n)
      pick = i; // later entries were given back more recently
    else if (pick == size_t(-1) || (free_capacities[pick] > 2 * n && cap < free_capacities[pick]))
      pick = i;
  }
  return pick;
}

BufferAssignment plan_reused_buffers(const Graph &g) {
  BufferAssignment a;
  const size_t n = g.layers.size();
  std::map<std::string, size_t> last_read;
  for (size_t i = 0; i < n; ++i)
    for (const auto &t : g.layers[i].inputs)
      last_read[t] = i;
  std::vector<int> free_ids; // in the order they were given back
  auto take = [&](size_t elements) {
    std::vector<size_t> caps;
    for (int id : free_ids)
      caps.push_back(a.capacity[size_t(id)]);
    const size_t k = pick_free_buffer(caps, elements);
    if (k == size_t(-1)) {
      a.capacity.push_back(elements);
      return int(a.capacity.size() - 1);
    }
    const int id = free_ids[k];
    free_ids.erase(free_ids.begin() + std::ptrdiff_t(k));
    return id;
  };
  std::vector<std::pair<int, size_t>> held; // buffer id, last reader: in the order taken
  auto elements_of = [&](const std::string &t) {
    const auto it = g.tensors.find(t);
    return it == g.tensors.end() ? size_t(1)
                                 : size_t(std::max<int64_t>(numel(it->second.shape), 1));
  };
  for (size_t i = 0; i < n; ++i) {
    const Layer &l = g.layers[i];
    if (l.inputs.empty() && l.params.empty() && l.op != OpKind::generic)
      continue; // a folded constant: its own tensor, never pooled
    for (size_t k = 0; k < l.outputs.size(); ++k) {
      const std::string &o = l.outputs[k];
      if (is_view_op(l.op) && k < l.inputs.size() &&
          (!g.tensors.count(l.inputs[k]) || !g.tensors.count(o) ||
           numel(g.tensor(l.inputs[k]).shape) == numel(g.tensor(o).shape))) {
        const auto in = a.buffer_of.find(l.inputs[k]);
        if (in != a.buffer_of.end())
          a.buffer_of[o] = in->second; // shares its input's buffer (none for a graph input)
        continue;
      }
      a.buffer_of[o] = take(elements_of(o));
    }
    for (const auto &o : l.outputs) {
      const auto b = a.buffer_of.find(o);
      if (b == a.buffer_of.end())
        continue;
      const auto r = last_read.find(o);
      const size_t until = r == last_read.end() ? n : r->second;
      const auto h = std::find_if(held.begin(), held.end(),
                                  [&](const auto &x) { return x.first == b->second; });
      if (h == held.end())
        held.emplace_back(b->second, until);
      else
        h->second = std::max(h->second, until);
    }
    for (auto it = held.begin(); it != held.end();)
      if (it->second <= i) {
        free_ids.push_back(it->first);
        it = held.erase(it);
      } else {
        ++it;
      }
  }
  return a;
}

} // namespace perfmodel
