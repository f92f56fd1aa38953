// Tests of runtime-call / device-event matching by correlation id.
#include "perfmodel/trace/links.hpp"

#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "trace_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("runtime calls own the device events of their correlation id") {
  LoadedTrace t = load_test_trace("tiny.json");
  CHECK(t.links.runtimes.size() == 3);
  CHECK(t.links.devices.size() == 4);
  REQUIRE(t.links.orphans.size() == 1);
  CHECK(t.trace.events[t.links.orphans[0]].name == "orphan_kernel");
  size_t rt = t.links.runtimes[0];
  REQUIRE(t.links.launched[rt].size() == 1);
  CHECK(t.trace.events[t.links.launched[rt][0]].name == "relu_kernel");
  CHECK(trace::launched_seconds(t.trace, t.links, rt) == rel(60e-6));
}

TEST_CASE("a device event listed before its runtime call is still matched") {
  trace::Trace t;
  trace::TraceEvent k, r;
  k.kind = trace::EventKind::kernel;
  k.correlation = 5;
  k.end = 1e-6;
  r.kind = trace::EventKind::runtime;
  r.correlation = 5;
  t.events = {k, r};
  trace::Links l = trace::link_events(t);
  CHECK(l.orphans.empty());
  CHECK(l.launched[1] == std::vector<size_t>{0});
}
