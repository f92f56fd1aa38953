// The generic execution target and the defaults every target starts from
// (include/perfmodel/target.hpp).
#include "perfmodel/target.hpp"

#include <cmath>

#include "perfmodel/calibration.hpp"

namespace perfmodel {

const std::vector<TargetTerm> &ExecutionTarget::terms() const {
  static const std::vector<TargetTerm> none;
  return none;
}

size_t ExecutionTarget::term_index(std::string_view key) const {
  const std::vector<TargetTerm> &t = terms();
  for (size_t j = 0; j < t.size(); ++j)
    if (t[j].key == key)
      return j;
  return std::string_view::npos;
}

GraphSchedule ExecutionTarget::schedule(const Graph &g, const std::vector<LayerCost> &costs,
                                        const Calibration &) const {
  GraphSchedule s;
  const std::vector<double> reuse = input_reuse_bytes(g, costs);
  s.layers.resize(g.layers.size());
  for (size_t i = 0; i < s.layers.size(); ++i)
    s.layers[i].reuse_bytes = reuse[i];
  return s;
}

KernelFeatures ExecutionTarget::one_call(const Calibration &, const KernelFeatures &f,
                                         double *calls) const {
  *calls = 1;
  return f;
}

double padded_extent(double extent, double tile) {
  if (!(tile > 1) || !(extent > 0))
    return extent;
  return std::ceil(extent / tile) * tile;
}

double ExecutionTarget::tiled_extent(OpClass, double extent, double tile) const {
  return padded_extent(extent, tile);
}

bool ExecutionTarget::tile_call(const Calibration &, const KernelFeatures &,
                                const EfficiencyParams *, EfficiencyTerms *) const {
  return false;
}

double ExecutionTarget::plane_of(const Calibration &, const KernelFeatures &f) const {
  return f.op_class == OpClass::pool ? f.plane_elements : 0.0;
}

void ExecutionTarget::term_bytes(const Calibration &, const KernelFeatures &,
                                 const EfficiencyTerms &, double *) const {}

double ExecutionTarget::unfitted_term_rate(const Calibration &, const KernelFeatures &,
                                           size_t) const {
  return 0.0;
}

std::vector<TermFitRule> ExecutionTarget::fit_rules(const TermFitInputs &) const {
  return std::vector<TermFitRule>(terms().size());
}

namespace {

class GenericTarget final : public ExecutionTarget {
public:
  std::string_view name() const override { return "generic"; }
};

} // namespace

const ExecutionTarget &generic_target() {
  static const GenericTarget target;
  return target;
}

} // namespace perfmodel
