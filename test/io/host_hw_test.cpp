// This CPU's id from /proc/cpuinfo text, the shipped spec measured on a CPU, mismatches.
#include <doctest/doctest.h>

#include "perfmodel/io/host_hw.hpp"
#include "perfmodel/io/hw_yaml.hpp"

using namespace perfmodel;
using namespace perfmodel::io;

namespace {
std::string error_of(const std::optional<CpuId> &id) {
  try {
    hw_for_cpu(id);
  } catch (const InputError &e) {
    return e.message();
  }
  return "";
}
} // namespace

TEST_CASE("the CPU's id is the first processor's vendor_id, cpu family and model") {
  const std::string info =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n"
      "model name\t: AMD EPYC\n\nprocessor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
      "model\t\t: 85\n";
  const auto id = parse_cpu_id(info);
  REQUIRE(id.has_value());
  CHECK(*id == CpuId{"AuthenticAMD", 25, 1});
  CHECK(describe(*id) == "AuthenticAMD family 25 model 1");
  // "model name" is not "model"; a missing or non-numeric field gives no id
  CHECK_FALSE(parse_cpu_id("vendor_id : AuthenticAMD\ncpu family : 25\nmodel name : x\n"));
  CHECK_FALSE(parse_cpu_id("vendor_id : AuthenticAMD\ncpu family : 25\nmodel : 1a\n"));
  CHECK_FALSE(parse_cpu_id(""));
}

TEST_CASE("the shipped CPU specs are found by the id of the CPU they were measured on") {
  CHECK(hw_for_cpu(CpuId{"AuthenticAMD", 25, 1}) == "zen3-2c");
  CHECK(hw_for_cpu(CpuId{"AuthenticAMD", 26, 2}) == "zen5-2c");
  CHECK(hw_for_cpu(CpuId{"GenuineIntel", 6, 207}) == "xeon-emr-2c");
  CHECK(error_of(CpuId{"GenuineIntel", 6, 85}) ==
        "no hardware spec in hw_specs/ has the cpu_id of this CPU "
        "(GenuineIntel family 6 model 85): pass --hw (perfmodel list hw), or write one measured "
        "here (docs/hardware.md, \"CPU specs\")");
  CHECK(error_of(std::nullopt).find("cannot read this CPU's vendor_id") != std::string::npos);
}

TEST_CASE("--hw names the spec; without it, the spec of the CPU given is loaded") {
  CHECK(load_hw_or_for_cpu("zen5-2c", CpuId{"GenuineIntel", 6, 207}).name == "zen5-2c");
  CHECK(load_hw_or_for_cpu("", CpuId{"GenuineIntel", 6, 207}).name == "xeon-emr-2c");
  CHECK_THROWS_AS(load_hw_or_for_cpu("", std::nullopt), InputError);
}

TEST_CASE("a spec measured on another CPU is named as such; one without an id never is") {
  const HwSpec zen3 = load_hw("zen3-2c");
  CHECK(cpu_mismatch(zen3, CpuId{"AuthenticAMD", 25, 1}).empty());
  CHECK(cpu_mismatch(zen3, CpuId{"AuthenticAMD", 26, 2}) ==
        "hardware spec zen3-2c was measured on AuthenticAMD family 25 model 1, this CPU is "
        "AuthenticAMD family 26 model 2");
  CHECK(cpu_mismatch(zen3, std::nullopt).empty());
  CHECK(cpu_mismatch(load_hw("v100"), CpuId{"AuthenticAMD", 26, 2}).empty());
}
