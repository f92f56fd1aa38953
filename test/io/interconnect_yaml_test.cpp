// The hardware YAML's interconnect section: shipped values, version-1 files without it, errors.
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/io/hw_yaml.hpp"

using namespace perfmodel;
using namespace perfmodel::io;

namespace {
const char *kBase = R"(version: 1
name: toy
kind: gpu
compute:
  - {unit: simt, dtype: fp32, peak: 10 TFLOP/s}
memory:
  - {name: dram, bandwidth: 900 GB/s, capacity: 16 GB}
)";
std::string error_of(const std::string &text) {
  try {
    parse_hw_yaml(text, "h.yaml");
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST_CASE("interconnect yaml: optional; a version-1 spec without it reads as before") {
  CHECK(parse_hw_yaml(kBase, "h.yaml").interconnect.empty());
  const HwSpec hw = parse_hw_yaml(std::string(kBase) + R"(interconnect:
  - {name: nvlink, devices: 8, bandwidth: 300 GB/s, latency: 1 us}
  - {name: network, bandwidth: 25 GB/s, latency: 5 us}
)",
                                  "h.yaml");
  REQUIRE(hw.interconnect.levels.size() == 2);
  CHECK(hw.interconnect.levels[0].bytes_per_second == rel(300e9));
  CHECK(hw.interconnect.levels[0].latency_seconds == rel(1e-6));
  CHECK(hw.interconnect.levels[1].devices == 0);
  CHECK(hw.interconnect.node_devices() == 8);
  CHECK(hw.interconnect.level_for(8)->name == "nvlink");
  CHECK(hw.interconnect.level_for(9)->name == "network");
}

TEST_CASE("interconnect yaml: the shipped DGX figures") {
  const HwSpec a100 = load_hw("a100"), h100 = load_hw("h100"), h200 = load_hw("h200");
  CHECK(a100.interconnect.levels.at(0).bytes_per_second == rel(300e9)); // NVLink3
  CHECK(a100.interconnect.levels.at(1).bytes_per_second == rel(25e9));  // HDR 200 Gb/s
  CHECK(h100.interconnect.levels.at(0).bytes_per_second == rel(450e9)); // NVLink4
  CHECK(h100.interconnect.levels.at(1).bytes_per_second == rel(50e9));  // NDR 400 Gb/s
  CHECK(h200.interconnect.levels.at(0).devices == 8);
  CHECK(load_hw("v100").interconnect.levels.at(0).bytes_per_second == rel(150e9));
  CHECK(load_hw("t4").interconnect.levels.at(0).name == "pcie");
}

TEST_CASE("interconnect yaml: errors are located") {
  const std::string b(kBase);
  CHECK(error_of(b + "interconnect: {name: x}\n") ==
        "h.yaml:8:15: error: 'interconnect' must be a list of levels, innermost first");
  CHECK(error_of(b + "interconnect:\n  - {name: nvlink, bandwidth: 300 GB/s}\n  - {name: net, "
                     "bandwidth: 25 GB/s}\n") ==
        "h.yaml:9:5: error: interconnect level 'nvlink' needs 'devices': only the outermost "
        "level may leave it out (any number of nodes)");
  CHECK(error_of(b + "interconnect:\n  - {name: nvlink, devices: 8, bandwidth: 300 GB/s}\n  - "
                     "{name: net, devices: 12, bandwidth: 25 GB/s}\n") ==
        "h.yaml:10:26: error: devices must be a multiple of the level inside it (8) up to "
        "16777216, not '12'");
  CHECK(error_of(b + "interconnect:\n  - {name: nvlink, devices: 8, bandwidth: 0 GB/s}\n")
            .find("h.yaml:9:43: error: bandwidth must be") == 0);
  CHECK(error_of(b + "interconnect:\n  - {name: nvlink, devices: 8, bw: 1 GB/s}\n")
            .find("h.yaml:9") == 0);
  CHECK(error_of(b + "interconnect:\n  - {name: nvlink, devices: 8}\n").find("needs 'bandwidth'") !=
        std::string::npos);
}
