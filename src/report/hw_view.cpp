// Renders a hardware spec with its ridge points.
#include "report/hw_view.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/text_table.hpp"

namespace perfmodel::report {

std::string render_hw(const HwSpec& hw, Format f) {
  std::ostringstream s;
  if (f == Format::json) {
    nlohmann::ordered_json j;
    j["schema"] = "perfmodel.hardware/1";
    j["name"] = hw.name;
    j["kind"] = hw.kind;
    j["description"] = hw.description;
    j["units"] = hw.units;
    j["clock_hz"] = hw.clock_hz;
    j["tdp_watts"] = hw.tdp_watts;
    j["static_watts"] = hw.static_watts;
    j["launch_overhead_seconds"] = hw.launch_overhead_seconds;
    for (const auto& u : hw.compute) {
      nlohmann::ordered_json c{{"unit", u.unit}, {"dtype", std::string(to_string(u.dtype))},
                               {"flops_per_second", u.flops_per_second},
                               {"matrix_only", u.matrix_only},
                               {"energy_per_flop_joules", u.energy_per_flop_joules}};
      for (const auto& m : hw.memory) c["ridge_points"][m.name] = u.flops_per_second / m.bytes_per_second;
      j["compute"].push_back(c);
    }
    for (const auto& m : hw.memory)
      j["memory"].push_back({{"name", m.name}, {"bytes_per_second", m.bytes_per_second},
                             {"capacity_bytes", m.capacity_bytes},
                             {"energy_per_byte_joules", m.energy_per_byte_joules}});
    return j.dump(2) + "\n";
  }
  std::vector<std::string> head{"unit", "dtype", "peak", "energy"};
  for (const auto& m : hw.memory) head.push_back("ridge " + m.name);
  std::vector<std::vector<std::string>> compute;
  for (const auto& u : hw.compute) {
    std::vector<std::string> r{u.unit + (u.matrix_only ? " (matrix)" : ""),
                               std::string(to_string(u.dtype)), si(u.flops_per_second, "F/s"),
                               u.energy_per_flop_joules > 0 ? si(u.energy_per_flop_joules, "J/F") : "-"};
    for (const auto& m : hw.memory) r.push_back(si(u.flops_per_second / m.bytes_per_second, "F/B"));
    compute.push_back(r);
  }
  std::vector<std::vector<std::string>> memory;
  for (const auto& m : hw.memory)
    memory.push_back({m.name, si(m.bytes_per_second, "B/s"),
                      m.capacity_bytes > 0 ? si(m.capacity_bytes, "B") : "-",
                      m.energy_per_byte_joules > 0 ? si(m.energy_per_byte_joules, "J/B") : "-"});
  const std::vector<std::string> mhead{"level", "bandwidth", "capacity", "energy"};
  if (f == Format::csv) {
    for (size_t i = 0; i < head.size(); ++i) s << (i ? "," : "") << csv_field(head[i]);
    s << "\n";
    for (const auto& r : compute) {
      for (size_t i = 0; i < r.size(); ++i) s << (i ? "," : "") << csv_field(r[i]);
      s << "\n";
    }
    return s.str();
  }
  if (f == Format::md) {
    s << "# " << md_cell(hw.name) << " (" << hw.kind << ")\n\n" << md_cell(hw.description) << "\n\n";
    s << md_table(head, compute) << "\n" << md_table(mhead, memory) << "\n";
    return s.str();
  }
  s << hw.name << " (" << hw.kind << "): " << hw.description << "\n";
  s << "units " << hw.units << ", clock " << si(hw.clock_hz, "Hz") << ", TDP " << si(hw.tdp_watts, "W")
    << ", static " << si(hw.static_watts, "W") << ", launch overhead "
    << si(hw.launch_overhead_seconds, "s") << "\n\n";
  TextTable c(head);
  for (auto& r : compute) c.add(r);
  TextTable m(mhead);
  for (auto& r : memory) m.add(r);
  s << c.str() << "\n" << m.str();
  return s.str();
}

}  // namespace perfmodel::report
