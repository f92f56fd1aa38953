// Calibration YAML reader (strict keys, file:line:col errors) and writer (yaml-cpp emitter).
#include "perfmodel/io/calibration_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <set>

#include "io/yaml_util.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/resources.hpp"
#include "perfmodel/limits.hpp"
#include "perfmodel/printable.hpp"
#include "perfmodel/targets/cpu_eigen.hpp"
#include "perfmodel/targets/registry.hpp"

namespace perfmodel::io {

namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

SourceLoc at(const std::string &file, const YAML::Node &n) {
  const YAML::Mark m = n.Mark();
  return m.is_null() ? SourceLoc{file, 0, 0} : SourceLoc{file, m.line + 1, m.column + 1};
}

// Checks that a map only has known keys, and that the required ones are there.
void check_keys(const std::string &file, const YAML::Node &map, const std::string &what,
                const std::set<std::string> &known, const std::set<std::string> &required) {
  if (!map.IsMap())
    throw InputError(at(file, map), what + " must be a mapping");
  for (const auto &kv : map) {
    const std::string key = kv.first.as<std::string>();
    if (!known.count(key))
      throw InputError(at(file, kv.first), "unknown key '" + key + "' in " + what);
  }
  for (const auto &key : required)
    if (!map[key])
      throw InputError(at(file, map), what + " needs '" + key + "'");
}

double number(const std::string &file, const YAML::Node &n, const std::string &key) {
  try {
    const double v = n.as<double>();
    if (!std::isfinite(v))
      throw YAML::BadConversion(n.Mark());
    return v;
  } catch (const YAML::BadConversion &) {
    throw InputError(at(file, n), "'" + key + "' must be a number");
  }
}

int integer(const std::string &file, const YAML::Node &n, const std::string &key) {
  try {
    return n.as<int>();
  } catch (const YAML::BadConversion &) {
    throw InputError(at(file, n), "'" + key + "' must be an integer");
  }
}

std::string text(const std::string &file, const YAML::Node &n, const std::string &key) {
  if (!n.IsScalar())
    throw InputError(at(file, n), "'" + key + "' must be a string");
  return n.as<std::string>();
}

FitStats read_stats(const std::string &file, const YAML::Node &n) {
  check_keys(file, n, "fit", {"samples", "rms_log_error", "mape", "max_error"}, {"samples"});
  FitStats s;
  s.samples = integer(file, n["samples"], "samples");
  if (n["rms_log_error"])
    s.rms_log_error = number(file, n["rms_log_error"], "rms_log_error");
  if (n["mape"])
    s.mape = number(file, n["mape"], "mape");
  if (n["max_error"])
    s.max_error = number(file, n["max_error"], "max_error");
  return s;
}

// `fitted_range: {flops: [min, max], bytes: [min, max]}`: 0 <= min <= max.
FittedRange read_fitted_range(const std::string &file, const YAML::Node &n) {
  check_keys(file, n, "fitted_range", {"flops", "bytes"}, {"flops", "bytes"});
  auto pair = [&](const char *key, double &lo, double &hi) {
    const YAML::Node v = n[key];
    if (!v.IsSequence() || v.size() != 2)
      throw InputError(at(file, v), std::string("'") + key + "' must be a list [min, max]");
    lo = number(file, v[0], key);
    hi = number(file, v[1], key);
    if (lo < 0 || hi < lo)
      throw InputError(at(file, v),
                       std::string("'") + key + "' must be [min, max] with 0 <= min <= max");
  };
  FittedRange r;
  pair("flops", r.flops_min, r.flops_max);
  pair("bytes", r.bytes_min, r.bytes_max);
  return r;
}

// One entry of `at_bound: [{parameter, bound: upper|lower, value, limit}]`.
ParameterAtBound read_at_bound(const std::string &file, const YAML::Node &n) {
  check_keys(file, n, "at_bound entry", {"parameter", "bound", "value", "limit"},
             {"parameter", "bound"});
  ParameterAtBound b;
  b.parameter = text(file, n["parameter"], "parameter");
  const std::string side = text(file, n["bound"], "bound");
  if (side != "upper" && side != "lower")
    throw InputError(at(file, n["bound"]), "'bound' must be upper or lower, not '" + side + "'");
  b.upper = side == "upper";
  if (n["value"])
    b.value = number(file, n["value"], "value");
  if (n["limit"])
    b.limit = text(file, n["limit"], "limit");
  return b;
}

// A class of a calibration for `target`: the generic parameters and the target's term rates.
ClassCalibration read_class(const std::string &file, const YAML::Node &n,
                            const ExecutionTarget &target) {
  std::set<std::string> keys{"op_class",
                             "dtype",
                             "peak_flops_per_second",
                             "m_half",
                             "n_half",
                             "k_half",
                             "tile_m",
                             "tile_n",
                             "bytes_per_second",
                             "lowering_factor",
                             "overlap",
                             "overhead_seconds",
                             "fit",
                             "fitted_range",
                             "at_bound",
                             "pass"};
  for (const TargetTerm &t : target.terms())
    keys.insert(t.key);
  check_keys(file, n, "class", keys,
             {"op_class", "dtype", "peak_flops_per_second", "bytes_per_second"});
  ClassCalibration c;
  const std::string oc = text(file, n["op_class"], "op_class");
  auto parsed = parse_op_class(oc);
  if (!parsed)
    throw InputError(at(file, n["op_class"]), "unknown op class '" + oc + "'");
  c.op_class = *parsed;
  const std::string dt = text(file, n["dtype"], "dtype");
  auto d = parse_dtype(dt);
  if (!d)
    throw InputError(at(file, n["dtype"]), "unknown dtype '" + dt + "'");
  c.dtype = *d;
  if (const YAML::Node part = n["pass"]) {
    const std::string ps = text(file, part, "pass");
    const auto kp = parse_kernel_part(ps);
    if (!kp)
      throw InputError(at(file, part), "unknown pass '" + ps + "' (fwd, bwd_data or bwd_weight)");
    c.pass = *kp;
  }
  EfficiencyParams &p = c.params;
  p.peak_flops_per_second = number(file, n["peak_flops_per_second"], "peak_flops_per_second");
  // Optional number with its allowed range, checked where it is written.
  auto opt = [&](const char *key, double &v, double lo = 0, double hi = 1e300) {
    if (!n[key])
      return;
    v = number(file, n[key], key);
    if (v < lo || v > hi)
      throw InputError(at(file, n[key]), std::string("'") + key + "' must be " +
                                             (hi < 1e300 ? "in [" + num(lo) + ", " + num(hi) + "]"
                                                         : "at least " + num(lo)));
  };
  opt("m_half", p.m_half);
  opt("n_half", p.n_half);
  opt("k_half", p.k_half);
  opt("tile_m", p.tile_m, 1);
  opt("tile_n", p.tile_n, 1);
  opt("lowering_factor", p.lowering_factor);
  opt("overlap", p.overlap, 0, 1);
  opt("overhead_seconds", p.overhead_seconds);
  p.term_rates.assign(target.terms().size(), 0.0); // absent: no such term
  for (size_t j = 0; j < target.terms().size(); ++j)
    opt(target.terms()[j].key.c_str(), p.term_rates[j]);
  const YAML::Node bw = n["bytes_per_second"];
  if (!bw.IsSequence())
    throw InputError(at(file, bw), "'bytes_per_second' must be a list");
  for (const auto &v : bw)
    p.bytes_per_second.push_back(number(file, v, "bytes_per_second"));
  if (n["fit"])
    c.stats = read_stats(file, n["fit"]);
  if (const YAML::Node r = n["fitted_range"])
    c.fitted_range = read_fitted_range(file, r);
  if (const YAML::Node b = n["at_bound"]) {
    if (!b.IsSequence())
      throw InputError(at(file, b), "'at_bound' must be a list");
    for (const auto &e : b)
      c.at_bound.push_back(read_at_bound(file, e));
  }
  return c;
}

std::string exact(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

void write_stats(YAML::Emitter &e, const FitStats &s) {
  e << YAML::Key << "fit" << YAML::Value << YAML::Flow << YAML::BeginMap;
  e << YAML::Key << "samples" << YAML::Value << s.samples;
  e << YAML::Key << "rms_log_error" << YAML::Value << num(s.rms_log_error);
  e << YAML::Key << "mape" << YAML::Value << num(s.mape);
  e << YAML::Key << "max_error" << YAML::Value << num(s.max_error);
  e << YAML::EndMap;
}

} // namespace

namespace {

// The execution target a calibration names (`target:`), or, in a file from before the key,
// the one its executor choices (`conv_batch`, `gemm_tiles`) describe: per_image + panels is the
// CPU Eigen executor, batched + padded (or neither key) the generic model. Any other mix has no
// target: the file must be fitted again.
const ExecutionTarget &read_target(const std::string &file, const YAML::Node &root) {
  auto choice = [&](const char *key, const char *a, const char *b) -> std::string {
    const YAML::Node v = root[key];
    if (!v)
      return "";
    const std::string s = text(file, v, key);
    if (s != a && s != b)
      throw InputError(at(file, v),
                       std::string(key) + " must be " + a + " or " + b + ", not '" + s + "'");
    return s;
  };
  const std::string batch = choice("conv_batch", "per_image", "batched");
  const std::string tiles = choice("gemm_tiles", "panels", "padded");
  const bool cpu = batch == "per_image" || tiles == "panels";
  const ExecutionTarget *legacy = nullptr;
  if (batch.empty() && tiles.empty())
    legacy = nullptr;
  else if (batch == "per_image" && tiles == "panels")
    legacy = &cpu_eigen::target();
  else if (!cpu)
    legacy = &generic_target();
  if (const YAML::Node t = root["target"]) {
    const std::string name = text(file, t, "target");
    const ExecutionTarget *target = targets::find(name);
    if (!target)
      throw InputError(at(file, t), "unknown target '" + name + "' (" + targets::names() + ")");
    if ((!batch.empty() || !tiles.empty()) && legacy != target)
      throw InputError(at(file, t), "target '" + name + "' does not run conv_batch: " + batch +
                                        ", gemm_tiles: " + tiles +
                                        " (drop those keys: the target implies them)");
    return *target;
  }
  if (batch.empty() && tiles.empty())
    return generic_target();
  if (!legacy)
    throw InputError(at(file, root["conv_batch"] ? root["conv_batch"] : root["gemm_tiles"]),
                     "conv_batch: " + (batch.empty() ? std::string("batched") : batch) +
                         " with gemm_tiles: " + (tiles.empty() ? std::string("padded") : tiles) +
                         " is no execution target's; fit this calibration again with `perfmodel "
                         "calibrate` (docs/cli/calibrate.md)");
  return *legacy;
}

} // namespace

Calibration parse_calibration_yaml(const std::string &src, const std::string &file) {
  YAML::Node root;
  require_utf8(src, file, "YAML files are UTF-8");
  try {
    root = YAML::Load(src);
  } catch (const YAML::ParserException &e) {
    throw InputError(SourceLoc{file, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
  if (!root.IsMap())
    throw InputError(SourceLoc{file, 1, 1}, "a calibration must be a mapping");
  Calibration cal;
  if (!root["version"])
    throw InputError(at(file, root), "calibration needs 'version'");
  cal.version = integer(file, root["version"], "version");
  if (cal.version != 1)
    throw InputError(at(file, root["version"]),
                     "unsupported calibration version " + std::to_string(cal.version) + " (1)");
  check_keys(file, root, "calibration",
             {"version", "device", "date", "perfmodel_version", "hardware", "source", "cores",
              "memory_levels", "target", "conv_batch", "gemm_tiles", "host_state", "pass_excess",
              "fit", "classes"},
             {"version", "device", "cores", "memory_levels", "classes"});
  const YAML::Node dev = root["device"];
  check_keys(file, dev, "device", {"kind", "name", "cores", "isa_hash", "cpu_id"},
             {"kind", "name"});
  cal.device.kind = text(file, dev["kind"], "kind");
  cal.device.name = text(file, dev["name"], "name");
  if (dev["cores"])
    cal.device.cores = integer(file, dev["cores"], "cores");
  if (dev["isa_hash"])
    cal.device.isa_hash = text(file, dev["isa_hash"], "isa_hash");
  if (const YAML::Node id = dev["cpu_id"])
    cal.device.cpu_id = read_cpu_id(id, file);
  if (root["date"])
    cal.date = text(file, root["date"], "date");
  if (root["perfmodel_version"])
    cal.perfmodel_version = text(file, root["perfmodel_version"], "perfmodel_version");
  if (root["hardware"])
    cal.hardware = text(file, root["hardware"], "hardware");
  if (root["source"])
    cal.source = text(file, root["source"], "source");
  cal.cores = integer(file, root["cores"], "cores");
  const YAML::Node levels = root["memory_levels"];
  if (!levels.IsSequence())
    throw InputError(at(file, levels), "'memory_levels' must be a list");
  for (const auto &l : levels) {
    check_keys(file, l, "memory level", {"name", "capacity_bytes"}, {"name", "capacity_bytes"});
    cal.memory_levels.push_back(
        {text(file, l["name"], "name"), number(file, l["capacity_bytes"], "capacity_bytes")});
  }
  cal.target = &read_target(file, root);
  if (const YAML::Node h = root["host_state"]) {
    const std::set<std::string> required{"fp32_flops_per_second", "dram_bytes_per_second"};
    check_keys(file, h, "host_state",
               {"fp32_flops_per_second", "dram_bytes_per_second", "cross_core_bytes_per_second",
                "conv_flops_per_second", "core_round_trip_seconds"},
               required);
    HostState hs;
    hs.fp32_flops_per_second = number(file, h["fp32_flops_per_second"], "fp32_flops_per_second");
    hs.dram_bytes_per_second = number(file, h["dram_bytes_per_second"], "dram_bytes_per_second");
    // Optional figures, absent in files from before their probe (and cross-core with one thread).
    for (auto [key, figure] :
         {std::pair{"cross_core_bytes_per_second", &HostState::cross_core_bytes_per_second},
          {"conv_flops_per_second", &HostState::conv_flops_per_second},
          {"core_round_trip_seconds", &HostState::core_round_trip_seconds}})
      if (const YAML::Node v = h[key]) {
        hs.*figure = number(file, v, key);
        // Rates in the range of perfmodel/limits.hpp; the round trip from 1e-12 to 1 s.
        const bool seconds = figure == &HostState::core_round_trip_seconds;
        const double lo = seconds ? 1e-12 : kMinRate, hi = seconds ? 1.0 : kMaxRate;
        if (!in_range(hs.*figure, lo, hi))
          throw InputError(at(file, v), std::string(key) + " must be " + range_str(lo, hi));
      }
    if (!(hs.fp32_flops_per_second > 0 && hs.dram_bytes_per_second > 0))
      throw InputError(at(file, h), "host_state figures must be positive");
    cal.host_state = hs;
  }
  if (const YAML::Node x = root["pass_excess"]) {
    check_keys(file, x, "pass_excess", {"per_layer_seconds", "fraction", "networks"},
               {"per_layer_seconds", "fraction"});
    PassExcess pe;
    pe.per_layer_seconds = number(file, x["per_layer_seconds"], "per_layer_seconds");
    pe.fraction = number(file, x["fraction"], "fraction");
    if (x["networks"])
      pe.networks = integer(file, x["networks"], "networks");
    if (!(pe.per_layer_seconds >= 0 && pe.fraction >= 0 && pe.networks >= 0))
      throw InputError(at(file, x), "pass_excess figures must be >= 0");
    cal.pass_excess = pe;
  }
  if (root["fit"])
    cal.stats = read_stats(file, root["fit"]);
  const YAML::Node classes = root["classes"];
  if (!classes.IsSequence())
    throw InputError(at(file, classes), "'classes' must be a list");
  for (const auto &c : classes) {
    cal.classes.push_back(read_class(file, c, *cal.target));
    std::string error;
    Calibration one = cal;
    one.classes = {cal.classes.back()};
    if (!is_valid(one, &error))
      throw InputError(at(file, c), error);
    for (size_t i = 0; i + 1 < cal.classes.size(); ++i)
      if (cal.classes[i].op_class == cal.classes.back().op_class &&
          cal.classes[i].dtype == cal.classes.back().dtype &&
          cal.classes[i].pass == cal.classes.back().pass)
        throw InputError(at(file, c), "duplicate class " +
                                          std::string(to_string(cal.classes[i].op_class)) + "/" +
                                          std::string(to_string(cal.classes[i].dtype)) +
                                          (cal.classes[i].pass
                                               ? "/" + std::string(to_string(*cal.classes[i].pass))
                                               : std::string()));
  }
  std::string error;
  if (!is_valid(cal, &error))
    throw InputError(at(file, root), error);
  return cal;
}

Calibration read_calibration_yaml(const std::string &path) {
  return parse_calibration_yaml(read_file(path), path);
}

Calibration load_calibration(const std::string &spec) {
  return read_calibration_yaml(resolve_resource(spec, "calibration", {".yaml", ".yml"}));
}

std::string write_calibration_yaml(const Calibration &cal) {
  YAML::Emitter e;
  e << YAML::BeginMap;
  e << YAML::Key << "version" << YAML::Value << cal.version;
  e << YAML::Key << "device" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "kind" << YAML::Value << cal.device.kind;
  e << YAML::Key << "name" << YAML::Value << cal.device.name;
  e << YAML::Key << "cores" << YAML::Value << cal.device.cores;
  e << YAML::Key << "isa_hash" << YAML::Value << YAML::DoubleQuoted << cal.device.isa_hash;
  if (const auto &id = cal.device.cpu_id)
    e << YAML::Key << "cpu_id" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
      << "vendor" << YAML::Value << id->vendor << YAML::Key << "family" << YAML::Value << id->family
      << YAML::Key << "model" << YAML::Value << id->model << YAML::EndMap;
  e << YAML::EndMap;
  e << YAML::Key << "date" << YAML::Value << cal.date;
  e << YAML::Key << "perfmodel_version" << YAML::Value << YAML::DoubleQuoted
    << cal.perfmodel_version;
  e << YAML::Key << "hardware" << YAML::Value << cal.hardware;
  e << YAML::Key << "source" << YAML::Value << cal.source;
  e << YAML::Key << "cores" << YAML::Value << cal.cores;
  e << YAML::Key << "memory_levels" << YAML::Value << YAML::BeginSeq;
  for (const auto &l : cal.memory_levels)
    e << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << l.name << YAML::Key
      << "capacity_bytes" << YAML::Value << exact(l.capacity_bytes) << YAML::EndMap;
  e << YAML::EndSeq;
  e << YAML::Key << "target" << YAML::Value << std::string(cal.execution_target().name());
  if (cal.host_state) {
    const HostState &h = *cal.host_state;
    e << YAML::Key << "host_state" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
      << "fp32_flops_per_second" << YAML::Value << num(h.fp32_flops_per_second) << YAML::Key
      << "dram_bytes_per_second" << YAML::Value << num(h.dram_bytes_per_second);
    if (h.cross_core_bytes_per_second > 0)
      e << YAML::Key << "cross_core_bytes_per_second" << YAML::Value
        << num(h.cross_core_bytes_per_second);
    if (h.conv_flops_per_second > 0)
      e << YAML::Key << "conv_flops_per_second" << YAML::Value << num(h.conv_flops_per_second);
    if (h.core_round_trip_seconds > 0)
      e << YAML::Key << "core_round_trip_seconds" << YAML::Value << num(h.core_round_trip_seconds);
    e << YAML::EndMap;
  }
  if (cal.pass_excess) {
    const PassExcess &x = *cal.pass_excess;
    e << YAML::Key << "pass_excess" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
      << "per_layer_seconds" << YAML::Value << num(x.per_layer_seconds) << YAML::Key << "fraction"
      << YAML::Value << num(x.fraction) << YAML::Key << "networks" << YAML::Value << x.networks
      << YAML::EndMap;
  }
  write_stats(e, cal.stats);
  e << YAML::Key << "classes" << YAML::Value << YAML::BeginSeq;
  for (const auto &c : cal.classes) {
    const EfficiencyParams &p = c.params;
    e << YAML::BeginMap;
    e << YAML::Key << "op_class" << YAML::Value << std::string(to_string(c.op_class));
    e << YAML::Key << "dtype" << YAML::Value << std::string(to_string(c.dtype));
    if (c.pass)
      e << YAML::Key << "pass" << YAML::Value << std::string(to_string(*c.pass));
    e << YAML::Key << "peak_flops_per_second" << YAML::Value << num(p.peak_flops_per_second);
    e << YAML::Key << "m_half" << YAML::Value << num(p.m_half);
    e << YAML::Key << "n_half" << YAML::Value << num(p.n_half);
    e << YAML::Key << "k_half" << YAML::Value << num(p.k_half);
    e << YAML::Key << "tile_m" << YAML::Value << num(p.tile_m);
    e << YAML::Key << "tile_n" << YAML::Value << num(p.tile_n);
    e << YAML::Key << "bytes_per_second" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (double bw : p.bytes_per_second)
      e << num(bw);
    e << YAML::EndSeq;
    e << YAML::Key << "lowering_factor" << YAML::Value << num(p.lowering_factor);
    e << YAML::Key << "overlap" << YAML::Value << num(p.overlap);
    e << YAML::Key << "overhead_seconds" << YAML::Value << num(p.overhead_seconds);
    const std::vector<TargetTerm> &terms = cal.execution_target().terms();
    for (size_t j = 0; j < terms.size(); ++j)
      if (p.term_rate(j) > 0)
        e << YAML::Key << terms[j].key << YAML::Value << num(p.term_rate(j));
    write_stats(e, c.stats);
    if (const auto &r = c.fitted_range)
      e << YAML::Key << "fitted_range" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
        << "flops" << YAML::Value << YAML::BeginSeq << num(r->flops_min) << num(r->flops_max)
        << YAML::EndSeq << YAML::Key << "bytes" << YAML::Value << YAML::BeginSeq
        << num(r->bytes_min) << num(r->bytes_max) << YAML::EndSeq << YAML::EndMap;
    if (!c.at_bound.empty()) {
      e << YAML::Key << "at_bound" << YAML::Value << YAML::BeginSeq;
      for (const ParameterAtBound &b : c.at_bound)
        e << YAML::Flow << YAML::BeginMap << YAML::Key << "parameter" << YAML::Value << b.parameter
          << YAML::Key << "bound" << YAML::Value << (b.upper ? "upper" : "lower") << YAML::Key
          << "value" << YAML::Value << num(b.value) << YAML::Key << "limit" << YAML::Value
          << YAML::DoubleQuoted << b.limit << YAML::EndMap;
      e << YAML::EndSeq;
    }
    e << YAML::EndMap;
  }
  e << YAML::EndSeq << YAML::EndMap;
  return "# perfmodel calibration: fitted efficiency model (docs/calibration.md)\n" +
         std::string(e.c_str()) + "\n";
}

} // namespace perfmodel::io
