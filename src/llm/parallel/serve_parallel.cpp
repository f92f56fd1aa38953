// Serving on many devices (perfmodel/llm/parallel_serve.hpp, docs/parallel.md "Inference").
#include "perfmodel/llm/parallel_serve.hpp"

#include <algorithm>

namespace perfmodel::llm {

int64_t stage_parameters(const LlmConfig &c, const ParallelSplit &s) {
  const LlmConfig one = shard_config(c, s, 1), two = shard_config(c, s, 2);
  const int64_t p1 = parameter_count(one), per_layer = parameter_count(two) - p1;
  const int64_t ends = p1 - per_layer; // embedding, final norm, LM head
  const int64_t layers = per_layer * (c.layers / s.pp);
  if (s.pp == 1)
    return layers + ends;
  const int64_t table = one.vocab * one.hidden;
  const int64_t embed = table + (one.positions == Positions::learned
                                     ? (one.max_positions + one.position_offset) * one.hidden
                                     : 0);
  const int64_t last = ends - embed + (one.tied_embeddings ? table : 0);
  return layers + std::max(embed, last);
}

CommCost group_cost(const std::string &kind, Collective k, double bytes, const Group &g,
                    const HwSpec &hw, const CommCalibration *comm) {
  try {
    return collective_seconds(k, bytes, g, hw.interconnect, comm);
  } catch (const InputError &e) { // name the option whose group it is
    throw InputError("--" + kind + ": " + e.message());
  }
}

namespace {

CommLine line(const std::string &kind, Collective k, int64_t count, double bytes, Group g,
              const HwSpec &hw, const CommCalibration *comm) {
  CommLine l{kind, k, count, bytes, g, "", 0, false};
  const CommCost one = group_cost(kind, k, bytes, g, hw, comm);
  l.level = one.level;
  l.seconds = double(count) * one.seconds;
  l.calibrated = one.calibrated;
  return l;
}

double sum(const std::vector<CommLine> &v) {
  double t = 0;
  for (const auto &l : v)
    t += l.seconds;
  return t;
}

} // namespace

std::vector<CommLine> pass_comm(const LlmConfig &c, const HwSpec &hw, const ParallelSplit &s,
                                int64_t tokens, DType dtype, const CommCalibration *comm) {
  std::vector<CommLine> out;
  const int64_t node = hw.interconnect.node_devices();
  const double act = double(tokens) * double(c.hidden) * double(bytes_of(dtype));
  if (s.tp > 1) {
    const Group g = group_at(s.tp, 1, node);
    if (s.sequence_parallel) {
      out.push_back(line("tp", Collective::all_gather, 2 * c.layers, act, g, hw, comm));
      out.push_back(line("tp", Collective::reduce_scatter, 2 * c.layers, act, g, hw, comm));
    } else {
      out.push_back(line("tp", Collective::all_reduce, 2 * c.layers, act, g, hw, comm));
    }
  }
  if (s.pp > 1) // stage hand-offs; with sequence parallelism each rank sends its 1/tp share
    out.push_back(line("pp", Collective::send_recv, s.pp - 1,
                       s.sequence_parallel ? act / double(s.tp) : act,
                       group_at(2, s.tp * s.ep * s.dp, node), hw, comm));
  if (s.ep > 1) // dispatch and combine: each token's hidden state to its k experts and back
    out.push_back(line("ep", Collective::all_to_all, 2 * c.layers,
                       act * double(c.experts_per_token), group_at(s.ep, s.tp, node), hw, comm));
  return out;
}

namespace {

// The checks of serve_parallel, and the options of one device (its batch: batch / ep).
ServeOptions device_options(const LlmConfig &c, const ParallelServeOptions &o) {
  const ParallelSplit &s = o.split;
  check_split(c, s);
  if (s.dp != 1)
    throw InputError("--dp applies to --pass train; serve replicas independently");
  if (o.serve.batch % s.ep != 0)
    throw InputError("--batch " + std::to_string(o.serve.batch) + " is not divisible by --ep " +
                     std::to_string(s.ep) + " (each expert-parallel rank serves batch / ep)");
  ServeOptions local = o.serve;
  local.batch = o.serve.batch / s.ep;
  return local;
}

} // namespace

ParallelServeResult serve_parallel(const LlmConfig &c, const HwSpec &hw,
                                   const ParallelServeOptions &o) {
  const ServeOptions local = device_options(c, o);
  return serve_parallel_from(c, hw, o, serve(shard_config(c, o.split, c.layers), hw, local));
}

ParallelServeResult serve_parallel_from(const LlmConfig &c, const HwSpec &hw,
                                        const ParallelServeOptions &o, ServeResult device) {
  const ParallelSplit &s = o.split;
  const ServeOptions &so = o.serve;
  const ServeOptions local = device_options(c, o);
  ParallelServeResult r;
  r.options = o;
  r.devices = s.devices(false);
  r.device = std::move(device);

  const DType kv = so.kv_dtype.value_or(so.dtype);
  const LlmConfig stage = shard_config(c, s, c.layers / s.pp);
  r.parameters_device = stage_parameters(c, s);
  r.weight_bytes_device = r.parameters_device * bytes_of(so.dtype);
  const int64_t per_sequence =
      cached_entries(c, so.prompt + so.generate) * kv_bytes_per_token(stage, kv);
  r.kv_cache_bytes_device = local.batch * per_sequence;
  r.total_bytes_device = r.weight_bytes_device + r.kv_cache_bytes_device;
  const double cap = hw.dram().capacity_bytes;
  r.fits = double(r.total_bytes_device) <= cap;
  r.max_batch = double(r.weight_bytes_device) >= cap
                    ? 0
                    : int64_t((cap - double(r.weight_bytes_device)) / double(per_sequence)) * s.ep;

  r.prefill_comm = pass_comm(c, hw, s, local.batch * so.prompt, so.dtype, o.comm);
  r.prefill_comm_seconds = sum(r.prefill_comm);
  if (so.generate > 1) {
    r.decode_comm = pass_comm(c, hw, s, local.batch, so.dtype, o.comm);
    r.decode_comm_seconds = sum(r.decode_comm);
  }
  r.ttft = r.device.ttft + r.prefill_comm_seconds;
  r.tpot_mean = so.generate > 1 ? r.device.tpot_mean + r.decode_comm_seconds : 0;
  r.e2e = r.device.e2e + r.prefill_comm_seconds + double(so.generate - 1) * r.decode_comm_seconds;
  r.tokens_per_second_batch = double(so.batch * so.generate) / r.e2e;
  r.tokens_per_second_pipelined = r.tokens_per_second_batch * double(s.pp);
  return r;
}

} // namespace perfmodel::llm
