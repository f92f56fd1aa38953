// Collective times against hand-computed values (docs/parallel.md, "Collectives").
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/collectives.hpp"
#include "perfmodel/error.hpp"

using namespace perfmodel;

namespace {

// DGX A100 as hw_specs/a100.yaml ships it
Interconnect dgx_a100() {
  return Interconnect{{{"nvlink", 8, 300e9, 1e-6}, {"network", 0, 25e9, 5e-6}}};
}

} // namespace

TEST_CASE("collectives: nccl-tests' bus-bandwidth factors and ring steps") {
  CHECK(bus_factor(Collective::all_reduce, 8) == rel(14.0 / 8));
  CHECK(bus_factor(Collective::reduce_scatter, 8) == rel(7.0 / 8));
  CHECK(bus_factor(Collective::all_gather, 4) == rel(3.0 / 4));
  CHECK(bus_factor(Collective::all_to_all, 2) == rel(0.5));
  CHECK(bus_factor(Collective::send_recv, 2) == 1);
  CHECK(ring_steps(Collective::all_reduce, 8) == 14);
  CHECK(ring_steps(Collective::all_gather, 8) == 7);
  CHECK(ring_steps(Collective::all_to_all, 8) == 1);
  CHECK(ring_steps(Collective::all_reduce, 1) == 0);
}

TEST_CASE("collectives: ring all-reduce moves 2(n-1)/n of the bytes and pays 2(n-1) latencies") {
  // 1 GB among 8 GPUs at 300 GB/s and 1 us: 14 us + 1.75 GB / 300 GB/s = 5.847333 ms
  CHECK(flat_seconds(Collective::all_reduce, Algorithm::ring, 8, 1e9, 1e-6, 300e9) ==
        rel(14e-6 + 1.75e9 / 300e9));
  CHECK(flat_seconds(Collective::all_reduce, Algorithm::ring, 8, 1e9, 1e-6, 300e9) ==
        rel(5.847333333e-3, 1e-9));
  // tree: 2 x ceil(log2 8) = 6 latencies + 2 x bytes / B
  CHECK(flat_seconds(Collective::all_reduce, Algorithm::tree, 8, 1e9, 1e-6, 300e9) ==
        rel(6e-6 + 2e9 / 300e9));
  // 5 GPUs: ceil(log2 5) = 3
  CHECK(flat_seconds(Collective::all_reduce, Algorithm::tree, 5, 1e3, 2e-6, 1e9) ==
        rel(12e-6 + 2e3 / 1e9));
  // best: tree for small messages (fewer latencies), ring for large ones (fewer bytes)
  CHECK(flat_seconds(Collective::all_reduce, Algorithm::best, 8, 1e3, 1e-6, 300e9) ==
        rel(6e-6 + 2e3 / 300e9));
  CHECK(flat_seconds(Collective::all_reduce, Algorithm::best, 8, 1e9, 1e-6, 300e9) ==
        rel(14e-6 + 1.75e9 / 300e9));
  CHECK(flat_seconds(Collective::all_reduce, Algorithm::ring, 1, 1e9, 1e-6, 300e9) == 0);
}

TEST_CASE("collectives: reduce-scatter, all-gather, all-to-all, send/recv on one level") {
  CHECK(flat_seconds(Collective::reduce_scatter, Algorithm::ring, 4, 4e6, 1e-6, 100e9) ==
        rel(3e-6 + 3e6 / 100e9));
  CHECK(flat_seconds(Collective::all_gather, Algorithm::tree, 4, 4e6, 1e-6, 100e9) ==
        rel(3e-6 + 3e6 / 100e9)); // no tree all-gather: the ring
  CHECK(flat_seconds(Collective::all_to_all, Algorithm::ring, 8, 8e6, 1e-6, 100e9) ==
        rel(1e-6 + 7e6 / 100e9));
  CHECK(flat_seconds(Collective::send_recv, Algorithm::ring, 2, 1e6, 5e-6, 25e9) ==
        rel(5e-6 + 1e6 / 25e9));
}

