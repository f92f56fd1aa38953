// Hardware YAML: quantities with units, validation, located errors.
#include <doctest/doctest.h>

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
  CHECK(hw.launch_overhead_seconds == doctest::Approx(4e-6));
  CHECK(hw.clock_hz == doctest::Approx(1.5e9));
  REQUIRE(hw.compute.size() == 2);
  CHECK(hw.compute[0].flops_per_second == doctest::Approx(10e12));
  CHECK(hw.compute[0].energy_per_flop_joules == doctest::Approx(5e-12));
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
  CHECK(error_of(bad).find("needs a positive peak") != std::string::npos);
  CHECK(error_of("version: 1\nname: x\nkind: cpu\ncompute: []\nmemory: []\n")
            .find("no compute units") != std::string::npos);
  CHECK(error_of(std::string(kGood) + "extra: 1\n").find("unknown key 'extra'") !=
        std::string::npos);
}

TEST_CASE("quantities: prefixes, binary prefixes, bare numbers, errors") {
  std::string err;
  CHECK(*parse_quantity("15.7 TFLOP/s", "FLOP/s", &err) == doctest::Approx(15.7e12));
  CHECK(*parse_quantity("6 MiB", "B", &err) == 6291456.0);
  CHECK(*parse_quantity("465us", "s", &err) == doctest::Approx(465e-6));
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
