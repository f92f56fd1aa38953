// NVML through dlopen: nvmlInit_v2, device handle, total energy (mJ) and power (mW) readings.
#include "kernels/cuda/nvml_energy.hpp"

#include <dlfcn.h>

namespace perfmodel::kernels::cuda {

namespace {

// The NVML ABI we rely on: nvmlReturn_t is an int enum (0 = success), nvmlDevice_t a pointer.
using nvml_ret = int;
using nvml_device = void *;
constexpr nvml_ret kNvmlSuccess = 0;

} // namespace

struct NvmlEnergy::Api {
  nvml_ret (*init)() = nullptr;
  nvml_ret (*shutdown)() = nullptr;
  nvml_ret (*by_index)(unsigned, nvml_device *) = nullptr;
  nvml_ret (*by_pci)(const char *, nvml_device *) = nullptr;
  nvml_ret (*energy_mj)(nvml_device, unsigned long long *) = nullptr;
  nvml_ret (*power_mw)(nvml_device, unsigned *) = nullptr;
  const char *(*error_string)(nvml_ret) = nullptr;

  std::string error(const char *call, nvml_ret r) const {
    std::string s = std::string(call) + " failed (" + std::to_string(r);
    if (error_string)
      s += ": " + std::string(error_string(r));
    return s + ")";
  }
};

namespace {

template <class F> bool bind(void *lib, F &f, const char *name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

} // namespace

NvmlEnergy::NvmlEnergy(const std::string &soname, unsigned index, const std::string &pci_bus_id) {
  const std::string na = "NVML not available: ";
  lib_ = soname.empty() ? nullptr : dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    const char *why = soname.empty() ? "no library named" : dlerror();
    status_ = na + "cannot load '" + soname + "' (" + (why ? why : "unknown error") + ")";
    return;
  }
  api_ = new Api;
  bind(lib_, api_->error_string, "nvmlErrorString");
  bind(lib_, api_->by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
  if (!bind(lib_, api_->init, "nvmlInit_v2") || !bind(lib_, api_->shutdown, "nvmlShutdown") ||
      !bind(lib_, api_->by_index, "nvmlDeviceGetHandleByIndex_v2") ||
      !bind(lib_, api_->energy_mj, "nvmlDeviceGetTotalEnergyConsumption") ||
      !bind(lib_, api_->power_mw, "nvmlDeviceGetPowerUsage")) {
    status_ = na + "'" + soname + "' lacks an NVML entry point";
    return;
  }
  if (nvml_ret r = api_->init(); r != kNvmlSuccess) {
    status_ = na + api_->error("nvmlInit_v2", r);
    return;
  }
  initialized_ = true;
  nvml_device dev = nullptr;
  nvml_ret r = !pci_bus_id.empty() && api_->by_pci ? api_->by_pci(pci_bus_id.c_str(), &dev)
                                                   : api_->by_index(index, &dev);
  if (r != kNvmlSuccess || !dev) {
    status_ = na + api_->error("device handle lookup", r);
    return;
  }
  device_ = dev;
  status_ = "NVML available";
}

NvmlEnergy::~NvmlEnergy() {
  if (initialized_ && api_ && api_->shutdown)
    api_->shutdown();
  delete api_;
  if (lib_)
    dlclose(lib_);
}

EnergyReading NvmlEnergy::read() const {
  EnergyReading out;
  if (!available()) {
    out.message = status_;
    return out;
  }
  unsigned long long mj = 0;
  if (nvml_ret r = api_->energy_mj(device_, &mj); r == kNvmlSuccess)
    out.energy_joules = double(mj) * 1e-3;
  else
    out.message = api_->error("nvmlDeviceGetTotalEnergyConsumption", r);
  unsigned mw = 0;
  if (nvml_ret r = api_->power_mw(device_, &mw); r == kNvmlSuccess)
    out.power_watts = double(mw) * 1e-3;
  else
    out.message += (out.message.empty() ? "" : "; ") + api_->error("nvmlDeviceGetPowerUsage", r);
  return out;
}

std::optional<double> energy_between(const EnergyReading &before, const EnergyReading &after) {
  if (!before.energy_joules || !after.energy_joules)
    return std::nullopt;
  return *after.energy_joules - *before.energy_joules;
}

} // namespace perfmodel::kernels::cuda
