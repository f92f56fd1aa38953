// Streaming (SAX) extraction of trace events from Chrome-trace JSON: no DOM is built, which
// makes reading a 15 MB trace about three times faster than parsing it into nlohmann::json.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfmodel/trace/trace.hpp"

namespace perfmodel::io {

/// A complete ("ph": "X") event as read, with ts/dur still in microseconds.
struct RawEvent {
  trace::TraceEvent event;
  double ts_us = 0, dur_us = 0;
};

/// What went wrong where: `index` is the event's position in the events array, or npos when
/// the problem is the document itself; `byte` is the syntax error's offset (JSON errors only).
struct SaxProblem {
  static constexpr size_t npos = static_cast<size_t>(-1);
  bool syntax = false;
  size_t byte = 0;
  size_t index = npos;
  std::string event_name;
  std::string message;
};

/// Reads the events of `text`. Returns false and fills `problem` on the first bad input.
bool read_events_sax(std::string_view text, std::vector<RawEvent> &out, SaxProblem &problem);

} // namespace perfmodel::io
