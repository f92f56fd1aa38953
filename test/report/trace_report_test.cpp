// Tests of the table, CSV and Markdown printers of the trace views.
#include "perfmodel/report/trace/trace_report.hpp"

#include <doctest/doctest.h>

#include <sstream>

#include "trace_report_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("table output has every view with human units") {
  std::string s = report::render_trace(tiny_report(), report::Format::table);
  CHECK(s.find("Overview: 2 steps, average 85.0us, GPU utilization 52.9%") != std::string::npos);
  CHECK(s.find("Recommendation: 11.8% of the step time") != std::string::npos);
  CHECK(s.find("aten::relu") != std::string::npos);
  CHECK(s.find("relu_kernel") != std::string::npos);
  CHECK(s.find("Roofline attainment on v100-test") != std::string::npos);
  CHECK(s.find("Device activity not attributed") != std::string::npos);
  CHECK(s.find("stray_kernel") != std::string::npos);
}

TEST_CASE("csv output: raw SI values, units in the header, one view column") {
  std::string s = report::render_trace(tiny_report(), report::Format::csv);
  CHECK(s.find("view,step,Kernel (s),Memcpy (s)") == 0);
  CHECK(s.find("\noverview,1,6e-05,0,") != std::string::npos);
  CHECK(s.find("\nview,operator,calls,device self (s)") != std::string::npos);
  CHECK(s.find("\noperators,aten::relu,1,6e-05,6e-05,2e-05,3e-05\n") != std::string::npos);
  // Kernel names with commas are quoted (RFC 4180).
  report::TraceReport r;
  r.kernels = std::vector<trace::KernelRow>{{"void k<float, 2>(int, int)", 1, 1, 1, 1, 1}};
  CHECK(report::render_trace(r, report::Format::csv).find("\"void k<float, 2>(int, int)\"") !=
        std::string::npos);
}

TEST_CASE("markdown output has a title and pipe tables") {
  std::string s = report::render_trace(tiny_report(), report::Format::md);
  CHECK(s.find("# Trace tiny.json") == 0);
  CHECK(s.find("## Operators\n\n| operator | calls |") != std::string::npos);
  CHECK(s.find("| --- | ---: |") != std::string::npos);
}

TEST_CASE("sorting and top-N") {
  report::TraceReport r = tiny_report();
  CHECK(report::sort_and_limit(r, "name", 1));
  REQUIRE(r.operators->size() == 1);
  CHECK(r.operators->front().name == "aten::copy_");
  CHECK(r.kernels->front().name == "orphan_kernel");
  CHECK(r.attainment->unattributed.size() == 1);
  report::TraceReport k;
  k.kernels = trace::kernel_table(load_test_trace("tiny.json").trace);
  CHECK(report::sort_and_limit(k, "min", 0));
  CHECK(k.kernels->front().name == "relu_kernel");
  CHECK_FALSE(report::sort_and_limit(k, "device_self", 0)); // an operator key only
  CHECK(report::sort_and_limit(k, "", 2));
  CHECK(k.kernels->size() == 2);
}

TEST_CASE("the ten operators with the most time lost print, ranked") {
  const LoadedTrace &t = shared_trace(0);
  report::TraceReport r;
  r.attainment = trace::attainment_view(t.trace, t.links, t.tree, v100());
  REQUIRE(r.attainment->rows.size() > 10);
  REQUIRE(report::sort_and_limit(r, "", 10));
  std::string s = report::render_trace(r, report::Format::table);
  std::istringstream in(s);
  std::string line;
  int ranked = 0;
  while (std::getline(in, line))
    if (line.rfind(std::to_string(ranked + 1) + " ", 0) == 0)
      ++ranked;
  CHECK(ranked == 10);
  CHECK(s.find("aten::cudnn_convolution") != std::string::npos);
  CHECK(s.find("\n11 ") == std::string::npos); // --top 10
}
