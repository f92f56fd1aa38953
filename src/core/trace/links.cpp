// Correlation matching of runtime calls and device events (both orders of appearance).
#include "perfmodel/trace/links.hpp"

#include <unordered_map>

namespace perfmodel::trace {

Links link_events(const Trace &t) {
  Links l;
  l.launched.resize(t.events.size());
  std::unordered_map<int64_t, size_t> runtime_of; // correlation -> runtime event index
  runtime_of.reserve(t.events.size() / 4);
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TraceEvent &e = t.events[i];
    if (e.kind == EventKind::runtime) {
      l.runtimes.push_back(i);
      if (e.correlation >= 0)
        runtime_of.emplace(e.correlation, i);
    } else if (e.is_device()) {
      l.devices.push_back(i);
    }
  }
  for (size_t d : l.devices) {
    auto it = runtime_of.find(t.events[d].correlation);
    if (it == runtime_of.end()) {
      l.orphans.push_back(d);
    } else {
      l.launched[it->second].push_back(d);
    }
  }
  return l;
}

double launched_seconds(const Trace &t, const Links &l, size_t rt) {
  double s = 0;
  for (size_t d : l.launched[rt])
    s += t.events[d].duration();
  return s;
}

} // namespace perfmodel::trace
