// Collective communication time: an alpha-beta model per interconnect level and algorithm
// (ring and tree all-reduce, reduce-scatter, all-gather, all-to-all, send/recv), the level
// chosen by where the group's devices sit, optionally driven by figures fitted to nccl-tests
// output (docs/parallel.md, "Collectives").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "perfmodel/interconnect.hpp"

namespace perfmodel {

enum class Collective { all_reduce, reduce_scatter, all_gather, all_to_all, send_recv };
std::string_view to_string(Collective c);
/// "all_reduce", "allreduce", "all-reduce" (any case), also nccl-tests' binary names
/// ("all_reduce_perf", "alltoall_perf", "sendrecv_perf").
std::optional<Collective> parse_collective(std::string_view s);

enum class Algorithm { ring, tree, best }; // best: the faster of ring and tree (all-reduce)
std::string_view to_string(Algorithm a);

/// nccl-tests' bus-bandwidth factor: busbw = algbw x factor, algbw = size / time, for a group
/// of n: all-reduce 2(n-1)/n, reduce-scatter, all-gather and all-to-all (n-1)/n, send/recv 1.
double bus_factor(Collective c, int64_t n);

/// Latency terms of the ring form: all-reduce 2(n-1), reduce-scatter and all-gather n-1,
/// all-to-all and send/recv 1 (all peers at once); 0 for n = 1.
int64_t ring_steps(Collective c, int64_t n);

/// The time on one flat level: `bytes` is the size nccl-tests prints (the per-device buffer:
/// all-reduce's, reduce-scatter's input, all-gather's output, all-to-all's, the message).
/// ring: steps x alpha + factor x bytes / B; tree (all-reduce only; others run the ring):
/// 2 ceil(log2 n) x alpha + 2 x bytes / B. 0 for n = 1.
double flat_seconds(Collective c, Algorithm a, int64_t n, double bytes, double alpha, double bw);

/// Where a group sits: `size` devices, `per_node` of them in each domain of the innermost level
/// (size = per_node: all in one node; per_node 1: one per node).
struct Group {
  int64_t size = 1;
  int64_t per_node = 1;
};

/// A level's figures for one collective fitted to measured times (calibrate
/// --from-nccl-tests): they replace the level's latency and bandwidth in the ring form.
struct CollectiveFit {
  double latency_per_step_seconds = 0;
  double bus_bytes_per_second = 0;
  int64_t samples = 0;
  double rms_relative_residual = 0;
};

struct CommCalibration {
  std::string hw;    // the spec it was measured on
  std::string level; // the interconnect level it replaces ("nvlink")
  int64_t gpus = 0;  // the group size measured
  std::string source;
  std::map<Collective, CollectiveFit> fits;
};

struct CommCost {
  double seconds = 0;
  std::string level;                     // the outermost level used ("" for a group of 1)
  Algorithm algorithm = Algorithm::ring; // the one taken on the outermost level
  bool calibrated = false;               // fitted figures priced some part
};

/// One collective of `bytes` (as flat_seconds) among `g`. A group inside one domain runs flat at
/// the innermost level holding it; a group over several domains runs hierarchically: an
/// all-reduce is reduce-scatter in the node, all-reduce of bytes / per_node among the nodes,
/// all-gather in the node; reduce-scatter and all-gather are their halves; all-to-all takes the
/// slower of its in-node and off-node shares; send/recv runs at the outer level. Throws
/// InputError when no level holds the group (no network for a group beyond one node) or the
/// placement is impossible (per_node not dividing size).
CommCost collective_seconds(Collective c, double bytes, const Group &g, const Interconnect &ic,
                            const CommCalibration *cal = nullptr, Algorithm a = Algorithm::best);

} // namespace perfmodel
