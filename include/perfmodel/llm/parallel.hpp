// A decoder-only model split over many devices: tensor (Megatron: heads, MLP columns/rows and
// the vocabulary), pipeline (layers in stages), data and expert parallelism; where each group's
// devices sit, and the sharded config one device computes (docs/parallel.md).
#pragma once

#include <cstdint>

#include "perfmodel/collectives.hpp"
#include "perfmodel/llm/config.hpp"

namespace perfmodel::llm {

struct ParallelSplit {
  int64_t tp = 1, pp = 1, dp = 1, ep = 1;
  bool sequence_parallel = false; // norms and dropouts split along the sequence over tp
  int64_t interleave = 1;         // virtual pipeline stages per device (interleaved 1F1B)
  /// Devices: tp x pp x dp (training: ep is carved out of dp, dividing it);
  /// inference: tp x pp x ep (each ep rank serves its share of the batch).
  int64_t devices(bool training) const { return tp * pp * (training ? dp : ep); }
};

/// Checks a split against the model; throws InputError naming the option: --tp not dividing
/// the attention heads, the KV heads (nor a multiple of them), the MLP width or the vocabulary
/// padded as Megatron pads it (to a multiple of 128 x tp: never); --pp x --interleave not
/// dividing the layers; --ep without experts or not dividing them, or leaving fewer experts per
/// device than experts per token; --sequence-parallel without --tp above 1.
void check_split(const LlmConfig &c, const ParallelSplit &s);

/// The config one device of a tp group computes for `layers` layers: heads, KV heads (at least
/// one: KV heads below tp are replicated), MLP width, experts (/ep) and the vocabulary (padded
/// to a multiple of 128 x tp, then / tp) divided.
LlmConfig shard_config(const LlmConfig &c, const ParallelSplit &s, int64_t layers);

/// Where a group sits when ranks are numbered tp fastest, then ep / dp, then pp (Megatron's
/// order) on nodes of `node` devices: the group of `size` ranks `stride` apart.
Group group_at(int64_t size, int64_t stride, int64_t node);

} // namespace perfmodel::llm
