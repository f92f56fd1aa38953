// Chrome-trace JSON -> trace::Trace: nlohmann-json parsing, field type checks, located errors.
#include "io/trace/read_trace.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "io/files.hpp"
#include "io/trace/gzip.hpp"
#include "io/trace/json_locate.hpp"
#include "perfmodel/error.hpp"

namespace perfmodel::io {
namespace {

using nlohmann::json;

// Throws the error for event `index`, located at the event's first character.
[[noreturn]] void event_error(std::string_view text, const std::string& file, size_t index,
                              const json& ev, const std::string& what) {
  std::string name;
  if (ev.is_object()) {
    auto it = ev.find("name");
    if (it != ev.end() && it->is_string()) name = " (\"" + it->get<std::string>() + "\")";
  }
  throw InputError(location_of(text, event_offset(text, index), file),
                   "traceEvents[" + std::to_string(index) + "]" + name + ": " + what);
}

std::string type_name(const json& v) { return v.type_name(); }

std::string id_string(const json& v) {
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

struct EventParser {
  std::string_view text;
  const std::string& file;

  [[noreturn]] void fail(size_t i, const json& ev, const std::string& what) const {
    event_error(text, file, i, ev, what);
  }

  double number(size_t i, const json& ev, const char* key, bool required) const {
    auto it = ev.find(key);
    if (it == ev.end()) {
      if (required) fail(i, ev, std::string("missing \"") + key + "\"");
      return 0;
    }
    if (!it->is_number())
      fail(i, ev, std::string("\"") + key + "\" must be a number, not " + type_name(*it));
    double v = it->get<double>();
    if (!std::isfinite(v)) fail(i, ev, std::string("\"") + key + "\" is not finite");
    return v;
  }

  int64_t id_arg(size_t i, const json& ev, const json& args, const char* key) const {
    auto it = args.find(key);
    if (it == args.end() || it->is_null()) return -1;
    if (!it->is_number_integer())
      fail(i, ev, std::string("args \"") + key + "\" must be an integer, not " + type_name(*it));
    return it->get<int64_t>();
  }

  std::vector<trace::Dims> dims(size_t i, const json& ev, const json& v) const {
    if (!v.is_array()) fail(i, ev, "args \"Input Dims\" must be a list, not " + type_name(v));
    std::vector<trace::Dims> out;
    out.reserve(v.size());
    for (const json& arg : v) {
      if (!arg.is_array())
        fail(i, ev, "args \"Input Dims\" entries must be lists, not " + type_name(arg));
      trace::Dims d;
      bool tensor = true;
      for (const json& x : arg) {
        if (x.is_array()) {  // a TensorList argument: no single shape
          tensor = false;
          break;
        }
        if (!x.is_number_integer() || x.get<int64_t>() < 0)
          fail(i, ev, "args \"Input Dims\" must hold non-negative integers, found " + x.dump());
        d.push_back(x.get<int64_t>());
      }
      out.push_back(tensor ? std::move(d) : trace::Dims{});
    }
    return out;
  }

  std::optional<std::array<int64_t, 3>> triple(size_t i, const json& ev, const json& args,
                                               const char* key) const {
    auto it = args.find(key);
    if (it == args.end()) return std::nullopt;
    if (!it->is_array() || it->size() != 3)
      fail(i, ev, std::string("args \"") + key + "\" must be a list of 3 integers");
    std::array<int64_t, 3> r{};
    for (size_t k = 0; k < 3; ++k) {
      if (!(*it)[k].is_number_integer())
        fail(i, ev, std::string("args \"") + key + "\" must be a list of 3 integers");
      r[k] = (*it)[k].get<int64_t>();
    }
    return r;
  }

  // Fills `out` from a complete event; ts/dur stay in microseconds until the origin is known.
  void parse(size_t i, const json& ev, trace::TraceEvent& out, double& ts_us,
             double& dur_us) const {
    auto name = ev.find("name");
    if (name == ev.end() || !name->is_string())
      fail(i, ev, name == ev.end() ? "missing \"name\""
                                   : "\"name\" must be a string, not " + type_name(*name));
    out.name = name->get<std::string>();
    auto cat = ev.find("cat");
    if (cat != ev.end() && !cat->is_string())
      fail(i, ev, "\"cat\" must be a string, not " + type_name(*cat));
    out.kind = cat == ev.end() ? trace::EventKind::other
                               : trace::kind_of_category(cat->get_ref<const std::string&>());
    ts_us = number(i, ev, "ts", true);
    dur_us = number(i, ev, "dur", true);
    if (dur_us < 0) fail(i, ev, "\"dur\" is negative");
    if (auto p = ev.find("pid"); p != ev.end()) out.pid = id_string(*p);
    if (auto t = ev.find("tid"); t != ev.end()) out.tid = id_string(*t);
    out.index = i;
    if ((out.kind == trace::EventKind::op || out.kind == trace::EventKind::user_annotation) &&
        out.name.rfind("ProfilerStep#", 0) == 0) {
      out.kind = trace::EventKind::profiler_step;
      try {
        out.step = std::stoi(out.name.substr(13));
      } catch (const std::exception&) {
        fail(i, ev, "step name \"" + out.name + "\" has no number after '#'");
      }
    }
    auto a = ev.find("args");
    if (a == ev.end() || a->is_null()) return;
    if (!a->is_object()) fail(i, ev, "\"args\" must be an object, not " + type_name(*a));
    const json& args = *a;
    out.external_id = id_arg(i, ev, args, "External id");
    if (out.external_id < 0) out.external_id = id_arg(i, ev, args, "external id");
    out.correlation = id_arg(i, ev, args, "correlation");
    auto d = args.find("Input Dims");
    if (d == args.end()) d = args.find("Input dims");
    if (d != args.end()) out.input_dims = dims(i, ev, *d);
    if (auto t = args.find("Input type"); t != args.end() && t->is_array()) {
      for (const json& s : *t) out.input_types.push_back(s.is_string() ? s.get<std::string>() : "");
    }
    if (out.is_device()) {
      out.grid = triple(i, ev, args, "grid");
      out.block = triple(i, ev, args, "block");
    }
  }
};

}  // namespace

trace::Trace parse_trace(std::string_view data, const std::string& file) {
  std::string inflated;
  std::string_view text = data;
  if (is_gzip(data)) {
    inflated = gunzip(data, file);
    text = inflated;
  }
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
    size_t at = what.find("syntax error");
    if (at == std::string::npos) at = what.find(": ");
    std::string msg = at == std::string::npos ? what : what.substr(at);
    if (text.empty()) msg = "empty file: expected a JSON trace";
    throw InputError(location_of(text, e.byte > 0 ? e.byte - 1 : 0, file), "not valid JSON: " + msg);
  }
  const json* events = nullptr;
  if (doc.is_array()) {
    events = &doc;
  } else if (doc.is_object()) {
    auto it = doc.find("traceEvents");
    if (it == doc.end())
      throw InputError(location_of(text, 0, file),
                       "not a profiler trace: the top-level object has no \"traceEvents\"");
    if (!it->is_array())
      throw InputError(location_of(text, 0, file),
                       "\"traceEvents\" must be a list, not " + type_name(*it));
    events = &*it;
  } else {
    throw InputError(location_of(text, 0, file),
                     "not a profiler trace: expected an object with \"traceEvents\", found " +
                         type_name(doc));
  }

