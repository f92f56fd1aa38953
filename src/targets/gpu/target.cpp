// The GPU target (include/perfmodel/targets/gpu.hpp): the generic behaviour under its own name.
#include "perfmodel/targets/gpu.hpp"

namespace perfmodel::gpu {

namespace {

class GpuTarget final : public ExecutionTarget {
public:
  std::string_view name() const override { return "gpu"; }
};

} // namespace

const ExecutionTarget &target() {
  static const GpuTarget t;
  return t;
}

} // namespace perfmodel::gpu
