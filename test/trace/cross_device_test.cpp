// Tests of the cross-device prediction: known answers on devices whose rates differ by known
// factors, the activity without a model, the per-step figure, and the calibration rule.
#include "perfmodel/trace/cross_device.hpp"

#include <doctest/doctest.h>

#include "perfmodel/error.hpp"
#include "trace_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

namespace {

// v100() with every compute peak x `compute` and the DRAM bandwidth x `memory`.
HwSpec faster(double compute, double memory) {
  HwSpec hw = v100();
  hw.name = "faster";
  for (auto &u : hw.compute)
    u.flops_per_second *= compute;
  hw.memory.back().bytes_per_second *= memory;
  return hw;
}

doctest::Approx rel(double v) { return doctest::Approx(v).scale(0).epsilon(1e-9); }

} // namespace

TEST_CASE("cross-device: a device twice as fast in everything halves every time") {
  const LoadedTrace t = load_test_trace("tiny.json");
  const trace::AttainmentView src = trace::attainment_view(t.trace, t.links, t.tree, v100());
  const trace::CrossDeviceView v = trace::cross_device_view(src, v100(), faster(2, 2));
  CHECK(v.source == "v100-test");
  CHECK(v.target == "faster");
  CHECK_FALSE(v.calibrated);
  CHECK(v.bandwidth_ratio == rel(0.5));
  REQUIRE(v.rows.size() == 1);
  CHECK(v.rows[0].name == "aten::relu");
  CHECK(v.rows[0].source_seconds == rel(60e-6));
  CHECK(v.rows[0].source_model == rel(256 / 900e9)); // memory-bound: 256 B at 900 GB/s
  CHECK(v.rows[0].target_model == rel(256 / 1800e9));
  CHECK(v.rows[0].predicted_seconds == rel(30e-6));
  REQUIRE(v.unmapped.size() == src.unattributed.size());
  double unmapped = 0;
  for (const auto &u : v.unmapped) {
    CHECK(u.predicted_seconds == rel(u.source_seconds * 0.5));
    unmapped += u.source_seconds;
  }
  CHECK(v.source_seconds == rel(src.device_seconds));
  CHECK(v.source_seconds == rel(60e-6 + unmapped));
  CHECK(v.predicted_seconds == rel(v.source_seconds / 2));
  CHECK(v.ratio() == rel(0.5));
  CHECK(v.steps == 0); // no overview given
}

TEST_CASE("cross-device: compute-bound rows scale with the peak, memory-bound ones with DRAM") {
  const LoadedTrace &t = shared_trace(0);
  const trace::AttainmentView src = trace::attainment_view(t.trace, t.links, t.tree, v100());
  const HwSpec target = faster(4, 2);
  const trace::Overview o = trace::compute_overview(t.trace, t.links);
  const trace::CrossDeviceView v = trace::cross_device_view(src, v100(), target, nullptr, nullptr, &o);
  REQUIRE(v.rows.size() == src.rows.size());
  int compute = 0, memory = 0;
  for (const trace::CrossDeviceRow &r : v.rows) {
    const trace::AttainmentRow *a = nullptr;
    for (const auto &x : src.rows)
      if (x.name == r.name && x.shapes == r.shapes && x.op == r.op)
        a = &x;
    REQUIRE(a != nullptr);
    const trace::OpModelTime on_target = trace::op_model_time(a->model, target);
    // The bound is the same on both devices where one side's lead exceeds the 2x the target
    // changes it by: then the ratio is the peak's or the bandwidth's exactly.
    if (a->bound == Bound::compute && on_target.bound == Bound::compute) {
      CHECK(r.ratio() == rel(0.25));
      ++compute;
    } else if (a->bound == Bound::memory && on_target.bound == Bound::memory) {
      CHECK(r.ratio() == rel(0.5));
      ++memory;
    } else if (r.source_model > 0) {
      CHECK(r.ratio() > 0.25 - 1e-12);
      CHECK(r.ratio() < 0.5 + 1e-12);
    }
    CHECK(r.predicted_seconds == rel(r.source_seconds * r.target_model / r.source_model));
  }
  CHECK(compute > 10); // convolutions
  CHECK(memory > 10);  // batch norm, ReLU, add
  // Ordered by predicted time; the summary adds up to the rows.
  for (size_t i = 1; i < v.rows.size(); ++i)
    CHECK(v.rows[i - 1].predicted_seconds >= v.rows[i].predicted_seconds);
  double rows = 0, summary = 0;
  for (const auto &r : v.rows)
    rows += r.predicted_seconds;
  for (const auto &s : v.summary)
    summary += s.predicted_seconds;
  CHECK(summary == rel(rows));
  // Per step: the overview's average GPU time, scaled by the trace's overall ratio.
  CHECK(v.steps == o.steps.size());
  CHECK(v.source_step_seconds == rel(o.average.kernel + o.average.memcpy + o.average.memset));
  CHECK(v.predicted_step_seconds() == rel(v.source_step_seconds * v.ratio()));
  CHECK(v.ratio() > 0.25);
  CHECK(v.ratio() < 0.5);
}

TEST_CASE("cross-device: a calibration for one device only is refused") {
  const LoadedTrace t = load_test_trace("tiny.json");
  const trace::AttainmentView src = trace::attainment_view(t.trace, t.links, t.tree, v100());
  Calibration cal;
  CHECK_THROWS_AS(trace::cross_device_view(src, v100(), faster(2, 2), &cal, nullptr), InputError);
  CHECK_THROWS_AS(trace::cross_device_view(src, v100(), faster(2, 2), nullptr, &cal), InputError);
}
