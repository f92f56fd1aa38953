// Tests of the no-device path: with no visible device every device call throws RuntimeFailure.
#include <doctest/doctest.h>

#include <cstdlib>

#include "perfmodel/error.hpp"
#include "perfmodel/kernels/cuda/gpu_bench.hpp"

using namespace perfmodel;
namespace kg = perfmodel::kernels::cuda;

namespace {

// Hides every device from the CUDA runtime, so these tests see "no device" on a GPU machine too
// (on this project's CI there is no driver at all). ctest runs each test case in its own process
// before the runtime initializes; device tests live in test_cuda_device.
void hide_devices() { setenv("CUDA_VISIBLE_DEVICES", "", 1); }

} // namespace

TEST_CASE("query_devices without a device throws RuntimeFailure with the CUDA reason") {
  hide_devices();
  try {
    kg::query_devices();
    FAIL("query_devices returned without a visible device");
  } catch (const RuntimeFailure &e) {
    const std::string what = e.what();
    CHECK(what.rfind("CUDA: no usable device: ", 0) == 0);
    CHECK(what.find("(cuda") != std::string::npos); // the error name, e.g. cudaErrorNoDevice
  }
  // A second call (the runtime's error state) fails the same way instead of crashing.
  CHECK_THROWS_AS(kg::query_device(0), RuntimeFailure);
}

TEST_CASE("running benchmarks without a device throws RuntimeFailure, before any case runs") {
  hide_devices();
  kg::GpuBenchOptions o;
  o.quick = true;
  size_t started = 0;
  o.progress = [&](size_t, size_t, const kg::GpuBenchCase &) { ++started; };
  CHECK_THROWS_AS(kg::run_gpu_microbenchmarks(o), RuntimeFailure);
  CHECK(started == 0);
  CHECK_THROWS_AS(kg::run_gpu_bench(kg::launch_case(), o), RuntimeFailure);
  CHECK_THROWS_AS(kg::gemm_on_device({2, 2, 2, 1}, DType::fp32, std::vector<float>(4, 1.f),
                                     std::vector<float>(4, 1.f)),
                  RuntimeFailure);
}

TEST_CASE("gemm_on_device rejects mismatched operands before touching the device") {
  CHECK_THROWS_AS(
      kg::gemm_on_device({2, 3, 4, 1}, DType::fp32, std::vector<float>(7), std::vector<float>(12)),
      InputError);
}