  EventParser parser{text, file};
  trace::Trace out;
  out.file = file;
  std::vector<std::pair<double, double>> times;  // ts, dur in microseconds
  out.events.reserve(events->size());
  times.reserve(events->size());
  double origin = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < events->size(); ++i) {
    const json& ev = (*events)[i];
    if (!ev.is_object()) parser.fail(i, ev, "an event must be an object, not " + type_name(ev));
    auto ph = ev.find("ph");
    if (ph == ev.end()) continue;
    if (!ph->is_string()) parser.fail(i, ev, "\"ph\" must be a string, not " + type_name(*ph));
    if (ph->get_ref<const std::string&>() != "X") continue;
    trace::TraceEvent e;
    double ts = 0, dur = 0;
    parser.parse(i, ev, e, ts, dur);
    origin = std::min(origin, ts);
    out.events.push_back(std::move(e));
    times.emplace_back(ts, dur);
  }
  out.origin_us = out.events.empty() ? 0 : origin;
  for (size_t k = 0; k < out.events.size(); ++k) {
    double rel = times[k].first - out.origin_us;  // exact for integer microseconds
    out.events[k].start = rel * 1e-6;
    out.events[k].end = (rel + times[k].second) * 1e-6;
  }
  return out;
}

trace::Trace read_trace(const std::string& path) { return parse_trace(read_file(path), path); }

}  // namespace perfmodel::io
