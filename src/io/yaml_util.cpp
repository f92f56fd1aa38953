// yaml-cpp helpers: every error carries file:line:col.
#include "io/yaml_util.hpp"

#include <algorithm>

#include "io/quantity.hpp"
#include "perfmodel/printable.hpp"

namespace perfmodel::io {

CpuId read_cpu_id(const YAML::Node &n, const std::string &file) {
  if (!n.IsMap())
    throw InputError(loc_of(file, n), "cpu_id must be a mapping");
  check_keys(n, {"vendor", "family", "model"}, file, "cpu_id");
  for (const char *key : {"vendor", "family", "model"})
    if (!n[key])
      throw InputError(loc_of(file, n), std::string("cpu_id needs '") + key + "'");
  return CpuId{get_string(n, "vendor", file),
               static_cast<int>(get_int(n["family"], "family", file)),
               static_cast<int>(get_int(n["model"], "model", file))};
}

SourceLoc loc_of(const std::string &file, const YAML::Node &node) {
  const YAML::Mark m = node.Mark();
  if (m.line < 0)
    return SourceLoc{file};
  return SourceLoc{file, m.line + 1, m.column + 1};
}

YAML::Node load_yaml(const std::string &text, const std::string &file) {
  require_utf8(text, file, "YAML files are UTF-8");
  try {
    YAML::Node root = YAML::Load(text);
    if (!root.IsMap())
      throw InputError(SourceLoc{file, 1, 1}, "expected a YAML mapping at the top");
    return root;
  } catch (const YAML::ParserException &e) {
    throw InputError(SourceLoc{file, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
}

void check_version(const YAML::Node &root, const std::string &file, const char *format) {
  const YAML::Node v = root["version"];
  if (!v)
    throw InputError(SourceLoc{file, 1, 1}, std::string(format) + ": missing 'version: 1'");
  if (get_int(v, "version", file) != 1)
    throw InputError(loc_of(file, v), std::string(format) + ": unsupported version " +
                                          v.as<std::string>() + " (this perfmodel reads 1)");
}

std::string get_string(const YAML::Node &map, const char *key, const std::string &file) {
  const YAML::Node n = map[key];
  if (!n)
    throw InputError(loc_of(file, map), std::string("missing '") + key + "'");
  if (!n.IsScalar())
    throw InputError(loc_of(file, n), std::string("'") + key + "' must be a string");
  return n.as<std::string>();
}

double get_number(const YAML::Node &node, const char *what, const std::string &file) {
  double v = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, v))
    throw InputError(loc_of(file, node), std::string(what) + " must be a number");
  return v;
}

int64_t get_int(const YAML::Node &node, const char *what, const std::string &file) {
  long long v = 0;
  if (!node.IsScalar() || !YAML::convert<long long>::decode(node, v))
    throw InputError(loc_of(file, node), std::string(what) + " must be an integer");
  return v;
}

std::vector<int64_t> get_int_list(const YAML::Node &node, const char *what,
                                  const std::string &file) {
  std::vector<int64_t> out;
  if (node.IsScalar())
    return {get_int(node, what, file)};
  if (!node.IsSequence())
    throw InputError(loc_of(file, node), std::string(what) + " must be a list of integers");
  for (const auto &e : node)
    out.push_back(get_int(e, what, file));
  return out;
}

double get_quantity(const YAML::Node &node, const char *unit, const std::string &file) {
  if (!node.IsScalar())
    throw InputError(loc_of(file, node), std::string("expected a quantity in ") + unit);
  std::string err;
  auto v = parse_quantity(node.Scalar(), unit, &err);
  if (!v)
    throw InputError(loc_of(file, node), err);
  return *v;
}

void check_keys(const YAML::Node &map, const std::vector<std::string> &allowed,
                const std::string &file, const char *where) {
  for (const auto &kv : map) {
    // A complex key (`? [a, b]`, `{a: 1}: x`) has no string value: as<std::string> would throw
    // yaml-cpp's BadConversion past the readers' catch (found by fuzz_hw_yaml's smoke run).
    if (!kv.first.IsScalar())
      throw InputError(loc_of(file, kv.first), std::string("a key in ") + where +
                                                   " must be a plain name, not a list or mapping");
    const std::string k = kv.first.as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end())
      throw InputError(loc_of(file, kv.first), std::string("unknown key '") + k + "' in " + where);
  }
}

} // namespace perfmodel::io
