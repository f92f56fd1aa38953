// Reads measured layer times from `perfmodel measure --format json` ("perfmodel.measurement/1").
#include <nlohmann/json.hpp>

#include "perfmodel/report/roofline_view.hpp"

namespace perfmodel::report {
namespace {

/// 1-based line and column of a byte offset (nlohmann reports offsets).
SourceLoc loc_of(const std::string &text, size_t offset, const std::string &file) {
  SourceLoc loc{file, 1, 1};
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      loc.line++;
      loc.column = 1;
    } else {
      loc.column++;
    }
  }
  return loc;
}

} // namespace

std::map<std::string, double> parse_measurement_json(const std::string &text,
                                                     const std::string &file) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error &e) {
    // e.byte is one past the offending character.
    std::string what = e.what();
    if (auto pos = what.find("parse error"); pos != std::string::npos)
      what = what.substr(pos);
    throw InputError(loc_of(text, e.byte ? e.byte - 1 : 0, file), "invalid JSON: " + what);
  }
  SourceLoc at{file, 0, 0};
  if (!j.is_object())
    throw InputError(at, "expected a JSON object (perfmodel.measurement/1)");
  if (!j.contains("schema") || !j["schema"].is_string() ||
      j["schema"].get<std::string>().rfind("perfmodel.measurement/", 0) != 0)
    throw InputError(at, "not a measurement file: \"schema\" must be \"perfmodel.measurement/1\"");
  if (j["schema"] != "perfmodel.measurement/1")
    throw InputError(at, "unsupported schema " + j["schema"].get<std::string>() +
                             " (this perfmodel reads perfmodel.measurement/1)");
  if (!j.contains("layers") || !j["layers"].is_array())
    throw InputError(at, "\"layers\" must be an array");
  std::map<std::string, double> out;
  size_t i = 0;
  for (const auto &l : j["layers"]) {
    std::string where = "layers[" + std::to_string(i++) + "]";
    if (!l.is_object() || !l.contains("name") || !l["name"].is_string())
      throw InputError(at, where + ": needs a string \"name\"");
    if (!l.contains("measured_seconds") || l["measured_seconds"].is_null())
      continue;
    if (!l["measured_seconds"].is_number())
      throw InputError(at, where + ": \"measured_seconds\" must be a number");
    double s = l["measured_seconds"].get<double>();
    if (s > 0)
      out[l["name"].get<std::string>()] = s;
  }
  return out;
}

} // namespace perfmodel::report
