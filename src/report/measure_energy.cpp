// A measurement's energy next to the prediction's (measure_energy.hpp).
#include "report/measure_energy.hpp"

#include "perfmodel/report/format.hpp"

namespace perfmodel::report {

std::optional<EnergyComparison> compare_energy(const Prediction &p, const MeasurementRun &run) {
  if (!run.energy || run.energy->passes <= 0 || !(run.energy->joules > 0))
    return std::nullopt;
  EnergyComparison e;
  const double batch = double(std::max<int64_t>(p.batch, 1));
  const double flops = double(p.totals.cost.flops);
  e.passes = run.energy->passes;
  e.seconds = run.energy->seconds;
  e.source = run.energy->source;
  e.measured_joules_per_pass = run.energy->joules / double(e.passes);
  e.predicted_joules_per_pass = p.totals.energy_joules;
  e.measured_joules_per_sample = e.measured_joules_per_pass / batch;
  e.predicted_joules_per_sample = e.predicted_joules_per_pass / batch;
  e.measured_gflops_per_watt = flops / e.measured_joules_per_pass * 1e-9;
  e.predicted_gflops_per_watt =
      e.predicted_joules_per_pass > 0 ? flops / e.predicted_joules_per_pass * 1e-9 : 0;
  e.measured_watts = e.seconds > 0 ? run.energy->joules / e.seconds : 0;
  e.error = e.predicted_joules_per_pass / e.measured_joules_per_pass - 1.0;
  return e;
}

std::string energy_line(const MeasurementView &v) {
  if (!v.energy)
    return v.run.energy_unavailable.empty()
               ? ""
               : "energy: not measured (" + v.run.energy_unavailable + ")\n";
  const EnergyComparison &e = *v.energy;
  return "energy: measured " + si(e.measured_joules_per_pass, "J") + " per pass (" +
         si(e.measured_joules_per_sample, "J") + " per sample, " +
         si(e.measured_gflops_per_watt * 1e9, "F/s/W") + ", " + si(e.measured_watts, "W") +
         " over " + si(e.seconds, "s") + " of " + std::to_string(e.passes) + " timed passes, " +
         e.source + "), predicted " + si(e.predicted_joules_per_pass, "J") + " (" +
         si(e.predicted_joules_per_sample, "J") + " per sample, " +
         si(e.predicted_gflops_per_watt * 1e9, "F/s/W") + "), error " + pct(e.error, 1, true) +
         "\n";
}

nlohmann::ordered_json energy_json(const MeasurementView &v) {
  using json = nlohmann::ordered_json;
  if (!v.energy)
    return json{{"measured", nullptr}, {"why", v.run.energy_unavailable}};
  const EnergyComparison &e = *v.energy;
  return json{{"measured", true},
              {"source", e.source},
              {"passes", e.passes},
              {"seconds", e.seconds},
              {"measured_watts", e.measured_watts},
              {"measured_joules_per_pass", e.measured_joules_per_pass},
              {"predicted_joules_per_pass", e.predicted_joules_per_pass},
              {"measured_joules_per_sample", e.measured_joules_per_sample},
              {"predicted_joules_per_sample", e.predicted_joules_per_sample},
              {"measured_flops_per_second_per_watt", e.measured_gflops_per_watt * 1e9},
              {"predicted_flops_per_second_per_watt", e.predicted_gflops_per_watt * 1e9},
              {"error", e.error}};
}

} // namespace perfmodel::report
