// Hardware YAML reader (format: docs/formats.md#hardware).
#include "perfmodel/io/hw_yaml.hpp"

#include "io/yaml_util.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/resources.hpp"
#include "perfmodel/limits.hpp"

namespace perfmodel::io {

namespace {

// A quantity in [lo, hi] (the ranges of perfmodel/limits.hpp), located at its node.
double ranged(const YAML::Node &n, const char *key, const char *unit, double lo, double hi,
              const std::string &file) {
  const double v = get_quantity(n, unit, file);
  if (!in_range(v, lo, hi))
    throw InputError(loc_of(file, n), std::string(key) + " must be " + range_str(lo, hi) + " " +
                                          unit + ", not '" + n.Scalar() + "'");
  return v;
}

ComputeUnit read_unit(const YAML::Node &n, const std::string &file) {
  if (!n.IsMap())
    throw InputError(loc_of(file, n), "compute entry must be a mapping");
  check_keys(n, {"unit", "dtype", "peak", "matrix_only", "energy"}, file, "compute entry");
  ComputeUnit u;
  u.unit = get_string(n, "unit", file);
  const std::string dt = get_string(n, "dtype", file);
  auto d = parse_dtype(dt);
  if (!d)
    throw InputError(loc_of(file, n["dtype"]), "unknown dtype '" + dt + "'");
  u.dtype = *d;
  if (!n["peak"])
    throw InputError(loc_of(file, n), "compute entry needs 'peak' (FLOP/s)");
  u.flops_per_second = ranged(n["peak"], "peak", "FLOP/s", kMinRate, kMaxRate, file);
  if (n["matrix_only"])
    u.matrix_only = n["matrix_only"].as<bool>();
  if (n["energy"])
    u.energy_per_flop_joules =
        ranged(n["energy"], "energy", "J/FLOP", 0, kMaxEnergyPerUnit, file);
  return u;
}

MemoryLevel read_level(const YAML::Node &n, const std::string &file) {
  if (!n.IsMap())
    throw InputError(loc_of(file, n), "memory entry must be a mapping");
  check_keys(n, {"name", "bandwidth", "capacity", "energy"}, file, "memory entry");
  MemoryLevel m;
  m.name = get_string(n, "name", file);
  if (!n["bandwidth"])
    throw InputError(loc_of(file, n), "memory level needs 'bandwidth' (B/s)");
  m.bytes_per_second = ranged(n["bandwidth"], "bandwidth", "B/s", kMinRate, kMaxRate, file);
  if (n["capacity"])
    m.capacity_bytes = ranged(n["capacity"], "capacity", "B", kMinCapacity, kMaxCapacity, file);
  if (n["energy"])
    m.energy_per_byte_joules = ranged(n["energy"], "energy", "J/B", 0, kMaxEnergyPerUnit, file);
  return m;
}

CpuId read_spec_cpu_id(const YAML::Node &n, const std::string &kind, const std::string &file) {
  if (kind != "cpu")
    throw InputError(loc_of(file, n), "cpu_id is for CPU specs (kind: cpu)");
  return read_cpu_id(n, file);
}

} // namespace

HwSpec parse_hw_yaml(const std::string &text, const std::string &file) {
  const YAML::Node root = load_yaml(text, file);
  if (root.IsMap() && root["layers"]) // a model file given where hardware is expected
    throw InputError(loc_of(file, root["layers"]),
                     "this is a model (it has 'layers'), not a hardware spec: give it to --model");
  check_version(root, file, "hardware");
  check_keys(root,
             {"version", "name", "kind", "description", "units", "clock", "tdp", "static_power",
              "launch_overhead", "cpu_id", "compute", "memory"},
             file, "hardware");
  HwSpec hw;
  hw.loc = SourceLoc{file};
  try {
    hw.name = get_string(root, "name", file);
    hw.kind = get_string(root, "kind", file);
    if (hw.kind != "gpu" && hw.kind != "cpu")
      throw InputError(loc_of(file, root["kind"]), "kind must be gpu or cpu");
    if (root["description"])
      hw.description = root["description"].as<std::string>();
    if (const YAML::Node u = root["units"]) {
      const int64_t units = get_int(u, "units", file);
      if (units < 1 || units > kMaxUnits)
        throw InputError(loc_of(file, u), "units must be from 1 to " + std::to_string(kMaxUnits) +
                                              ", not '" + u.Scalar() + "'");
      hw.units = static_cast<int>(units);
    }
    if (root["clock"])
      hw.clock_hz = ranged(root["clock"], "clock", "Hz", kMinClock, kMaxClock, file);
    if (root["tdp"])
      hw.tdp_watts = ranged(root["tdp"], "tdp", "W", kMinPower, kMaxPower, file);
    if (const YAML::Node sp = root["static_power"]) {
      hw.static_watts = ranged(sp, "static_power", "W", 0, kMaxPower, file);
      if (hw.tdp_watts > 0 && hw.static_watts > hw.tdp_watts)
        throw InputError(loc_of(file, sp), "static_power (" + sp.Scalar() +
                                               ") must not exceed the tdp (" +
                                               root["tdp"].Scalar() + ")");
    }
    if (root["launch_overhead"])
      hw.launch_overhead_seconds =
          ranged(root["launch_overhead"], "launch_overhead", "s", 0, kMaxOverheadSeconds, file);
    if (const YAML::Node id = root["cpu_id"])
      hw.cpu_id = read_spec_cpu_id(id, hw.kind, file);
    const YAML::Node compute = root["compute"], memory = root["memory"];
    if (!compute || !compute.IsSequence())
      throw InputError(loc_of(file, root), "'compute' must be a list of units");
    if (!memory || !memory.IsSequence())
      throw InputError(loc_of(file, root), "'memory' must be a list of levels, DRAM last");
    if (compute.size() == 0)
      throw InputError(loc_of(file, compute), "'compute' lists no units");
    if (memory.size() == 0)
      throw InputError(loc_of(file, memory), "'memory' lists no levels");
    for (const auto &n : compute)
      hw.compute.push_back(read_unit(n, file));
    for (const auto &n : memory)
      hw.memory.push_back(read_level(n, file));
  } catch (const YAML::Exception &e) {
    throw InputError(SourceLoc{file, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
  // Every field was checked where it was read, at its own position; what is_valid still finds
  // concerns the spec as a whole and is reported at its first line.
  std::string err;
  if (!is_valid(hw, &err))
    throw InputError(SourceLoc{file, 1, 1}, "invalid hardware spec: " + err);
  return hw;
}

HwSpec read_hw_yaml(const std::string &path) { return parse_hw_yaml(read_file(path), path); }

HwSpec load_hw(const std::string &spec) {
  return read_hw_yaml(resolve_resource(spec, "hw_specs", {".yaml", ".yml"}));
}

} // namespace perfmodel::io
