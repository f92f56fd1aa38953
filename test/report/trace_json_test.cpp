// Tests of the JSON printer: schema, field names and units of perfmodel.trace/2.
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/report/trace/trace_report.hpp"
#include "trace_report_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("json has the perfmodel.trace/2 schema with times in seconds") {
  report::TraceReport r = tiny_report();
  nlohmann::json j = nlohmann::json::parse(report::render_trace(r, report::Format::json));
  CHECK(j["schema"] == "perfmodel.trace/2");
  const auto &ov = j["overview"];
  REQUIRE(ov["steps"].size() == 2);
  for (const char *k : {"step", "kernel", "memcpy", "memset", "communication", "runtime",
                        "dataloader", "cpu_exec", "other", "total"})
    CHECK_MESSAGE(ov["steps"][0].contains(k), k);
  CHECK(ov["steps"][0]["kernel"].get<double>() == rel(60e-6));
  CHECK(ov["average"]["total"].get<double>() == rel(85e-6));
  CHECK(ov["gpu_utilization"].get<double>() == doctest::Approx(45.0 / 85));
  const auto &op = j["operators"][0];
  for (const char *k : {"name", "calls", "device_self", "device_total", "host_self", "host_total"})
    CHECK_MESSAGE(op.contains(k), k);
  const auto &k = j["kernels"][0];
  for (const char *f : {"name", "calls", "total", "mean", "max", "min"})
    CHECK_MESSAGE(k.contains(f), f);
  const auto &e = j["attainment"][0];
  for (const char *f : {"name", "op", "calls", "flops", "bytes", "device_seconds",
                        "roofline_seconds", "fraction_of_roofline"})
    CHECK_MESSAGE(e.contains(f), f);
  CHECK(e["flops"].get<double>() == 32);
  CHECK(j["unattributed"].size() == 3);
}
