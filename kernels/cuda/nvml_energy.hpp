// GPU energy and power from NVML, loaded with dlopen at run time; a missing library is a status.
//
// No NVML header is needed at build time: the handful of entry points are looked up by name.
// Nothing here throws: without libnvidia-ml the object reports "NVML not available: ...".
#pragma once

#include <optional>
#include <string>

namespace perfmodel::kernels::cuda {

/// One reading; a field is empty when the device or driver does not support it.
struct EnergyReading {
  std::optional<double> energy_joules; // total since the driver was loaded (NVML: mJ)
  std::optional<double> power_watts;   // current board power draw (NVML: mW)
  std::string message;                 // why a field is missing ("" when both are present)
};

class NvmlEnergy {
public:
  /// Loads `soname` (dlopen), initializes NVML and opens the device with PCI bus id
  /// `pci_bus_id` ("0000:3B:00.0", as cudaDeviceGetPCIBusId gives it; NVML and CUDA number
  /// devices differently) or, when it is empty, NVML device `index`.
  explicit NvmlEnergy(const std::string &soname = "libnvidia-ml.so.1", unsigned index = 0,
                      const std::string &pci_bus_id = "");
  ~NvmlEnergy();
  NvmlEnergy(const NvmlEnergy &) = delete;
  NvmlEnergy &operator=(const NvmlEnergy &) = delete;

  bool available() const { return device_ != nullptr; }
  /// "NVML available" or "NVML not available: <reason>".
  const std::string &status() const { return status_; }
  /// A reading now; when !available() both fields are empty and message = status().
  EnergyReading read() const;

private:
  struct Api;
  void *lib_ = nullptr;
  Api *api_ = nullptr;
  void *device_ = nullptr; // nvmlDevice_t
  bool initialized_ = false;
  std::string status_;
};

/// Joules between two readings, or nullopt when either lacks the energy counter.
std::optional<double> energy_between(const EnergyReading &before, const EnergyReading &after);

} // namespace perfmodel::kernels::cuda
