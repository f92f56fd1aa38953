// Internal: a measurement's energy next to the prediction's (measure_view's energy line and
// JSON object).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "perfmodel/report/measure_view.hpp"

namespace perfmodel::report {

/// The comparison of run.energy with p's component-model energy per pass; nullopt without a
/// measured energy or passes.
std::optional<EnergyComparison> compare_energy(const Prediction &p, const MeasurementRun &run);

/// "energy: measured 1.23J per pass (...), predicted ..., error -10.6%\n", or "energy: not
/// measured (why)\n", or "" when the run says nothing of energy.
std::string energy_line(const MeasurementView &v);

/// The "energy" object of the JSON output: the comparison's fields, or {"measured": null,
/// "why": ...}.
nlohmann::ordered_json energy_json(const MeasurementView &v);

} // namespace perfmodel::report
