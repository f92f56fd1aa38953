// The hardware YAML's `interconnect:` list (io/interconnect_yaml.hpp).
#include "io/interconnect_yaml.hpp"

#include "io/yaml_util.hpp"
#include "perfmodel/limits.hpp"

namespace perfmodel::io {

namespace {

constexpr int64_t kMaxDevices = 1 << 24;

double quantity_in(const YAML::Node &n, const char *key, const char *unit, double lo, double hi,
                   const std::string &file) {
  const double v = get_quantity(n, unit, file);
  if (!in_range(v, lo, hi))
    throw InputError(loc_of(file, n), std::string(key) + " must be " + range_str(lo, hi) + " " +
                                          unit + ", not '" + n.Scalar() + "'");
  return v;
}

} // namespace

Interconnect read_interconnect(const YAML::Node &n, const std::string &file) {
  if (!n.IsSequence())
    throw InputError(loc_of(file, n), "'interconnect' must be a list of levels, innermost first");
  Interconnect ic;
  int64_t inner = 1;
  for (size_t i = 0; i < n.size(); ++i) {
    const YAML::Node e = n[i];
    if (!e.IsMap())
      throw InputError(loc_of(file, e), "interconnect entry must be a mapping");
    check_keys(e, {"name", "devices", "bandwidth", "latency"}, file, "interconnect entry");
    LinkLevel l;
    l.name = get_string(e, "name", file);
    if (const YAML::Node d = e["devices"]) {
      l.devices = get_int(d, "devices", file);
      if (l.devices < 1 || l.devices > kMaxDevices || l.devices < inner || l.devices % inner != 0)
        throw InputError(loc_of(file, d), "devices must be a multiple of the level inside it (" +
                                              std::to_string(inner) + ") up to " +
                                              std::to_string(kMaxDevices) + ", not '" + d.Scalar() +
                                              "'");
      inner = l.devices;
    } else if (i + 1 != n.size()) {
      throw InputError(loc_of(file, e), "interconnect level '" + l.name +
                                            "' needs 'devices': only the outermost level may "
                                            "leave it out (any number of nodes)");
    }
    if (!e["bandwidth"])
      throw InputError(loc_of(file, e),
                       "interconnect level needs 'bandwidth' (B/s per device and direction)");
    l.bytes_per_second = quantity_in(e["bandwidth"], "bandwidth", "B/s", kMinRate, kMaxRate, file);
    if (e["latency"])
      l.latency_seconds = quantity_in(e["latency"], "latency", "s", 0, kMaxOverheadSeconds, file);
    ic.levels.push_back(l);
  }
  std::string err;
  if (!is_valid(ic, &err))
    throw InputError(loc_of(file, n), "invalid interconnect: " + err);
  return ic;
}

} // namespace perfmodel::io
