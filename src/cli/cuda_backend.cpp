// Finding and loading the CUDA plugin (cuda_backend.hpp).
#include "cli/cuda_backend.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "perfmodel/error.hpp"

namespace perfmodel::cli {

namespace {

namespace fs = std::filesystem;

// What to do about a missing or unloadable plugin (the tail of every load error).
constexpr const char *kHowToGet =
    "the CUDA backend is built with perfmodel when a CUDA toolkit is found "
    "(-DPERFMODEL_WITH_CUDA=ON); PERFMODEL_CUDA_PLUGIN names it when it lies elsewhere";

// The running executable's folder ("" when /proc/self/exe cannot be read).
fs::path executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

// dlerror's text on one line.
std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

cuda_plugin::Backend &load_backend() {
  const std::vector<std::string> candidates = cuda_plugin_candidates();
  std::string path;
  for (const std::string &c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) {
      path = c;
      break;
    }
  }
  if (path.empty()) {
    std::string where;
    for (const std::string &c : candidates)
      where += (where.empty() ? "" : ", ") + c;
    throw RuntimeFailure(std::string("--device cuda: the CUDA backend ") + cuda_plugin::kFileName +
                         " was not found (looked for " + where + "); " + kHowToGet);
  }
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    throw RuntimeFailure("--device cuda: cannot load the CUDA backend " + path + ": " +
                         one_line(why ? why : "unknown dlopen error") +
                         " (it needs the CUDA runtime, cuBLAS and cuDNN libraries: install them "
                         "or add their folder to LD_LIBRARY_PATH)");
  }
  // dlsym returns an object pointer; POSIX guarantees it converts to a function pointer.
  const auto entry =
      reinterpret_cast<cuda_plugin::EntryPoint>(dlsym(lib, cuda_plugin::kEntryPoint));
  if (!entry)
    throw RuntimeFailure("--device cuda: " + path + " is not a perfmodel CUDA backend (no " +
                         cuda_plugin::kEntryPoint + "); " + kHowToGet);
  cuda_plugin::Backend *backend = entry();
  if (!backend)
    throw RuntimeFailure("--device cuda: the CUDA backend " + path + " failed to start");
  const std::string theirs = backend->build_key(), ours = cuda_plugin::build_key();
  if (theirs != ours)
    throw RuntimeFailure("--device cuda: the CUDA backend " + path +
                         " was built for another "
                         "perfmodel (" +
                         theirs + "; this binary: " + ours +
                         "): rebuild or reinstall both together");
  return *backend;
}

// A plugin call's failure as the exception the CUDA code threw.
void rethrow(const cuda_plugin::Status &s) {
  switch (s.kind) {
  case cuda_plugin::Status::Kind::ok:
    return;
  case cuda_plugin::Status::Kind::input_error:
    throw InputError(s.loc, s.message);
  case cuda_plugin::Status::Kind::runtime_failure:
    throw RuntimeFailure(s.message);
  }
  throw RuntimeFailure(s.message);
}

} // namespace

std::vector<std::string> cuda_plugin_candidates() {
  if (const char *env = std::getenv(cuda_plugin::kPathVariable); env && *env) {
    std::error_code ec;
    return {fs::is_directory(env, ec) ? (fs::path(env) / cuda_plugin::kFileName).string()
                                      : std::string(env)};
  }
  std::vector<std::string> out;
  if (const fs::path dir = executable_dir(); !dir.empty()) {
    out.push_back((dir / cuda_plugin::kFileName).string());
    out.push_back((dir / ".." / PERFMODEL_INSTALL_LIBDIR / "perfmodel" / cuda_plugin::kFileName)
                      .lexically_normal()
                      .string());
  }
  const std::string installed =
      (fs::path(PERFMODEL_INSTALL_FULL_LIBDIR) / "perfmodel" / cuda_plugin::kFileName).string();
  if (std::find(out.begin(), out.end(), installed) == out.end())
    out.push_back(installed);
  return out;
}

cuda_plugin::Backend &cuda_backend() {
  // Loaded once; a failure is thrown again on every call (a command asks once).
  static cuda_plugin::Backend *backend = &load_backend();
  return *backend;
}

kernels::cuda::DeviceInfo cuda_query_device(int index) {
  kernels::cuda::DeviceInfo d;
  rethrow(cuda_backend().query_device(index, d));
  return d;
}

cuda_plugin::MicrobenchRun cuda_run_microbenchmarks(const kernels::cuda::GpuBenchOptions &opts) {
  cuda_plugin::MicrobenchRun run;
  rethrow(cuda_backend().run_microbenchmarks(opts, run));
  return run;
}

kernels::cuda::GpuModelMeasurement cuda_measure_model(const kernels::gpu_plan::ModelPlan &plan,
                                                      const kernels::cuda::GpuMeasureOptions &opts) {
  kernels::cuda::GpuModelMeasurement m;
  rethrow(cuda_backend().measure_model(plan, opts, m));
  return m;
}

} // namespace perfmodel::cli
