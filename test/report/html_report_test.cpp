// Tests of the HTML report: escaping, the layer table's rows and sort data, the plots as
// well-formed SVG with a titled point per layer, the measured and trace sections, and that the
// page refers to nothing outside itself. The page in a browser: test/cli/report_browser.py.
#include <doctest/doctest.h>

#include <regex>

#include "../core/sweep_fixtures.hpp"
#include "perfmodel/report/html_report.hpp"
#include "perfmodel/rollup.hpp"
#include "report/html.hpp"
#include "trace_report_fixtures.hpp"
#include "xml_check.hpp"

using namespace perfmodel;

namespace {

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size()))
    ++n;
  return n;
}

// Every <svg>...</svg> of a page.
std::vector<std::string> svgs(const std::string &page) {
  std::vector<std::string> out;
  for (size_t a = page.find("<svg"); a != std::string::npos; a = page.find("<svg", a + 1))
    out.push_back(page.substr(a, page.find("</svg>", a) + 6 - a));
  return out;
}

// The element with id `id` up to its closing tag `end` (the first after it).
std::string element(const std::string &page, const std::string &id, const std::string &end) {
  const size_t a = page.find("id=\"" + id + "\"");
  REQUIRE(a != std::string::npos);
  return page.substr(a, page.find(end, a) - a);
}

struct Fixture {
  Graph g = test::tiny_net(4);
  HwSpec hw = test::tiny_gpu();
  Prediction p;
  report::PredictionContext ctx;
  Fixture() { p = predict(g, hw, PredictOptions{}); }
  std::string page(const report::HtmlReportInputs &in = {}) {
    return report::render_html_report(g, p, hw, ctx, in);
  }
};

} // namespace

