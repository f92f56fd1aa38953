// The trace printers' input: every view of test/data/trace/tiny.json (the trace tests' fixtures
// with the report library's TraceReport around them).
#pragma once

#include "../trace/trace_fixtures.hpp"
#include "perfmodel/report/trace/trace_report.hpp"

namespace perfmodel::test {

/// Every view of tiny.json, attainment on v100(): the input of the printer tests.
inline report::TraceReport tiny_report() {
  LoadedTrace t = load_test_trace("tiny.json");
  report::TraceReport r;
  r.file = "tiny.json";
  r.overview = trace::compute_overview(t.trace, t.links);
  r.operators = trace::operator_table(t.trace, t.tree);
  r.kernels = trace::kernel_table(t.trace);
  r.attainment = trace::attainment_view(t.trace, t.links, t.tree, v100());
  return r;
}

} // namespace perfmodel::test
