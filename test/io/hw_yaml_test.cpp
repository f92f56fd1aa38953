// Hardware YAML: quantities with units, validation, located errors.
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "io/quantity.hpp"
#include "perfmodel/io/hw_yaml.hpp"

using namespace perfmodel;
using namespace perfmodel::io;

namespace {
const char *kGood = R"(version: 1
name: toy
kind: gpu
tdp: 250 W
static_power: 75 W
launch_overhead: 4 us
clock: 1.5 GHz
compute:
  - {unit: simt, dtype: fp32, peak: 10 TFLOP/s, energy: 5 pJ/FLOP}
  - {unit: tensor, dtype: fp16, peak: 80 TFLOP/s, matrix_only: true}
memory:
  - {name: l2, bandwidth: 3 TB/s, capacity: 6 MiB}
  - {name: dram, bandwidth: 900 GB/s, capacity: 16 GB, energy: 31.2 pJ/B}
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

TEST_CASE("a good spec parses into SI units") {
  const HwSpec hw = parse_hw_yaml(kGood, "h.yaml");
  CHECK(hw.name == "toy");
  CHECK(hw.tdp_watts == 250);
  CHECK(hw.launch_overhead_seconds == rel(4e-6));
  CHECK(hw.clock_hz == doctest::Approx(1.5e9));
  REQUIRE(hw.compute.size() == 2);
  CHECK(hw.compute[0].flops_per_second == doctest::Approx(10e12));
  CHECK(hw.compute[0].energy_per_flop_joules == rel(5e-12));
  CHECK(hw.compute[1].matrix_only);
  CHECK(hw.memory[0].capacity_bytes == 6 * 1048576.0);
  CHECK(hw.dram().bytes_per_second == doctest::Approx(900e9));
  CHECK(hw.best_unit(DType::fp16, true)->unit == "tensor");
  CHECK(hw.best_unit(DType::fp16, false)->unit == "simt");
}

TEST_CASE("bad specs fail with a located error") {
  std::string bad = kGood;
  bad.replace(bad.find("10 TFLOP/s"), 10, "10 TB/s");
  CHECK(error_of(bad).find("h.yaml:9:37: error: expected unit FLOP/s") == 0);
  bad = kGood;
  bad.replace(bad.find("kind: gpu"), 9, "kind: tpu");
  CHECK(error_of(bad).find("h.yaml:3:7: error: kind must be gpu or cpu") == 0);
  bad = kGood;
  bad.replace(bad.find("dtype: fp32"), 11, "dtype: fp33");
  CHECK(error_of(bad).find("unknown dtype 'fp33'") != std::string::npos);
  bad = kGood;
  bad.replace(bad.find("peak: 10 TFLOP/s"), 16, "peak: -1 TFLOP/s");
  CHECK(error_of(bad) ==
        "h.yaml:9:37: error: peak must be from 1 to 1e+21 FLOP/s, not '-1 TFLOP/s'");
  // an empty list is an error at the list
  CHECK(error_of("version: 1\nname: x\nkind: cpu\ncompute: []\nmemory: []\n") ==
        "h.yaml:4:10: error: 'compute' lists no units");
  CHECK(error_of("version: 1\nname: x\nkind: cpu\ncompute: [{unit: v, dtype: fp32, peak: 1 "
                 "GFLOP/s}]\nmemory: []\n") == "h.yaml:5:9: error: 'memory' lists no levels");
  CHECK(error_of(std::string(kGood) + "extra: 1\n").find("unknown key 'extra'") !=
        std::string::npos);
}

TEST_CASE("quantities: prefixes, binary prefixes, bare numbers, errors") {
  std::string err;
  CHECK(*parse_quantity("15.7 TFLOP/s", "FLOP/s", &err) == doctest::Approx(15.7e12));
  CHECK(*parse_quantity("6 MiB", "B", &err) == 6291456.0);
  CHECK(*parse_quantity("465us", "s", &err) == rel(465e-6));
  CHECK(*parse_quantity("42", "W", &err) == 42.0);
  CHECK_FALSE(parse_quantity("5 xW", "W", &err));
  CHECK(err.find("unknown unit prefix 'x'") != std::string::npos);
  CHECK_FALSE(parse_quantity("fast", "W", &err));
}

TEST_CASE("a CPU spec names the CPU it was measured on; a GPU spec cannot") {
  std::string cpu = kGood;
  cpu.replace(cpu.find("kind: gpu"), 9,
              "kind: cpu\ncpu_id: {vendor: AuthenticAMD, family: 25, model: 1}");
  const HwSpec hw = parse_hw_yaml(cpu, "h.yaml");
  REQUIRE(hw.cpu_id.has_value());
  CHECK(*hw.cpu_id == CpuId{"AuthenticAMD", 25, 1});
  CHECK_FALSE(parse_hw_yaml(kGood, "h.yaml").cpu_id.has_value());
  std::string gpu = kGood;
  gpu.replace(gpu.find("kind: gpu"), 9,
              "kind: gpu\ncpu_id: {vendor: AuthenticAMD, family: 25, model: 1}");
  CHECK(error_of(gpu).find("h.yaml:4:9: error: cpu_id is for CPU specs (kind: cpu)") == 0);
  std::string partial = cpu;
  partial.replace(partial.find(", model: 1"), 10, "");
  CHECK(error_of(partial).find("h.yaml:4:9: error: cpu_id needs 'model'") == 0);
  std::string extra = cpu;
  extra.replace(extra.find("model: 1"), 8, "model: 1, stepping: 1");
  CHECK(error_of(extra).find("unknown key 'stepping'") != std::string::npos);
}

TEST_CASE("every hardware figure is held to its range, with the field's location") {
  // Each: the text replaced in kGood, its replacement, and the expected message.
  struct Case {
    const char *from, *to, *error;
  };
  const Case cases[] = {
      // Positive but denormal: before, 1e-320 GB/s printed "infs" and "-nan%" with exit 0.
      {"bandwidth: 900 GB/s", "bandwidth: 1e-320 GB/s",
       "h.yaml:13:29: error: bandwidth must be from 1 to 1e+21 B/s, not '1e-320 GB/s'"},
      {"peak: 10 TFLOP/s", "peak: 4.9e-324",
       "h.yaml:9:37: error: peak must be from 1 to 1e+21 FLOP/s, not '4.9e-324'"},
      {"peak: 10 TFLOP/s", "peak: 1e300",
       "h.yaml:9:37: error: peak must be from 1 to 1e+21 FLOP/s, not '1e300'"},
      {"energy: 5 pJ/FLOP", "energy: -5 pJ/FLOP",
       "h.yaml:9:57: error: energy must be from 0 to 0.001 J/FLOP, not '-5 pJ/FLOP'"},
      {"energy: 31.2 pJ/B", "energy: -31.2 pJ/B",
       "h.yaml:13:64: error: energy must be from 0 to 0.001 J/B, not '-31.2 pJ/B'"},
      {"capacity: 16 GB", "capacity: 0 GB",
       "h.yaml:13:49: error: capacity must be from 1 to 1e+21 B, not '0 GB'"},
      {"capacity: 6 MiB", "capacity: -6 MiB",
       "h.yaml:12:45: error: capacity must be from 1 to 1e+21 B, not '-6 MiB'"},
      {"clock: 1.5 GHz", "clock: 0 GHz",
       "h.yaml:7:8: error: clock must be from 1000 to 1e+12 Hz, not '0 GHz'"},
      {"clock: 1.5 GHz", "clock: -1.5 GHz",
       "h.yaml:7:8: error: clock must be from 1000 to 1e+12 Hz, not '-1.5 GHz'"},
      {"tdp: 250 W", "tdp: 0 W", "h.yaml:4:6: error: tdp must be from 0.001 to 1e+07 W, not '0 W'"},
      {"static_power: 75 W", "static_power: 300 W",
       "h.yaml:5:15: error: static_power (300 W) must not exceed the tdp (250 W)"},
      {"static_power: 75 W", "static_power: -1 W",
       "h.yaml:5:15: error: static_power must be from 0 to 1e+07 W, not '-1 W'"},
      {"launch_overhead: 4 us", "launch_overhead: -4 us",
       "h.yaml:6:18: error: launch_overhead must be from 0 to 1 s, not '-4 us'"},
      {"clock: 1.5 GHz", "units: 0",
       "h.yaml:7:8: error: units must be from 1 to 10000000, not '0'"},
      {"clock: 1.5 GHz", "units: -80", "h.yaml:7:8: error: units must be from 1 to 10000000, not '-80'"},
      {"clock: 1.5 GHz", "units: 4294967377",
       "h.yaml:7:8: error: units must be from 1 to 10000000, not '4294967377'"},
  };
  for (const Case &c : cases) {
    std::string bad = kGood;
    bad.replace(bad.find(c.from), std::string(c.from).size(), c.to);
    CAPTURE(c.to);
    CHECK(error_of(bad) == c.error);
  }
  // The ends of the ranges are accepted; static power may equal the TDP.
  std::string edge = kGood;
  edge.replace(edge.find("static_power: 75 W"), 18, "static_power: 250 W");
  edge.replace(edge.find("peak: 10 TFLOP/s"), 16, "peak: 1");
  edge.replace(edge.find("bandwidth: 900 GB/s"), 19, "bandwidth: 1e21");
  CHECK(error_of(edge) == "");
}

TEST_CASE("is_valid holds a spec built in code to the same ranges") {
  HwSpec hw = parse_hw_yaml(kGood, "h.yaml");
  std::string err;
  CHECK(is_valid(hw, &err));
  HwSpec bad = hw;
  bad.memory.back().bytes_per_second = 1e-320;
  CHECK_FALSE(is_valid(bad, &err));
  CHECK(err == "memory level dram needs a bandwidth from 1 to 1e+21 B/s");
  bad = hw;
  bad.static_watts = 300;
  CHECK_FALSE(is_valid(bad, &err));
  bad = hw;
  bad.compute[0].energy_per_flop_joules = -1e-12;
  CHECK_FALSE(is_valid(bad, &err));
  bad = hw;
  bad.memory[0].capacity_bytes = -1;
  CHECK_FALSE(is_valid(bad, &err));
  bad = hw;
  bad.units = -3;
  CHECK_FALSE(is_valid(bad, &err));
}
