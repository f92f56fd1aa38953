// Tests of the NVML loader without NVML: a missing library is a status, never a crash.
#include <doctest/doctest.h>

#include "kernels/cuda/nvml_energy.hpp"

namespace kg = perfmodel::kernels::cuda;

TEST_CASE("a nonexistent soname gives 'NVML not available' and empty readings") {
  kg::NvmlEnergy nvml("libperfmodel-no-such-nvml.so.1");
  CHECK_FALSE(nvml.available());
  CHECK(nvml.status().rfind("NVML not available: cannot load 'libperfmodel-no-such-nvml.so.1'",
                            0) == 0);
  const auto r = nvml.read();
  CHECK_FALSE(r.energy_joules);
  CHECK_FALSE(r.power_watts);
  CHECK(r.message == nvml.status());
}

TEST_CASE("a library without the NVML entry points is not NVML") {
  kg::NvmlEnergy nvml("libz.so.1"); // loads, but has no nvmlInit_v2
  CHECK_FALSE(nvml.available());
  CHECK(nvml.status().find("NVML not available") == 0);
  CHECK(nvml.status().find("libz.so.1") != std::string::npos);
}

TEST_CASE("an empty soname turns energy readings off") {
  kg::NvmlEnergy nvml("");
  CHECK_FALSE(nvml.available());
  CHECK(nvml.status().find("NVML not available") == 0);
}

TEST_CASE("energy between two readings needs both counters") {
  kg::EnergyReading a, b;
  CHECK_FALSE(kg::energy_between(a, b));
  a.energy_joules = 100.0;
  CHECK_FALSE(kg::energy_between(a, b));
  b.energy_joules = 112.5;
  REQUIRE(kg::energy_between(a, b));
  CHECK(*kg::energy_between(a, b) == doctest::Approx(12.5));
}
