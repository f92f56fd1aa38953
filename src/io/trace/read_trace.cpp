// Chrome-trace JSON -> trace::Trace: gzip detection, streaming JSON parse, located errors.
#include "perfmodel/trace/read_trace.hpp"

#include <limits>
#include <string>

#include "io/trace/event_sax.hpp"
#include "io/trace/json_locate.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/trace/gzip.hpp"

namespace perfmodel::io {
namespace {

[[noreturn]] void raise(std::string_view text, const std::string &file, const SaxProblem &p) {
  if (p.syntax) {
    // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 5: syntax ..."
    const std::string &what = p.message;
    size_t at = what.find("syntax error");
    std::string msg = at == std::string::npos ? what : what.substr(at);
    if (text.empty())
      msg = "empty file: expected a JSON trace";
    throw InputError(location_of(text, p.byte > 0 ? p.byte - 1 : 0, file),
                     "not valid JSON: " + msg);
  }
  if (p.index == SaxProblem::npos)
    throw InputError(location_of(text, 0, file), p.message);
  std::string name = p.event_name.empty() ? "" : " (\"" + p.event_name + "\")";
  throw InputError(location_of(text, event_offset(text, p.index), file),
                   "traceEvents[" + std::to_string(p.index) + "]" + name + ": " + p.message);
}

// parse_trace's work; `owned`, when given, holds `data` and is released once the events are
// read (a 1 GB trace then never has its text and both event lists in memory at once).
trace::Trace parse(std::string_view data, const std::string &file, std::string *owned) {
  std::string inflated;
  std::string_view text = data;
  if (is_gzip(data)) {
    inflated = gunzip(data, file);
    text = inflated;
    if (owned) // the compressed bytes are done with
      std::string().swap(*owned);
  }
  std::vector<RawEvent> raw;
  raw.reserve(text.size() / 250);
  SaxProblem problem;
  if (!read_events_sax(text, raw, problem))
    raise(text, file, problem);
  std::string().swap(inflated);
  if (owned)
    std::string().swap(*owned);

  trace::Trace out;
  out.file = file;
  double origin = std::numeric_limits<double>::infinity();
  for (const RawEvent &r : raw)
    origin = std::min(origin, r.ts_us);
  out.origin_us = raw.empty() ? 0 : origin;
  out.events.reserve(raw.size());
  for (RawEvent &r : raw) {
    // Both ends from exact microsecond values, so touching events still touch in seconds.
    const double rel = r.ts_us - out.origin_us;
    r.event.start = rel * 1e-6;
    r.event.end = (rel + r.dur_us) * 1e-6;
    out.events.push_back(std::move(r.event));
  }
  return out;
}

} // namespace

trace::Trace parse_trace(std::string_view data, const std::string &file) {
  return parse(data, file, nullptr);
}

trace::Trace read_trace(const std::string &path) {
  std::string data = read_file(path);
  return parse(data, path, &data);
}

} // namespace perfmodel::io
