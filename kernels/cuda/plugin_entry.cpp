// The CUDA plugin's entry point (kernels/cuda/plugin.hpp): the Backend over this
// folder's functions, with every exception turned into a Status before it reaches the binary.
#include <exception>
#include <new>

#include "kernels/cuda/plugin_status.hpp"
#include "perfmodel/kernels/cuda/plugin.hpp"

namespace perfmodel::cuda_plugin {

Status status_of(const std::function<void()> &f) noexcept {
  try {
    f();
    return {};
  } catch (const InputError &e) {
    return {Status::Kind::input_error, e.message(), e.loc()};
  } catch (const RuntimeFailure &e) {
    return {Status::Kind::runtime_failure, e.what(), {}};
  } catch (const std::exception &e) {
    return {Status::Kind::runtime_failure, std::string("CUDA backend: ") + e.what(), {}};
  } catch (...) {
    return {Status::Kind::runtime_failure, "CUDA backend: unknown exception", {}};
  }
}

namespace {

namespace kg = kernels::cuda;

class CudaBackend final : public Backend {
public:
  CudaBackend() : key_(cuda_plugin::build_key()) {}
  const char *build_key() const noexcept override { return key_.c_str(); }

  Status query_device(int index, kg::DeviceInfo &out) noexcept override {
    return status_of([&] { out = kg::query_device(index); });
  }

  Status run_microbenchmarks(const kg::GpuBenchOptions &opts,
                             MicrobenchRun &out) noexcept override {
    return status_of([&] {
      MicrobenchRun run;
      run.device = kg::query_device(opts.device);
      run.results = kg::run_gpu_microbenchmarks(opts);
      run.measured = kg::as_bench_results(run.results);
      out = std::move(run);
    });
  }

  Status measure_model(const kernels::gpu_plan::ModelPlan &plan, const kg::GpuMeasureOptions &opts,
                       kg::GpuModelMeasurement &out) noexcept override {
    return status_of([&] { out = kg::measure_model_on_device(plan, opts); });
  }

private:
  std::string key_;
};

} // namespace
} // namespace perfmodel::cuda_plugin

/// The one symbol the binary looks up (cuda_plugin::kEntryPoint). Returns nullptr only when
/// the backend cannot even be allocated.
extern "C" __attribute__((visibility("default"))) perfmodel::cuda_plugin::Backend *
perfmodel_cuda_plugin_v2() noexcept {
  try {
    static perfmodel::cuda_plugin::CudaBackend backend;
    return &backend;
  } catch (...) {
    return nullptr;
  }
}
