// The interconnects of the serving GPUs' specs (a100-80gb, h100-pcie, l40s): the shipped
// figures load and price collectives as docs/parallel.md's formulas give by hand.
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/collectives.hpp"
#include "perfmodel/io/hw_yaml.hpp"

using namespace perfmodel;

TEST_CASE("shipped interconnect: a100-80gb is a DGX A100 node (NVLink3, HDR)") {
  const HwSpec hw = io::load_hw("a100-80gb");
  REQUIRE(hw.interconnect.levels.size() == 2);
  CHECK(hw.interconnect.levels[0].name == "nvlink");
  CHECK(hw.interconnect.levels[0].devices == 8);
  CHECK(hw.interconnect.levels[0].bytes_per_second == rel(300e9));
  CHECK(hw.interconnect.levels[1].bytes_per_second == rel(25e9));
  // 1 GB ring all-reduce over the node's 8 GPUs: 14 steps of 1 us + 7/4 GB at 300 GB/s
  const CommCost c = collective_seconds(Collective::all_reduce, 1e9, {8, 8}, hw.interconnect,
                                        nullptr, Algorithm::ring);
  CHECK(c.level == "nvlink");
  CHECK(c.seconds == rel(14e-6 + 1.75e9 / 300e9));
}

TEST_CASE("shipped interconnect: h100-pcie pairs over an NVLink bridge, then PCIe Gen5") {
  const HwSpec hw = io::load_hw("h100-pcie");
  const Interconnect &ic = hw.interconnect;
  REQUIRE(ic.levels.size() == 3);
  CHECK(ic.levels[0].name == "nvlink");
  CHECK(ic.levels[0].devices == 2);
  CHECK(ic.levels[0].bytes_per_second == rel(300e9)); // 600 GB/s for the pair, both ways
  CHECK(ic.levels[1].name == "pcie");
  CHECK(ic.levels[1].devices == 8);
  CHECK(ic.levels[1].bytes_per_second == rel(63e9)); // 128 GB/s both ways, less the coding
  CHECK(ic.levels[2].name == "network");
  CHECK(ic.node_devices() == 2);
  // the bridged pair: 2 steps of 1 us + 1 x 1 GB at 300 GB/s
  const CommCost pair =
      collective_seconds(Collective::all_reduce, 1e9, {2, 2}, ic, nullptr, Algorithm::ring);
  CHECK(pair.level == "nvlink");
  CHECK(pair.seconds == rel(2e-6 + 1e9 / 300e9));
  // four cards (two pairs): reduce-scatter in the pair (1 step, 1/2 GB at NVLink), all-reduce
  // of 1/2 GB between the 2 pairs over PCIe (2 steps of 2 us, 1 x 1/2 GB at 63 GB/s),
  // all-gather in the pair
  const CommCost four =
      collective_seconds(Collective::all_reduce, 1e9, {4, 2}, ic, nullptr, Algorithm::ring);
  CHECK(four.level == "pcie");
  const double in_pair = 1e-6 + 0.5e9 / 300e9;
  CHECK(four.seconds == rel(in_pair + (4e-6 + 0.5e9 / 63e9) + in_pair));
  // eight cards: the all-reduce between the 4 pairs (6 steps, 3/2 of 1/2 GB at PCIe)
  const CommCost eight =
      collective_seconds(Collective::all_reduce, 1e9, {8, 2}, ic, nullptr, Algorithm::ring);
  CHECK(eight.level == "pcie");
  CHECK(eight.seconds == rel(in_pair + (12e-6 + 0.75e9 / 63e9) + in_pair));
  // beyond a server: the network
  CHECK(collective_seconds(Collective::all_reduce, 1e9, {16, 2}, ic).level == "network");
}

TEST_CASE("shipped interconnect: l40s has no NVLink: PCIe Gen4 x16, then the network") {
  const HwSpec hw = io::load_hw("l40s");
  const Interconnect &ic = hw.interconnect;
  REQUIRE(ic.levels.size() == 2);
  CHECK(ic.levels[0].name == "pcie");
  CHECK(ic.levels[0].devices == 8);
  CHECK(ic.levels[0].bytes_per_second == rel(31.5e9)); // 64 GB/s both ways, less the coding
  CHECK(ic.levels[1].bytes_per_second == rel(12.5e9));
  const CommCost c =
      collective_seconds(Collective::all_reduce, 1e9, {8, 8}, ic, nullptr, Algorithm::ring);
  CHECK(c.level == "pcie");
  CHECK(c.seconds == rel(14 * 2e-6 + 1.75e9 / 31.5e9));
  // a pipeline hand-off between two servers
  CHECK(collective_seconds(Collective::send_recv, 1e6, {2, 1}, ic).seconds ==
        rel(5e-6 + 1e6 / 12.5e9));
}
