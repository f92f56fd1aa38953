// Serving metrics from the predicted passes (docs/llm.md, "Metrics").
#include "perfmodel/llm/serve.hpp"

#include <numeric>

namespace perfmodel::llm {

namespace {

PassPrediction predict_pass(const LlmConfig &c, const HwSpec &hw, const ServeOptions &o,
                            const PassShape &s, std::shared_ptr<const Graph> g) {
  PredictOptions po;
  po.calibration = o.calibration;
  std::vector<LayerCost> costs = pass_costs(*g, c, s, o.attention);
  if (o.weights)
    apply_weight_format(*g, o.dtype, *o.weights, costs);
  Prediction p = predict(*g, hw, po, std::move(costs));
  return PassPrediction{std::move(g), std::move(p)};
}

Bound main_bound(double compute, double memory, double overhead) {
  if (compute == 0 && memory == 0 && overhead == 0)
    return Bound::none;
  if (compute >= memory && compute >= overhead)
    return Bound::compute;
  return memory >= overhead ? Bound::memory : Bound::overhead;
}

} // namespace

double mean_step_seconds(const std::vector<double> &steps) {
  return steps.empty() ? 0.0
                       : std::accumulate(steps.begin(), steps.end(), 0.0) / double(steps.size());
}

ServeResult serve(const LlmConfig &c, const HwSpec &hw, const ServeOptions &o) {
  if (o.prompt < 1)
    throw InputError("--prompt must be at least 1");
  if (o.generate < 1)
    throw InputError("--generate must be at least 1");
  if (o.batch < 1)
    throw InputError("--batch must be at least 1");
  // the passes run positions 0 ... P + G - 2: the last output token is never fed back
  if (o.prompt + o.generate - 1 > c.max_positions)
    throw InputError("--prompt + --generate - 1 (" + std::to_string(o.prompt + o.generate - 1) +
                     " positions) exceeds the model's max_position_embeddings (" +
                     std::to_string(c.max_positions) + ")");
  ServeResult r;
  r.options = o;
  r.parameters = parameter_count(c);
  r.active_parameters = active_parameter_count(c);
  r.kv_bytes_per_token = kv_bytes_per_token(c, o.kv_dtype.value_or(o.dtype));
  const int64_t per_sequence = cached_entries(c, o.prompt + o.generate) * r.kv_bytes_per_token;
  r.kv_cache_bytes = o.batch * per_sequence;

  const PassShape first{Phase::prefill, o.batch, o.prompt, 0};
  auto prefill_graph = std::make_shared<const Graph>(build_graph(c, first, o.dtype, o.kv_dtype));
  r.weight_bytes = o.weights ? weight_bytes(*prefill_graph, o.dtype, *o.weights)
                             : r.parameters * bytes_of(o.dtype);
  r.total_bytes = r.weight_bytes + r.kv_cache_bytes;
  r.capacity_bytes = hw.dram().capacity_bytes;
  r.fits = double(r.total_bytes) <= r.capacity_bytes;
  r.max_batch = double(r.weight_bytes) >= r.capacity_bytes
                    ? 0
                    : int64_t((r.capacity_bytes - double(r.weight_bytes)) / double(per_sequence));
  r.prefill = predict_pass(c, hw, o, first, prefill_graph);
  r.ttft = r.prefill.seconds();
  const Totals &pt = r.prefill.prediction.totals;
  r.prefill_bound =
      main_bound(pt.seconds_compute_bound, pt.seconds_memory_bound, pt.seconds_overhead_bound);
  double energy = pt.energy_joules;
  double compute = 0, memory = 0, overhead = 0;
  // One decode graph, moved to each step's KV length (the steps differ only there); the last
  // step's keeps a graph of its own for --per-layer.
  std::shared_ptr<Graph> decode;
  if (o.generate > 1)
    decode = std::make_shared<Graph>(
        build_graph(c, PassShape{Phase::decode, o.batch, 1, o.prompt}, o.dtype, o.kv_dtype));
  for (int64_t j = 1; j < o.generate; ++j) { // step j feeds output token j at KV length P+j-1
    const PassShape s{Phase::decode, o.batch, 1, o.prompt + j - 1};
    set_decode_context(*decode, c, s.context);
    const bool last = j + 1 == o.generate;
    PassPrediction step =
        predict_pass(c, hw, o, s, last ? std::make_shared<const Graph>(*decode) : decode);
    r.step_seconds.push_back(step.seconds());
    const Totals &t = step.prediction.totals;
    energy += t.energy_joules;
    compute += t.seconds_compute_bound;
    memory += t.seconds_memory_bound;
    overhead += t.seconds_overhead_bound;
    if (last)
      r.last_decode = std::move(step);
  }
  r.decode_bound = main_bound(compute, memory, overhead);
  if (!r.step_seconds.empty()) {
    r.tpot_first = r.step_seconds.front();
    r.tpot_last = r.step_seconds.back();
    r.tpot_mean = mean_step_seconds(r.step_seconds);
  }
  r.e2e = r.ttft + std::accumulate(r.step_seconds.begin(), r.step_seconds.end(), 0.0);
  r.tokens_per_second_request = double(o.generate) / r.e2e;
  r.tokens_per_second_batch = double(o.batch * o.generate) / r.e2e;
  r.energy_joules_request = energy / double(o.batch);
  r.energy_joules_per_token = energy / double(o.batch * o.generate);
  return r;
}

} // namespace perfmodel::llm
