// Renders a hardware spec with its ridge points.
#include "perfmodel/report/hw_view.hpp"

#include <fmt/format.h>

#include "report/columns.hpp"
#include "perfmodel/report/json_text.hpp"

namespace perfmodel::report {

namespace {

using U = ComputeUnit;
using M = MemoryLevel;

// The compute units: one ridge point per memory level of the spec.
std::vector<Column<U>> compute_columns(const HwSpec &hw) {
  using C = Column<U>;
  std::vector<C> cols = {
      {"unit", "unit", hint::text(),
       [](const U &u) { return u.unit + (u.matrix_only ? " (matrix)" : ""); }, kText | kCsv},
      {"unit", "unit", hint::text(), &U::unit, kJson},
      {"dtype", "dtype", hint::text(), [](const U &u) { return to_string(u.dtype); }},
      {"flops_per_second", "peak", hint::si("F/s"), &U::flops_per_second},
      {"matrix_only", "matrix only", hint::flag("yes", "no"), &U::matrix_only, kJson},
      C("energy_per_flop_joules", "energy", hint::si("J/F").unset_when_zero(),
        &U::energy_per_flop_joules)
          .missing_as("-"),
  };
  for (const auto &m : hw.memory)
    cols.push_back({"ridge_" + m.name, "ridge " + m.name, hint::si("F/B"),
                    [bw = m.bytes_per_second](const U &u) { return u.flops_per_second / bw; },
                    kText | kCsv});
  cols.push_back({"ridge_points", "ridge points", hint::text(),
                  [&hw](const U &u) -> Value {
                    if (hw.memory.empty())
                      return {};
                    Json r;
                    for (const auto &m : hw.memory)
                      r[m.name] = u.flops_per_second / m.bytes_per_second;
                    return r;
                  },
                  kJson});
  return cols;
}

const std::vector<Column<M>> &memory_columns() {
  using C = Column<M>;
  static const std::vector<C> cols = {
      {"name", "level", hint::text(), &M::name},
      {"bytes_per_second", "bandwidth", hint::si("B/s"), &M::bytes_per_second},
      C("capacity_bytes", "capacity", hint::si("B").unset_when_zero(), &M::capacity_bytes)
          .missing_as("-"),
      C("energy_per_byte_joules", "energy", hint::si("J/B").unset_when_zero(),
        &M::energy_per_byte_joules)
          .missing_as("-"),
  };
  return cols;
}

} // namespace

std::string render_hw(const HwSpec &hw, Format f) {
  // Markdown rules without alignment.
  const Style style{0, false, false};
  const Grid compute = make_grid(compute_columns(hw), hw.compute, style);
  const Grid memory = make_grid(memory_columns(), hw.memory, style);
  if (f == Format::json) {
    Json j;
    j["schema"] = "perfmodel.hardware/1";
    j["name"] = hw.name;
    j["kind"] = hw.kind;
    j["description"] = hw.description;
    j["units"] = hw.units;
    j["clock_hz"] = hw.clock_hz;
    j["tdp_watts"] = hw.tdp_watts;
    j["static_watts"] = hw.static_watts;
    j["launch_overhead_seconds"] = hw.launch_overhead_seconds;
    if (!hw.compute.empty())
      j["compute"] = json_rows(compute);
    if (!hw.memory.empty())
      j["memory"] = json_rows(memory);
    return perfmodel::report::json_text(j);
  }
  if (f == Format::csv)
    return csv(compute);
  if (f == Format::md)
    return fmt::format("# {} ({})\n\n{}\n\n{}\n{}\n", md_cell(hw.name), hw.kind,
                       md_cell(hw.description), markdown(compute), markdown(memory));
  return fmt::format(
      "{} ({}): {}\nunits {}, clock {}, TDP {}, static {}, launch overhead {}\n\n{}\n{}", hw.name,
      hw.kind, hw.description, hw.units, si(hw.clock_hz, "Hz"), si(hw.tdp_watts, "W"),
      si(hw.static_watts, "W"), si(hw.launch_overhead_seconds, "s"), table(compute), table(memory));
}

} // namespace perfmodel::report