TEST_CASE("collectives: a group in one node runs at NVLink, one over nodes hierarchically") {
  const Interconnect ic = dgx_a100();
  const CommCost in_node =
      collective_seconds(Collective::all_reduce, 1e9, {8, 8}, ic, nullptr, Algorithm::ring);
  CHECK(in_node.level == "nvlink");
  CHECK(in_node.seconds == rel(14e-6 + 1.75e9 / 300e9));
  // 16 GPUs, 8 per node: reduce-scatter in the node (7 steps, 7/8 of 1 GB at 300 GB/s),
  // all-reduce of 1/8 GB between 2 nodes (2 steps of 5 us, 2 x 1/2 of 125 MB at 25 GB/s),
  // all-gather in the node
  const CommCost two_nodes =
      collective_seconds(Collective::all_reduce, 1e9, {16, 8}, ic, nullptr, Algorithm::ring);
  CHECK(two_nodes.level == "network");
  const double rs = 7e-6 + 0.875e9 / 300e9;
  CHECK(two_nodes.seconds == rel(rs + (10e-6 + 0.125e9 / 25e9) + rs));
  // one GPU per node (data parallel over 4 nodes): the network only
  const CommCost dp =
      collective_seconds(Collective::all_reduce, 1e9, {4, 1}, ic, nullptr, Algorithm::ring);
  CHECK(dp.seconds == rel(6 * 5e-6 + 1.5e9 / 25e9));
  // all-to-all over 16: 7/16 stays in the node, 8/16 leaves it; the slower share counts
  const CommCost a2a = collective_seconds(Collective::all_to_all, 16e6, {16, 8}, ic);
  CHECK(a2a.seconds == rel(std::max(1e-6 + 7e6 / 300e9, 5e-6 + 8e6 / 25e9)));
  // a pipeline hand-off between nodes
  CHECK(collective_seconds(Collective::send_recv, 1e6, {2, 1}, ic).seconds ==
        rel(5e-6 + 1e6 / 25e9));
}

TEST_CASE("collectives: a fitted level replaces the spec's figures for its collectives only") {
  const Interconnect ic = dgx_a100();
  CommCalibration cal;
  cal.level = "nvlink";
  cal.fits[Collective::all_reduce] = {3e-6, 240e9, 10, 0};
  const CommCost ar = collective_seconds(Collective::all_reduce, 1e9, {8, 8}, ic, &cal);
  CHECK(ar.calibrated);
  CHECK(ar.algorithm == Algorithm::ring);
  CHECK(ar.seconds == rel(14 * 3e-6 + 1.75e9 / 240e9));
  const CommCost ag = collective_seconds(Collective::all_gather, 1e9, {8, 8}, ic, &cal);
  CHECK_FALSE(ag.calibrated);
  CHECK(ag.seconds == rel(7e-6 + 0.875e9 / 300e9));
}

TEST_CASE("collectives: a group no level holds is an input error") {
  Interconnect node_only{{{"nvlink", 8, 300e9, 1e-6}}};
  CHECK_THROWS_WITH_AS(collective_seconds(Collective::all_reduce, 1e6, {16, 8}, node_only),
                       doctest::Contains("needs a network level"), InputError);
  CHECK_THROWS_WITH_AS(collective_seconds(Collective::all_reduce, 1e6, {2, 2}, Interconnect{}),
                       doctest::Contains("no 'interconnect' section"), InputError);
  CHECK_THROWS_AS(collective_seconds(Collective::all_reduce, 1e6, {6, 4}, node_only), InputError);
  CHECK(collective_seconds(Collective::all_reduce, 1e6, {1, 1}, Interconnect{}).seconds == 0);
}

TEST_CASE("collectives: names parse as nccl-tests and users write them") {
  CHECK(parse_collective("all_reduce_perf") == Collective::all_reduce);
  CHECK(parse_collective("AllGather") == Collective::all_gather);
  CHECK(parse_collective("alltoall") == Collective::all_to_all);
  CHECK(parse_collective("reduce-scatter") == Collective::reduce_scatter);
  CHECK(parse_collective("sendrecv_perf") == Collective::send_recv);
  CHECK_FALSE(parse_collective("broadcast"));
}
