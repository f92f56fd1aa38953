// Tests of the device fingerprint: cpuinfo parsing, ISA hash stability, mismatch messages.
#include <doctest/doctest.h>

#include "perfmodel/calibrate/fingerprint.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;

TEST_CASE("cpuinfo gives the model name and a hash of the sorted flags") {
  const std::string info =
      "processor\t: 0\nmodel name\t: AMD EPYC 9B45\nflags\t\t: fma avx2 sse\n\n"
      "processor\t: 1\nmodel name\t: other\nflags\t\t: x\n";
  const DeviceFingerprint f = cpu_fingerprint_from(info, 2);
  CHECK(f.kind == "cpu");
  CHECK(f.name == "AMD EPYC 9B45");
  CHECK(f.cores == 2);
  CHECK(f.isa_hash == isa_hash("sse avx2 fma"));
  CHECK(f.isa_hash != isa_hash("sse avx2"));
  CHECK(f.isa_hash.rfind("fnv1a:", 0) == 0);
  CHECK(f.isa_hash.size() == 6 + 16);
  CHECK(cpu_fingerprint_from("", 1).name == "unknown cpu");
  CHECK_FALSE(cpu_fingerprint_from(info, 2).cpu_id); // no vendor_id, cpu family, model lines
}

TEST_CASE("cpuinfo gives the CPU's vendor, family and model, which tell two EPYCs apart") {
  const std::string zen3 = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
                           "model\t\t: 1\nmodel name\t: AMD EPYC\nflags\t\t: fma avx2\n";
  const DeviceFingerprint a = cpu_fingerprint_from(zen3, 2);
  REQUIRE(a.cpu_id);
  CHECK(*a.cpu_id == CpuId{"AuthenticAMD", 25, 1});
  DeviceFingerprint b = a;
  b.cpu_id = CpuId{"AuthenticAMD", 26, 2};
  CHECK(fingerprint_mismatch(a, b) == "calibrated on AuthenticAMD family 25 model 1, this is "
                                      "AuthenticAMD family 26 model 2");
  b.cpu_id.reset(); // a calibration written before the field: compared without it
  CHECK(fingerprint_mismatch(b, a).empty());
}

TEST_CASE("mismatches are explained, matches are silent") {
  const DeviceFingerprint a{"cpu", "AMD EPYC", 2, "fnv1a:1", std::nullopt};
  DeviceFingerprint b = a;
  CHECK(fingerprint_mismatch(a, b).empty());
  b.cores = 4;
  CHECK(fingerprint_mismatch(a, b).find("2 threads") != std::string::npos);
  b = a;
  b.isa_hash = "fnv1a:2";
  CHECK(fingerprint_mismatch(a, b).find("ISA flags differ") != std::string::npos);
  b = a;
  b.name = "Intel";
  CHECK_FALSE(fingerprint_mismatch(a, b).empty());
  CHECK(utc_now_iso8601().size() == 20);
}

TEST_CASE("only a calibration taken from microbenchmarks fingerprints a machine") {
  const DeviceFingerprint here{"cpu", "AMD EPYC", 2, "fnv1a:1", std::nullopt};
  CHECK(host_mismatch({"cpu", "zen3-2c", 2, "", std::nullopt}, here).empty()); // fitted from files
  CHECK(host_mismatch({"cpu", "AMD EPYC", 2, "fnv1a:1", std::nullopt}, here).empty());
  CHECK(host_mismatch({"cpu", "AMD EPYC", 2, "fnv1a:2", std::nullopt}, here) ==
        "the ISA flags differ (fnv1a:2 vs fnv1a:1)");
  CHECK(host_mismatch({"cpu", "AMD EPYC", 1, "fnv1a:1", std::nullopt}, here) ==
        "calibrated with 1 threads, running with 2");
  CHECK(host_mismatch({"gpu", "A100", 108, "", std::nullopt}, here) ==
        "calibrated on a gpu, running on a cpu");
}
