// Communication calibration YAML (perfmodel/io/comm_calibration_yaml.hpp).
#include "perfmodel/io/comm_calibration_yaml.hpp"

#include <cstdio>

#include "io/yaml_util.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/limits.hpp"

namespace perfmodel::io {

CommCalibration parse_comm_calibration_yaml(const std::string &text, const std::string &file) {
  const YAML::Node root = load_yaml(text, file);
  if (!root.IsMap())
    throw InputError(SourceLoc{file, 1, 1}, "a communication calibration must be a mapping");
  check_version(root, file, "communication calibration");
  check_keys(root, {"version", "kind", "hw", "level", "gpus", "source", "collectives"}, file,
             "communication calibration");
  CommCalibration cal;
  try {
    if (get_string(root, "kind", file) != "collectives")
      throw InputError(loc_of(file, root["kind"]),
                       "kind must be 'collectives' (a file of calibrate --from-nccl-tests)");
    cal.hw = get_string(root, "hw", file);
    cal.level = get_string(root, "level", file);
    cal.gpus = get_int(root["gpus"], "gpus", file);
    if (cal.gpus < 2)
      throw InputError(loc_of(file, root["gpus"]), "gpus must be 2 or more");
    if (root["source"])
      cal.source = get_string(root, "source", file);
    const YAML::Node cs = root["collectives"];
    if (!cs || !cs.IsMap() || cs.size() == 0)
      throw InputError(loc_of(file, cs ? cs : root),
                       "'collectives' must map collective names to their fits");
    for (const auto &kv : cs) {
      const std::string name = kv.first.as<std::string>();
      const auto c = parse_collective(name);
      if (!c)
        throw InputError(loc_of(file, kv.first),
                         "unknown collective '" + name +
                             "' (all_reduce, reduce_scatter, all_gather, all_to_all, send_recv)");
      const YAML::Node f = kv.second;
      if (!f.IsMap())
        throw InputError(loc_of(file, f), "a collective's fit must be a mapping");
      check_keys(f, {"latency_per_step", "bus_bandwidth", "samples", "rms_relative_residual"}, file,
                 "collective fit");
      CollectiveFit fit;
      if (!f["latency_per_step"] || !f["bus_bandwidth"])
        throw InputError(loc_of(file, f), "a fit needs latency_per_step and bus_bandwidth");
      fit.latency_per_step_seconds = get_quantity(f["latency_per_step"], "s", file);
      if (!in_range(fit.latency_per_step_seconds, 0, kMaxOverheadSeconds))
        throw InputError(loc_of(file, f["latency_per_step"]),
                         "latency_per_step must be " + range_str(0, kMaxOverheadSeconds) + " s");
      fit.bus_bytes_per_second = get_quantity(f["bus_bandwidth"], "B/s", file);
      if (!in_range(fit.bus_bytes_per_second, kMinRate, kMaxRate))
        throw InputError(loc_of(file, f["bus_bandwidth"]),
                         "bus_bandwidth must be " + range_str(kMinRate, kMaxRate) + " B/s");
      if (f["samples"])
        fit.samples = get_int(f["samples"], "samples", file);
      if (f["rms_relative_residual"])
        fit.rms_relative_residual =
            get_number(f["rms_relative_residual"], "rms_relative_residual", file);
      cal.fits[*c] = fit;
    }
  } catch (const YAML::Exception &e) {
    throw InputError(SourceLoc{file, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
  return cal;
}

CommCalibration read_comm_calibration_yaml(const std::string &path) {
  return parse_comm_calibration_yaml(read_file(path), path);
}

std::string write_comm_calibration_yaml(const CommCalibration &cal) {
  std::string out = "# Collective latency and bus bandwidth fitted by perfmodel calibrate "
                    "--from-nccl-tests\n# (docs/parallel.md): time = steps x latency_per_step + "
                    "factor x size / bus_bandwidth.\nversion: 1\nkind: collectives\n";
  out += "hw: " + cal.hw + "\nlevel: " + cal.level + "\ngpus: " + std::to_string(cal.gpus) + "\n";
  if (!cal.source.empty())
    out += "source: " + YAML::Dump(YAML::Node(cal.source)) + "\n";
  out += "collectives:\n";
  char buf[256];
  for (const auto &[c, f] : cal.fits) {
    std::snprintf(buf, sizeof buf,
                  "  %s: {latency_per_step: %.6g us, bus_bandwidth: %.6g GB/s, samples: %lld, "
                  "rms_relative_residual: %.3g}\n",
                  std::string(to_string(c)).c_str(), f.latency_per_step_seconds * 1e6,
                  f.bus_bytes_per_second * 1e-9, static_cast<long long>(f.samples),
                  f.rms_relative_residual);
    out += buf;
  }
  return out;
}

} // namespace perfmodel::io
