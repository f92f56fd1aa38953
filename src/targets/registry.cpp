// The execution targets by name and hardware kind (include/perfmodel/targets/registry.hpp).
#include "perfmodel/targets/registry.hpp"

#include "perfmodel/targets/cpu_eigen.hpp"
#include "perfmodel/targets/gpu.hpp"

namespace perfmodel::targets {

const std::vector<const ExecutionTarget *> &all() {
  static const std::vector<const ExecutionTarget *> t = {&generic_target(), &cpu_eigen::target(),
                                                         &gpu::target()};
  return t;
}

const ExecutionTarget *find(std::string_view name) {
  for (const ExecutionTarget *t : all())
    if (t->name() == name)
      return t;
  return nullptr;
}

const ExecutionTarget &for_hardware_kind(std::string_view kind) {
  if (kind == "cpu")
    return cpu_eigen::target();
  if (kind == "gpu")
    return gpu::target();
  return generic_target();
}

std::string names() {
  std::string s;
  for (const ExecutionTarget *t : all())
    s += (s.empty() ? "" : ", ") + std::string(t->name());
  return s;
}

} // namespace perfmodel::targets