TEST_CASE("esc: markup, quotes and ampersands become entities; bad bytes become U+FFFD") {
  using report::html::esc;
  CHECK(esc("<script>a&b</script>") == "&lt;script&gt;a&amp;b&lt;/script&gt;");
  CHECK(esc("x\" onload='y'") == "x&quot; onload=&#39;y&#39;");
  CHECK(esc("caf\xC3\xA9 \xE2\x86\x92") == "caf\xC3\xA9 \xE2\x86\x92"); // UTF-8 kept
  CHECK(esc("a\xFF"
            "b") == "a\xEF\xBF\xBD"
                    "b");                               // not UTF-8
  CHECK(esc("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD"); // overlong '/'
  CHECK(esc("\xE2\x82") == "\xEF\xBF\xBD\xEF\xBF\xBD"); // cut short
  CHECK(esc(std::string("a\0b\x1b", 4)) == "a\xEF\xBF\xBD"
                                           "b\xEF\xBF\xBD");
  CHECK(esc("tab\tnew\nline") == "tab\tnew\nline");
}

TEST_CASE("a layer named <script> is written as text everywhere") {
  Fixture f;
  f.g.name = "<em>model</em>";
  f.g.layers[0].name = "<script>alert('x')</script>";
  f.g.layers[3].name = "fc\" onmouseover=\"y";
  f.p = predict(f.g, f.hw, PredictOptions{});
  report::HtmlReportInputs in;
  in.measured = {{f.g.layers[0].name, 1e-6}, {"</script><script>z()", 1.0}};
  in.measured_source = "<m>.json";
  const std::string page = f.page(in);
  CHECK(count(page, "<script") == 1); // the page's own
  CHECK(page.find("<em>") == std::string::npos);
  CHECK(page.find("onmouseover=\"") == std::string::npos);
  CHECK(page.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") != std::string::npos);
  CHECK(page.find("fc&quot; onmouseover=&quot;y") != std::string::npos);
  CHECK(page.find("&lt;/script&gt;&lt;script&gt;z()") != std::string::npos); // unmatched
  CHECK(page.find("&lt;m&gt;.json") != std::string::npos);
  CHECK(page.find("<title>&lt;em&gt;model&lt;/em&gt; on gpu1") != std::string::npos);
}

TEST_CASE("the layer table: a row per layer, sort keys and raw values, bound pills") {
  Fixture f;
  const std::string page = f.page();
  const std::string table = element(page, "layers", "</table>");
  CHECK(count(table, "<tr data-i=") == f.p.layers.size());
  for (const char *key : {"index", "name", "op", "flops", "bytes", "ai", "time", "share", "bound"})
    CHECK_MESSAGE(table.find(std::string("data-key=\"") + key + "\"") != std::string::npos, key);
  CHECK(table.find("data-key=\"measured\"") == std::string::npos); // without measurements
  // The time cells carry the predicted seconds, which sorting compares.
  const std::regex time_cell("data-v=\"([0-9.e+-]+)\">([0-9.]+[munp]?s)<");
  std::vector<double> times;
  for (auto it = std::sregex_iterator(table.begin(), table.end(), time_cell);
       it != std::sregex_iterator(); ++it)
    times.push_back(std::stod((*it)[1]));
  REQUIRE(times.size() == f.p.layers.size());
  for (size_t i = 0; i < times.size(); ++i)
    CHECK(times[i] == doctest::Approx(f.p.layers[i].timing.seconds).epsilon(1e-5));
  for (const LayerPrediction &lp : f.p.layers) {
    const std::string b(to_string(lp.timing.bound));
    CHECK_MESSAGE(
        table.find("<span class=\"pill b-" + b + "\">" + b + "</span>") != std::string::npos, b);
  }
  CHECK(page.find("#sort=") != std::string::npos); // the script reads the fragment
}

TEST_CASE("the summary states the totals and the bound shares that sum to one") {
  Fixture f;
  const std::string page = f.page();
  const std::string summary = element(page, "summary", "</section>");
  CHECK(summary.find(report::si(f.p.pass_seconds(), "s")) != std::string::npos);
  CHECK(summary.find(report::si(double(f.p.totals.cost.flops), "F")) != std::string::npos);
  CHECK(summary.find(report::si(f.p.totals.energy_joules, "J")) != std::string::npos);
  const Totals &t = f.p.totals;
  const double sum = t.seconds_compute_bound + t.seconds_memory_bound + t.seconds_overhead_bound;
  REQUIRE(sum > 0);
  CHECK(summary.find("compute-bound <b>" + report::pct(t.seconds_compute_bound / sum) + "</b>") !=
        std::string::npos);
  CHECK(count(element(page, "op-types", "</table>"), "<tr data-i=") == rollup(f.p).op_types.size());
}

TEST_CASE("the plots are well-formed SVG; the roofline has a titled point per drawable layer") {
  Fixture f;
  report::HtmlReportInputs in;
  in.measured = {{"conv", 2e-6}, {"fc", 1e-6}};
  const std::string page = f.page(in);
  const auto figures = svgs(page);
  REQUIRE(figures.size() == 3); // profile, roofline, measured
  for (const std::string &svg : figures)
    CHECK_MESSAGE(test::xml_problem(svg) == "", svg.substr(0, 80));
  const std::string &roofline = figures[1];
  const report::RooflineData d = report::make_roofline(f.p, f.hw, in.measured);
  size_t drawable = 0;
  for (const auto &pt : d.points)
    if (pt.drawable()) {
      ++drawable;
      CHECK_MESSAGE(roofline.find("<title>" + pt.name + " (" + pt.op + ")") != std::string::npos,
                    pt.name);
    }
  // A filled point per drawable layer and a hollow one per measured layer.
  CHECK(count(roofline, "<circle class=\"pt\"") == drawable + 2);
  CHECK(roofline.find("simt fp32") != std::string::npos);   // the used ceiling, named
  CHECK(roofline.find("tensor fp16") == std::string::npos); // an unused one is not drawn
  CHECK(count(figures[2], "<circle") == 2);
  // The profile: a bar per layer with time, slowest first.
  CHECK(count(figures[0], "class=\"pb\"") == drawable);
}

TEST_CASE("measured times: the error per layer and the section's summary") {
  Fixture f;
  report::HtmlReportInputs in;
  const double conv = f.p.layers[0].timing.seconds;
  in.measured = {{"conv", conv / 2}, {"nope", 1.0}};
  in.measured_source = "m.json";
  const std::string page = f.page(in);
  const std::string section = element(page, "measured", "</section>");
  CHECK(section.find("1 of 4 layers have a measured time in m.json") != std::string::npos);
  CHECK(section.find("1 measured name(s) match no layer (first: nope)") != std::string::npos);
  CHECK(section.find("+100.0%") != std::string::npos); // predicted twice the measured
  const std::string table = element(page, "layers", "</table>");
  CHECK(table.find("data-key=\"error\"") != std::string::npos);
  CHECK(count(table, ">+100.0%<") == 1);
}

TEST_CASE("a trace adds its overview, operators, kernels and attainment tables") {
  Fixture f;
  report::HtmlReportInputs in;
  in.trace = test::tiny_report();
  const std::string page = f.page(in);
  const std::string section = element(page, "trace", "<section id=\"layers-section\"");
  CHECK(section.find("tiny.json") != std::string::npos);
  for (const char *id :
       {"trace-overview", "trace-operators", "trace-kernels", "trace-attainment-0"})
    CHECK_MESSAGE(section.find(std::string("id=\"") + id + "\"") != std::string::npos, id);
  CHECK(count(element(page, "trace-operators", "</table>"), "<tr data-i=") ==
        in.trace->operators->size());
  CHECK(section.find("<tfoot>") != std::string::npos); // the overview's share row
  CHECK(page.find("href=\"#trace\"") != std::string::npos);
}

TEST_CASE("the page is self-contained: no URL, no external resource, a policy that allows none") {
  Fixture f;
  report::HtmlReportInputs in;
  in.trace = test::tiny_report();
  const std::string page = f.page(in);
  CHECK(page.find("http:") == std::string::npos);
  CHECK(page.find("https:") == std::string::npos);
  CHECK(page.find(" src=") == std::string::npos);
  CHECK(page.find("@import") == std::string::npos);
  CHECK(page.find("default-src 'none'") != std::string::npos);
  const std::regex href("href=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), href); it != std::sregex_iterator();
       ++it)
    CHECK_MESSAGE((*it)[1].str().rfind("#", 0) == 0, (*it)[1].str());
}

TEST_CASE(
    "report_trace_views computes the trace views as `perfmodel trace --hw` does, cut to top") {
  const test::LoadedTrace t = test::load_test_trace("tiny.json");
  const HwSpec hw = test::v100();
  const report::TraceReport all = report::report_trace_views(t.trace, "tiny.json", &hw, nullptr, 0);
  const report::TraceReport full = test::tiny_report(); // the views computed one by one
  REQUIRE(all.overview);
  CHECK(all.overview->average.total == doctest::Approx(full.overview->average.total));
  REQUIRE(all.operators);
  CHECK(all.operators->size() == full.operators->size());
  REQUIRE(all.kernels);
  CHECK(all.kernels->size() == full.kernels->size());
  CHECK(bool(all.attainment) == all.overview->has_device);
  const report::TraceReport one = report::report_trace_views(t.trace, "tiny.json", &hw, nullptr, 1);
  CHECK(one.operators->size() == std::min<size_t>(1, full.operators->size()));
  CHECK(one.kernels->size() == std::min<size_t>(1, full.kernels->size()));
  const report::TraceReport no_hw =
      report::report_trace_views(t.trace, "tiny.json", nullptr, nullptr, 0);
  CHECK_FALSE(no_hw.attainment);
}
