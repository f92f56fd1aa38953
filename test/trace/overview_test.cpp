// Tests of the step overview: a hand-computed small trace and the TensorBoard plugin's expected
// results for the two shared ResNet-50 traces.
#include "perfmodel/trace/overview.hpp"

#include <doctest/doctest.h>

#include <regex>

#include "../test_approx.hpp"
#include "trace_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("overview of the hand-made trace: steps extended to their device work") {
  LoadedTrace t = load_test_trace("tiny.json");
  trace::Overview ov = trace::compute_overview(t.trace, t.links);
  REQUIRE(ov.steps.size() == 2);
  // Step 1: 1000..1115 us (its kernel ends at 1115); step 2: 1115..1170 (the stray kernel).
  const trace::StepTimes &a = ov.steps[0];
  CHECK(a.step == "1");
  CHECK(a.total == rel(115e-6));
  CHECK(a.kernel == rel(60e-6));
  CHECK(a.runtime == rel(10e-6));
  CHECK(a.dataloader == rel(20e-6));
  CHECK(a.cpu_exec == rel(15e-6));
  CHECK(a.other == rel(10e-6));
  CHECK(a.memcpy == 0);
  const trace::StepTimes &b = ov.steps[1];
  CHECK(b.total == rel(55e-6));
  CHECK(b.kernel == rel(30e-6));
  CHECK(b.memcpy == rel(10e-6));
  CHECK(b.runtime == rel(7e-6));
  CHECK(b.cpu_exec == rel(2e-6));
  CHECK(b.other == rel(6e-6));
  CHECK(ov.average.total == rel(85e-6));
  CHECK(ov.gpu_utilization == doctest::Approx(45.0 / 85.0));
  REQUIRE(ov.recommendations.size() == 1); // DataLoader 11.8% > 5%
  CHECK(ov.recommendations[0].kind == trace::Recommendation::Kind::dataloader);
  CHECK(ov.recommendations[0].fraction == doctest::Approx(20.0 / 170.0));
}

TEST_CASE("overview without ProfilerStep events is one step over the host span") {
  trace::Trace t;
  trace::TraceEvent op;
  op.kind = trace::EventKind::op;
  op.name = "aten::mm";
  op.start = 0;
  op.end = 2e-6;
  t.events.push_back(op);
  trace::Overview ov = trace::compute_overview(t, trace::link_events(t));
  REQUIRE(ov.steps.size() == 1);
  CHECK(ov.steps[0].step == "0");
  CHECK(ov.steps[0].cpu_exec == rel(2e-6));
  CHECK(ov.gpu_utilization == 0);
}

namespace {

// The plugin's step rows: role values in its tooltips ("<b>Memset: 69us</b>"), since its column
// labels of Memset and Communication are swapped.
std::map<std::string, double> tooltip_values(const nlohmann::json &row, double *total) {
  std::map<std::string, double> v;
  static const std::regex role("<b>([^:<]+): ([0-9.]+)us</b>"), tot("Total: ([0-9.]+)us");
  for (const auto &cell : row) {
    if (!cell.is_string())
      continue;
    std::smatch m;
    const std::string s = cell.get<std::string>();
    if (std::regex_search(s, m, role))
      v[m[1]] = std::stod(m[2]);
    if (std::regex_search(s, m, tot))
      *total = std::stod(m[1]);
  }
  return v;
}

void check_against_plugin(int workers) {
  const LoadedTrace &t = shared_trace(workers);
  trace::Overview ov = trace::compute_overview(t.trace, t.links);
  const nlohmann::json &exp = expected(workers, 0);
  const auto &rows = exp["steps"]["rows"];
  REQUIRE(ov.steps.size() == rows.size());
  const auto &names = trace::role_names();
  for (size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(i);
    CHECK(ov.steps[i].step == rows[i][0].get<std::string>());
    double total = -1;
    auto v = tooltip_values(rows[i], &total);
    REQUIRE(v.size() == names.size());
    CHECK(close_us(ov.steps[i].total, total));
    auto mine = trace::role_values(ov.steps[i]);
    for (size_t r = 0; r < names.size(); ++r) {
      CAPTURE(names[r]);
      CHECK(close_us(mine[r], v.at(names[r])));
    }
  }
  const auto &perf = exp["performance"][0];
  CHECK(close_us(ov.average.total, perf["value"].get<double>()));
  auto avg = trace::role_values(ov.average);
  for (const auto &c : perf["children"]) {
    size_t r = std::find(names.begin(), names.end(), c["name"].get<std::string>()) - names.begin();
    REQUIRE(r < names.size());
    CAPTURE(names[r]);
    CHECK(close_us(avg[r], c["value"].get<double>()));
    CHECK(std::abs(100 * avg[r] / ov.average.total - c["extra"].get<double>()) <= 0.005 + 1e-9);
  }
  // "GPU Utilization of GPU0": "67.82 %"
  for (const auto &e : exp["environments"]) {
    const std::string title = e["title"];
    if (title.rfind("GPU Utilization", 0) != 0)
      continue;
    double pct = std::stod(e["value"].get<std::string>());
    CHECK(std::abs(100 * ov.gpu_utilization - pct) <= 0.005 + 1e-9);
  }
  const bool plugin_has =
      exp["recommendations"].get<std::string>().find("DataLoader") != std::string::npos;
  const bool mine_has = !ov.recommendations.empty() &&
                        ov.recommendations[0].kind == trace::Recommendation::Kind::dataloader;
  CHECK(plugin_has == mine_has);
  CHECK(ov.recommendations.size() == (plugin_has ? 1u : 0u));
}

} // namespace

TEST_CASE("overview equals the TensorBoard plugin on resnet50 num_workers=0") {
  check_against_plugin(0);
}

TEST_CASE("overview equals the TensorBoard plugin on resnet50 num_workers=4") {
  check_against_plugin(4);
}
