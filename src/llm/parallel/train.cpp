// A training step on many devices (perfmodel/llm/parallel_train.hpp, docs/parallel.md
// "Training").
#include "perfmodel/llm/parallel_train.hpp"
#include "perfmodel/llm/overlap.hpp"

#include <algorithm>

namespace perfmodel::llm {

std::string_view to_string(Recompute r) {
  switch (r) {
  case Recompute::none:
    return "none";
  case Recompute::selective:
    return "selective";
  case Recompute::full:
    return "full";
  }
  return "?";
}

std::optional<Recompute> parse_recompute(std::string_view s) {
  if (s == "none")
    return Recompute::none;
  if (s == "selective")
    return Recompute::selective;
  if (s == "full")
    return Recompute::full;
  return std::nullopt;
}

namespace {

bool starts(const std::string &s, const char *p) { return s.rfind(p, 0) == 0; }
bool has(const std::string &s, const char *p) { return s.find(p) != std::string::npos; }

bool attention_core(const std::string &name) {
  return has(name, "self_attn.scores") || has(name, "self_attn.softmax") ||
         has(name, "self_attn.attn_v");
}

} // namespace

LayerTimes layer_times(const LlmConfig &c, const HwSpec &hw, const TrainOptions &o) {
  LayerTimes t;
  const PassShape shape{Phase::prefill, o.microbatch, o.seq, 0};
  { // one tensor-parallel rank: the times
    const LlmConfig d = shard_config(c, o.split, 1);
    const Graph g = build_graph(d, shape, o.dtype);
    PredictOptions po;
    po.calibration = o.calibration;
    const Prediction p = predict(g, hw, po, pass_costs(g, d, shape, o.attention));
    for (const LayerPrediction &l : p.layers) {
      const std::string &n = l.layer->name;
      if (starts(n, "layers.")) {
        t.layer_fwd += l.timing.seconds;
        if (attention_core(n))
          t.attention_core_fwd += l.timing.seconds;
      } else {
        t.ends_fwd += l.timing.seconds;
      }
    }
  }
  { // the whole width: the model's FLOPs
    const LlmConfig d = shard_config(c, ParallelSplit{}, 1);
    const Graph g = build_graph(d, shape, o.dtype);
    const auto costs = pass_costs(g, d, shape, o.attention);
    for (size_t i = 0; i < costs.size(); ++i)
      (starts(g.layers[i].name, "layers.") ? t.layer_flops : t.ends_flops) +=
          double(costs[i].fwd.flops);
  }
  return t;
}

TrainMemory train_memory(const LlmConfig &c, const TrainOptions &o, int64_t m) {
  const ParallelSplit &s = o.split;
  TrainMemory mem;
  const double p = double(stage_parameters(c, s));
  const double dp = double(s.dp);
  mem.weights = 2 * p / (o.zero >= 3 ? dp : 1);
  mem.gradients = 4 * p / (o.zero >= 2 ? dp : 1);
  mem.optimizer = 12 * p / (o.zero >= 1 ? dp : 1);
  // Korthikanti et al. 2022, Table 2, with the paper's 34 = 10 replicated + 24 split over tp
  // generalised to the MLP width F: plain MLP 18 + 4F/h, gated 18 + 6F/h (gate and up outputs
  // and their product kept)
  const double sv = double(o.seq), b = double(o.microbatch), h = double(c.hidden);
  const double t = double(s.tp), a = double(c.heads), F = double(c.intermediate);
  const double sbh = sv * b * h;
  const double C = 18 + (c.mlp == Mlp::gated ? 6 : 4) * F / h;
  const double scores = o.attention == Attention::eager ? 5 * a * sv / h : 0;
  double per_layer = 0;
  switch (o.recompute) {
  case Recompute::none:
    per_layer =
        s.sequence_parallel ? sbh / t * (C + scores) : sbh * (10 + (C - 10) / t + scores / t);
    break;
  case Recompute::selective:
    per_layer = s.sequence_parallel ? sbh / t * C : sbh * (10 + (C - 10) / t);
    break;
  case Recompute::full:
    per_layer = s.sequence_parallel ? 2 * sbh / t : 2 * sbh;
    break;
  }
  mem.activations_per_layer = per_layer;
  const double pp = double(s.pp), v = double(s.interleave);
  double in_flight = double(c.layers / s.pp) * double(std::min<int64_t>(s.pp, m));
  if (s.interleave > 1)
    in_flight *= 1 + (pp - 1) / (pp * v);
  mem.in_flight = in_flight;
  // the extras of section 4.3: the embedding's dropout (p microbatches), and with one stage the
  // final norm, the output layer and the fp32 logits
  const double extra = sbh * pp / t + (s.pp == 1 ? 4 * sbh / t * (1 + double(c.vocab) / h) : 0);
  mem.activations = per_layer * in_flight + extra;
  return mem;
}

TrainResult train_from_times(const LlmConfig &c, const HwSpec &hw, const TrainOptions &o,
                             const LayerTimes &lt) {
  const ParallelSplit &s = o.split;
  TrainResult r;
  r.options = o;
  r.times = lt;
  r.devices = s.devices(true);
  r.microbatches = o.global_batch / (s.dp * o.microbatch);
  const double m = double(r.microbatches), n = double(c.layers / s.pp);
  const double v = double(s.interleave), pp = double(s.pp);
  const int64_t node = hw.interconnect.node_devices();
  const double tokens = double(o.microbatch * o.seq);
  const double act = tokens * double(c.hidden) * double(bytes_of(o.dtype));

  // one microbatch on the slowest stage (the last: its layers and the LM head)
  const double fwd = n * lt.layer_fwd + lt.ends_fwd;
  const double compute_mb = 3 * fwd; // backward: twice the forward (data and weight gradients)
  const double recompute_mb = o.recompute == Recompute::full        ? n * lt.layer_fwd
                              : o.recompute == Recompute::selective ? n * lt.attention_core_fwd
                                                                    : 0;
  // tensor parallel: 2 all-reduces (or reduce-scatter + all-gather pairs) per layer forward,
  // 2 backward, 2 more in a fully recomputed forward
  const double per_layer_ops = 4 + (o.recompute == Recompute::full ? 2 : 0);
  double tp_mb = 0, ep_mb = 0;
  std::vector<CommLine> comm;
  auto add = [&](const std::string &kind, Collective k, double count, double bytes, Group g) {
    const CommCost one = group_cost(kind, k, bytes, g, hw, o.comm);
    comm.push_back(CommLine{kind, k, int64_t(count), bytes, g, one.level, count * one.seconds,
                            one.calibrated});
    return one.seconds;
  };
  if (s.tp > 1) {
    const Group g = group_at(s.tp, 1, node);
    const double per_step = m * n * per_layer_ops;
    if (s.sequence_parallel) {
      tp_mb = n * per_layer_ops *
              (add("tp", Collective::all_gather, per_step, act, g) +
               add("tp", Collective::reduce_scatter, per_step, act, g));
    } else {
      tp_mb = n * per_layer_ops * add("tp", Collective::all_reduce, per_step, act, g);
    }
  }
  if (s.ep > 1) // dispatch and combine forward, their gradients backward (and again recomputed)
    ep_mb = n * per_layer_ops *
            add("ep", Collective::all_to_all, m * n * per_layer_ops,
                act * double(c.experts_per_token), group_at(s.ep, s.tp, node));
  const double stage_mb = compute_mb + recompute_mb + tp_mb + ep_mb;
  r.compute = m * compute_mb;
  r.recompute = m * recompute_mb;
  r.bubble = (pp - 1) / v * stage_mb;
  double pp_seconds = 0;
  if (s.pp > 1) { // activations forward, their gradients back: per virtual stage and microbatch,
                  // and the fill and drain hops
    const double hops = 2 * (v * m + pp - 1);
    // each tensor-parallel rank sends its 1/t of the activations (with sequence parallelism
    // they are split already); without it the receiving ranks all-gather the whole tensor in
    // their tensor-parallel group: Narayanan et al. 2021 section 4.1's scatter/gather, on in
    // Megatron-LM by default
    pp_seconds = hops * add("pp", Collective::send_recv, hops, act / double(s.tp),
                            group_at(2, s.tp * s.dp, node));
    if (s.tp > 1 && !s.sequence_parallel)
      pp_seconds += hops * add("pp", Collective::all_gather, hops, act, group_at(s.tp, 1, node));
  }
  double dp_seconds = 0;
  const double params = double(stage_parameters(c, s));
  if (s.dp > 1) {
    const Group g = group_at(s.dp, s.tp, node);
    const double grad_bytes = params * double(bytes_of(o.dtype));
    double reduce = 0; // the gradients' reduction: what --overlap-grad-reduce hides
    if (o.zero == 0) {
      dp_seconds = reduce = add("dp", Collective::all_reduce, 1, grad_bytes, g);
    } else { // gradients reduce-scattered, updated weights all-gathered
      reduce = add("dp", Collective::reduce_scatter, 1, grad_bytes, g);
      dp_seconds = reduce + add("dp", Collective::all_gather, 1, grad_bytes, g);
      if (o.zero >= 3) // weights gathered for each microbatch's forward and backward
        dp_seconds += 2 * m * add("dp", Collective::all_gather, 2 * m, grad_bytes, g);
    }
    if (o.overlap_grad_reduce) { // behind the last microbatch's backward (and its recompute)
      r.comm_overlapped =
          overlap_grad_reduce(reduce, compute_mb - fwd + recompute_mb, c.layers / s.pp).hidden;
      dp_seconds -= r.comm_overlapped;
    }
  }
  r.comm = comm;
  r.comm_exposed = m * (tp_mb + ep_mb) + pp_seconds + dp_seconds;
  // Adam: fp32 master weights, m and v read and written, the fp32 gradient read, the 16-bit
  // weights written: 30 bytes per parameter this device updates, at DRAM bandwidth
  const double updated = params / (o.zero >= 1 ? double(s.dp) : 1);
  r.optimizer = updated * 30 / hw.dram().bytes_per_second;
  r.step = r.compute + r.recompute + r.comm_exposed + r.bubble + r.optimizer;

  r.memory = train_memory(c, o, r.microbatches);
  r.capacity = hw.dram().capacity_bytes;
  r.fits = r.memory.total() <= r.capacity;
  const double micro_total = double(o.global_batch / o.microbatch);
  const double fwd_flops = double(c.layers) * lt.layer_flops + lt.ends_flops;
  r.model_flops = 3 * fwd_flops * micro_total;
  const double extra_fraction =
      o.recompute == Recompute::full ? double(c.layers) * lt.layer_flops
      : o.recompute == Recompute::selective
          ? double(c.layers) * lt.layer_flops *
                (lt.layer_fwd > 0 ? lt.attention_core_fwd / lt.layer_fwd : 0)
          : 0;
  r.hardware_flops = r.model_flops + extra_fraction * micro_total;
  const auto unit = hw.best_unit(o.dtype, true);
  const double peak = unit ? unit->flops_per_second : 0;
  r.mfu = peak > 0 ? r.model_flops / (r.step * double(r.devices) * peak) : 0;
  r.hfu = peak > 0 ? r.hardware_flops / (r.step * double(r.devices) * peak) : 0;
  r.tokens_per_second = double(o.global_batch * o.seq) / r.step;
  r.tokens_per_second_per_device = r.tokens_per_second / double(r.devices);
  return r;
}

void check_train(const LlmConfig &c, const TrainOptions &o) {
  check_split(c, o.split);
  const ParallelSplit &s = o.split;
  if (s.ep > 1 && s.dp % s.ep != 0)
    throw InputError("--ep " + std::to_string(s.ep) + " must divide --dp " + std::to_string(s.dp) +
                     " (expert parallelism is carved out of data "
                     "parallelism in training)");
  if (o.microbatch < 1 || o.global_batch < 1)
    throw InputError("--global-batch and --microbatch must be at least 1");
  if (o.global_batch % (s.dp * o.microbatch) != 0)
    throw InputError("--global-batch " + std::to_string(o.global_batch) +
                     " is not divisible by --dp x --microbatch (" +
                     std::to_string(s.dp * o.microbatch) + ")");
  if (o.zero < 0 || o.zero > 3)
    throw InputError("--zero must be 0, 1, 2 or 3, not " + std::to_string(o.zero));
  if (o.seq < 1 || o.seq > c.max_positions)
    throw InputError("--seq " + std::to_string(o.seq) + " must be from 1 to the model's " +
                     "max_position_embeddings (" + std::to_string(c.max_positions) + ")");
  if (s.sequence_parallel && o.seq % s.tp != 0)
    throw InputError("--sequence-parallel: --tp " + std::to_string(s.tp) +
                     " does not divide --seq " + std::to_string(o.seq));
}

TrainResult train_parallel(const LlmConfig &c, const HwSpec &hw, const TrainOptions &o) {
  check_train(c, o);
  return train_from_times(c, hw, o, layer_times(c, hw, o));
}

} // namespace perfmodel::llm
