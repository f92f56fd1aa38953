// Executor: tensor allocation, the forward pass, and per-layer / whole-network timing.
#include "perfmodel/kernels/cpu/executor.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

#include "perfmodel/kernels/cpu/host_probe.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"

namespace perfmodel::kernels::cpu {

namespace {

bool is_integer(DType t) {
  return t == DType::int8 || t == DType::int32 || t == DType::int64 || t == DType::boolean;
}

} // namespace

Executor::Executor(const Graph &g, uint64_t seed, BufferPlan plan) : graph_(&g) {
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
  // The reuse plan is the model's (perfmodel/targets/cpu_eigen/buffer_plan.hpp): the outputs take
  // the buffers it assigns, so the traffic the model predicts between cores is the traffic that
  // runs.
  BufferPool pool(plan == BufferPlan::reuse ? plan_reused_buffers(g) : BufferAssignment{});
  BufferPool *from = plan == BufferPlan::reuse ? &pool : nullptr;
  layers_.reserve(g.layers.size());
  for (const Layer &layer : g.layers) {
    layers_.push_back(prepare_layer(g, layer, store_, seed ^ h(layer.name), from));
    const std::string &path = layers_.back().path;
    const size_t ws = sizeof(float) * size_t(layers_.back().workspace_floats);
    workspace_bytes_ = from ? std::max(workspace_bytes_, ws) : workspace_bytes_ + ws;
    if (!from && path != "view" && path != "constant")
      for (const auto &o : layer.outputs)
        activation_bytes_ += sizeof(float) * size_t(std::max<int64_t>(store_.at(o).size(), 1));
  }
  if (from)
    activation_bytes_ = sizeof(float) * pool.allocated();
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

namespace {

std::vector<double> pick_indices(const std::vector<double> &v, const std::vector<size_t> &idx) {
  std::vector<double> out;
  out.reserve(idx.size());
  for (size_t i : idx)
    out.push_back(v.at(i));
  return out;
}

// Times every layer inside whole forward passes: one clock read between layers. `before_timed`
// runs before the last warm-up pass (before the first timed pass without warm-up): late enough
// that the process's start-up has settled, and a warm pass still follows it.
void measure_in_network(Executor &ex, const Graph &g, const MeasureOptions &opts,
                        GraphMeasurement &m, const std::function<void()> &before_timed) {
  check_timing_counts(opts.warmup, opts.iters);
  const size_t n = ex.size();
  std::vector<std::vector<double>> per_layer(n);
  std::vector<double> passes;
  std::vector<double> stamps(n + 1);
  constexpr int kMaxPasses = 100000;
  const int round_trip_calls = opts.placement_policy.round_trip_calls;
  const bool probe_placement = opts.faster_placement && num_threads() > 1;
  std::vector<double> round_trips;
  const bool probe_quiet = opts.quiet_probe_interval_seconds > 0;
  std::vector<policy::PassProbe> conv_probes;
  double last_conv_probe = 0;
  const auto conv_probe = [&] {
    conv_probes.push_back({passes.size(), probe_conv(opts.probe_policy).conv_flops_per_second});
    last_conv_probe = now_seconds();
  };
  double timed = 0; // seconds of timed passes so far
  for (int it = 0;
       it < opts.warmup + opts.iters || (timed < opts.min_seconds && it < opts.warmup + kMaxPasses);
       ++it) {
    if (opts.progress)
      opts.progress(size_t(it), size_t(std::max(opts.warmup + opts.iters, it + 1)), "forward pass");
    if (it == std::max(opts.warmup - 1, 0))
      before_timed();
    if (probe_quiet && it >= opts.warmup &&
        (conv_probes.empty() ||
         now_seconds() - last_conv_probe >= opts.quiet_probe_interval_seconds))
      conv_probe();
    if (probe_placement && it >= opts.warmup)
      round_trips.push_back(core_round_trip_seconds(round_trip_calls));
    stamps[0] = now_seconds();
    for (size_t i = 0; i < n; ++i) {
      ex.run_layer(i);
      stamps[i + 1] = now_seconds();
    }
    if (it < opts.warmup)
      continue;
    for (size_t i = 0; i < n; ++i)
      per_layer[i].push_back(stamps[i + 1] - stamps[i]);
    passes.push_back(stamps[n] - stamps[0]);
    timed += passes.back();
  }
  // The passes kept: those of the faster placement, and of those the ones between quiet
  // convolution probes.
  std::vector<size_t> kept(passes.size());
  std::iota(kept.begin(), kept.end(), size_t(0));
  if (probe_placement) {
    round_trips.push_back(core_round_trip_seconds(round_trip_calls));
    GraphMeasurement::Placement p;
    p.passes_timed = int(passes.size());
    p.selection = policy::select_faster_placement(round_trips, passes, opts.placement_policy);
    p.round_trip_seconds = std::move(round_trips);
    kept = p.selection.kept;
    m.placement = std::move(p);
  }
  if (probe_quiet) {
    conv_probe();
    GraphMeasurement::Quiet q;
    q.passes_timed = int(passes.size());
    q.selection = policy::select_quiet_passes(
        conv_probes, passes, kept, opts.quiet_reference_flops_per_second, opts.quiet_policy);
    q.probes = std::move(conv_probes);
    q.pass_seconds = passes;
    q.interval_seconds = opts.quiet_probe_interval_seconds;
    q.outside_reference_flops_per_second = opts.quiet_reference_flops_per_second;
    kept = q.selection.kept;
    m.quiet = std::move(q);
  }
  if (kept.size() < passes.size()) {
    passes = pick_indices(passes, kept);
    for (auto &l : per_layer)
      l = pick_indices(l, kept);
  }
  for (size_t i = 0; i < n; ++i) {
    LayerMeasurement lm;
    lm.name = g.layers[i].name;
    lm.op = g.layers[i].op;
    lm.path = ex.path(i);
    lm.time = summarize(std::move(per_layer[i]), opts.warmup);
    lm.time.cache_state = "in-network";
    m.layers.push_back(std::move(lm));
  }
  m.network = summarize(std::move(passes), opts.warmup);
  m.network.cache_state = "in-network";
}

// Times every layer alone, repeatedly (warm in cache), then whole passes.
void measure_isolated(Executor &ex, const Graph &g, const MeasureOptions &opts, GraphMeasurement &m,
                      const std::function<void()> &before_timed) {
  before_timed();
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
}

} // namespace

GraphMeasurement measure_graph(const Graph &g, const MeasureOptions &opts) {
  if (opts.min_seconds > 0 && opts.timing != LayerTiming::in_network)
    throw InputError("measure: a minimum time applies to in-network timing only");
  if (!(opts.min_seconds >= 0 && opts.min_seconds <= 3600))
    throw InputError("measure: the minimum time must be within [0, 3600] seconds");
  retain_freed_heap_memory();
  ThreadCountScope threads(opts.threads);
  GraphMeasurement m;
  m.threads = num_threads();
  Executor ex(g, opts.seed, opts.buffers);
  m.buffers = opts.buffers;
  m.activation_bytes = ex.activation_bytes();
  m.workspace_bytes = ex.workspace_bytes();
  ex.run_all(); // every layer's inputs now hold real outputs of their producers
  // Not right here: just after the process has allocated and touched its tensors the
  // convolution probe reads low now and then (docs/measurement-policy.md, "ProbePolicy").
  const auto probe_before = [&] {
    if (opts.probe_host)
      m.host_before = probe_host(opts.probe_policy);
  };
  if (opts.timing == LayerTiming::in_network)
    measure_in_network(ex, g, opts, m, probe_before);
  else
    measure_isolated(ex, g, opts, m, probe_before);
  if (opts.probe_host)
    m.host_after = probe_host(opts.probe_policy);
  return m;
}

} // namespace perfmodel::kernels::cpu
