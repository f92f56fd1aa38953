// Splitting a model over devices (perfmodel/llm/parallel.hpp, docs/parallel.md "Sharding").
#include "perfmodel/llm/parallel.hpp"

#include <algorithm>

namespace perfmodel::llm {

namespace {

std::string n(int64_t v) { return std::to_string(v); }

} // namespace

void check_split(const LlmConfig &c, const ParallelSplit &s) {
  for (auto [name, v] : {std::pair{"--tp", s.tp},
                         {"--pp", s.pp},
                         {"--dp", s.dp},
                         {"--ep", s.ep},
                         {"--interleave", s.interleave}})
    if (v < 1 || v > (int64_t(1) << 20))
      throw InputError(std::string(name) + " must be from 1 to 1048576, not " + n(v));
  if (c.heads % s.tp != 0)
    throw InputError("--tp " + n(s.tp) + " does not divide the model's " + n(c.heads) +
                     " attention heads (" + c.name + ")");
  if (c.kv_heads % s.tp != 0 && s.tp % c.kv_heads != 0)
    throw InputError("--tp " + n(s.tp) + " neither divides nor is a multiple of the model's " +
                     n(c.kv_heads) + " KV heads (" + c.name + ")");
  if (c.intermediate % s.tp != 0)
    throw InputError("--tp " + n(s.tp) + " does not divide the MLP width " + n(c.intermediate) +
                     " (" + c.name + ")");
  if (c.layers % (s.pp * s.interleave) != 0)
    throw InputError(
        (s.interleave > 1 ? "--pp x --interleave " + n(s.pp * s.interleave) : "--pp " + n(s.pp)) +
        " does not divide the model's " + n(c.layers) + " layers (" + c.name + ")");
  if (s.interleave > 1 && s.pp == 1)
    throw InputError("--interleave needs --pp above 1");
  if (s.ep > 1) {
    if (c.experts == 0)
      throw InputError("--ep " + n(s.ep) + ": " + c.name + " has no experts (a dense MLP)");
    if (c.experts % s.ep != 0)
      throw InputError("--ep " + n(s.ep) + " does not divide the model's " + n(c.experts) +
                       " experts");
    if (c.experts / s.ep < c.experts_per_token)
      throw InputError("--ep " + n(s.ep) + " leaves " + n(c.experts / s.ep) + " of the " +
                       n(c.experts) + " experts on each device, fewer than the " +
                       n(c.experts_per_token) + " each token is routed to");
  }
  if (s.sequence_parallel && s.tp == 1)
    throw InputError("--sequence-parallel splits over the tensor-parallel group: it needs --tp "
                     "above 1");
}

LlmConfig shard_config(const LlmConfig &c, const ParallelSplit &s, int64_t layers) {
  LlmConfig d = c;
  d.layers = layers;
  d.heads = c.heads / s.tp;
  d.kv_heads = std::max<int64_t>(1, c.kv_heads / s.tp);
  d.intermediate = c.intermediate / s.tp;
  const int64_t pad = 128 * s.tp; // Megatron's make-vocab-size-divisible-by 128, times tp
  d.vocab = (c.vocab + pad - 1) / pad * pad / s.tp;
  if (c.experts > 0)
    d.experts = c.experts / s.ep;
  return d;
}

Group group_at(int64_t size, int64_t stride, int64_t node) {
  if (size <= 1)
    return Group{1, 1};
  if (stride >= node)
    return Group{size, 1};
  return Group{size, std::min(size, node / stride)};
}

} // namespace perfmodel::llm
