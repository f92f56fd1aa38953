// Fit samples for `perfmodel calibrate --from-trace`: the attainment view's modelled operators,
// one sample per operator signature (median device time of its calls).
#pragma once

#include <string>
#include <vector>

#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/trace/attainment.hpp"

namespace perfmodel::calibrate {

/// One Sample per attainment row that is a single kernel pass (fwd, bwd_data or
/// bwd_weight; a "bwd" row counts when its weight part is empty, as for batch norm), with the
/// median of its calls' device time. Rows whose time covers both backward parts are skipped:
/// their time cannot be split. `file` names the trace in each sample's source.
std::vector<Sample> samples_from_attainment(const trace::AttainmentView &v,
                                            const std::string &file);

} // namespace perfmodel::calibrate
