// Tests of the plugin's side of the dlopen boundary (kernels/cuda/plugin_entry.cpp), called
// directly: the entry point, the build key, and exceptions returned as Status values.
#include <doctest/doctest.h>

#include <cstdlib>
#include <stdexcept>

#include "kernels/cuda/plugin_status.hpp"
#include "perfmodel/kernels/cuda/plugin.hpp"

using namespace perfmodel;
namespace cp = perfmodel::cuda_plugin;

extern "C" cp::Backend *perfmodel_cuda_plugin_v2() noexcept;

TEST_CASE("the entry point's name matches kEntryPoint and its backend has this build's key") {
  CHECK(std::string(cp::kEntryPoint) ==
        "perfmodel_cuda_plugin_v" + std::to_string(cp::kAbiVersion));
  cp::Backend *b = perfmodel_cuda_plugin_v2();
  REQUIRE(b != nullptr);
  CHECK(b == perfmodel_cuda_plugin_v2()); // one backend per process
  CHECK(std::string(b->build_key()) == cp::build_key());
  CHECK(cp::build_key().rfind("abi 2, perfmodel " PERFMODEL_VERSION ", sizes ", 0) == 0);
}

TEST_CASE("without a device the backend's calls return runtime_failure instead of throwing") {
  setenv("CUDA_VISIBLE_DEVICES", "", 1); // as device_query_test.cpp: no device, GPU or not
  cp::Backend &b = *perfmodel_cuda_plugin_v2();
  kernels::cuda::DeviceInfo d;
  const cp::Status q = b.query_device(0, d);
  CHECK(q.kind == cp::Status::Kind::runtime_failure);
  CHECK(q.message.rfind("CUDA: no usable device: ", 0) == 0);
  kernels::cuda::GpuBenchOptions o;
  size_t started = 0;
  o.progress = [&](size_t, size_t, const kernels::cuda::GpuBenchCase &) { ++started; };
  cp::MicrobenchRun run;
  const cp::Status r = b.run_microbenchmarks(o, run);
  CHECK(r.kind == cp::Status::Kind::runtime_failure);
  CHECK(r.message.rfind("CUDA: no usable device: ", 0) == 0);
  CHECK(started == 0);
  CHECK(run.results.empty());
}

TEST_CASE("status_of returns each kind of exception as a Status the binary can throw again") {
  CHECK(cp::status_of([] {}).ok());
  const cp::Status in = cp::status_of([] {
    throw InputError(SourceLoc{"plan.yaml", 3, 7}, "bad variant");
  });
  CHECK(in.kind == cp::Status::Kind::input_error);
  CHECK(in.message == "bad variant");
  CHECK(in.loc.str() == "plan.yaml:3:7");
  // Thrown again on the binary's side, it reads as the original.
  CHECK(std::string(InputError(in.loc, in.message).what()) == "plan.yaml:3:7: error: bad variant");
  const cp::Status rt = cp::status_of([] { throw RuntimeFailure("CUDA: out of memory"); });
  CHECK(rt.kind == cp::Status::Kind::runtime_failure);
  CHECK(rt.message == "CUDA: out of memory");
  const cp::Status other = cp::status_of([] { throw std::logic_error("oops"); });
  CHECK(other.kind == cp::Status::Kind::runtime_failure);
  CHECK(other.message == "CUDA backend: oops");
  const cp::Status unknown = cp::status_of([] { throw 42; });
  CHECK(unknown.kind == cp::Status::Kind::runtime_failure);
  CHECK(unknown.message == "CUDA backend: unknown exception");
}
