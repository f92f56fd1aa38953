// Executor: tensor allocation, the forward pass, and per-layer / whole-network timing.
#include "kernels/cpu/executor.hpp"

#include <functional>

#include "kernels/cpu/parallel.hpp"

namespace perfmodel::kernels::cpu {

namespace {

bool is_integer(DType t) {
  return t == DType::int8 || t == DType::int32 || t == DType::int64 || t == DType::boolean;
}

} // namespace

Executor::Executor(const Graph &g, uint64_t seed) : graph_(&g) {
  const std::hash<std::string> h;
  for (const auto &in : g.inputs) {
    const bool ints = is_integer(in.dtype);
    store_[in.name] =
        random_tensor(in.shape, seed ^ h(in.name), ints ? 0.0f : -1.0f, ints ? 1000.0f : 1.0f);
  }
  for (const auto &k : g.constants) {
    const bool ints = is_integer(k.dtype);
    store_[k.name] =
        random_tensor(k.shape, seed ^ h(k.name), ints ? 0.0f : -1.0f, ints ? 1000.0f : 1.0f);
  }
  layers_.reserve(g.layers.size());
  for (const auto &layer : g.layers)
    layers_.push_back(prepare_layer(g, layer, store_, seed ^ h(layer.name)));
}

void Executor::run_all() {
  for (auto &l : layers_)
    l.run();
}

Tensor &Executor::tensor(const std::string &name) {
  auto it = store_.find(name);
  if (it == store_.end())
    throw InputError("cpu executor: no tensor named '" + name + "'");
  return it->second;
}

GraphMeasurement measure_graph(const Graph &g, const MeasureOptions &opts) {
  ThreadCountScope threads(opts.threads);
  GraphMeasurement m;
  m.threads = num_threads();
  Executor ex(g, opts.seed);
  ex.run_all(); // every layer's inputs now hold real outputs of their producers
  for (size_t i = 0; i < ex.size(); ++i) {
    const Layer &layer = g.layers[i];
    if (opts.progress)
      opts.progress(i, ex.size(), layer.name);
    LayerMeasurement lm;
    lm.name = layer.name;
    lm.op = layer.op;
    lm.path = ex.path(i);
    lm.time = time_runs([&] { ex.run_layer(i); }, opts.warmup, opts.iters);
    m.layers.push_back(std::move(lm));
  }
  m.network = time_runs([&] { ex.run_all(); }, opts.warmup, opts.iters);
  return m;
}

} // namespace perfmodel::kernels::cpu
