// Tests of the roofline attainment view: attribution, roofline times and the ranking.
#include "perfmodel/trace/attainment.hpp"

#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "trace_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("attainment of the hand-made trace: one modelled relu, the rest listed") {
  LoadedTrace t = load_test_trace("tiny.json");
  trace::AttainmentView v = trace::attainment_view(t.trace, t.links, t.tree, v100());
  REQUIRE(v.rows.size() == 1);
  const trace::AttainmentRow &r = v.rows[0];
  CHECK(r.name == "aten::relu");
  CHECK(r.op == "relu fwd");
  CHECK(r.calls == 1);
  CHECK(r.flops == 32);
  CHECK(r.bytes == 256);
  CHECK(r.device_seconds == rel(60e-6));
  // Roofline: max(32 / 15.7e12, 256 / 900e9), no launch overhead (a relative comparison: the
  // default Approx takes anything under 1e-5 as equal).
  CHECK(r.roofline_seconds == doctest::Approx(256 / 900e9).scale(0).epsilon(1e-9));
  CHECK(r.fraction_of_roofline() == doctest::Approx(r.roofline_seconds / 60e-6));
  CHECK(v.modelled_seconds == rel(60e-6));
  CHECK(v.device_seconds == rel(105e-6));
  REQUIRE(v.unattributed.size() == 3);
  double listed = 0;
  for (const auto &u : v.unattributed)
    listed += u.seconds;
  CHECK(listed + v.modelled_seconds == rel(v.device_seconds));
  CHECK(v.unattributed[0].name == "stray_kernel");
  CHECK(v.unattributed[0].reason.find("outside any operator") != std::string::npos);
  CHECK(v.unattributed[1].op == "aten::copy_");
  CHECK(v.unattributed[2].reason.find("correlation") != std::string::npos);
}

TEST_CASE("attainment of ResNet-50 training on V100: conv, batch norm and elementwise") {
  const LoadedTrace &t = shared_trace(0);
  trace::AttainmentView v = trace::attainment_view(t.trace, t.links, t.tree, v100());
  REQUIRE(v.rows.size() >= 10);
  // Every device microsecond is either modelled or listed.
  double listed = 0;
  for (const auto &u : v.unattributed)
    listed += u.seconds;
  CHECK(listed + v.modelled_seconds == doctest::Approx(v.device_seconds).epsilon(1e-9));
  CHECK(v.modelled_seconds > 0.9 * v.device_seconds);
  std::set<std::string> kinds;
  for (const auto &s : v.summary)
    kinds.insert(s.op);
  for (const char *k : {"conv2d fwd", "conv2d bwd_data", "conv2d bwd_weight", "batchnorm fwd",
                        "batchnorm bwd", "relu fwd", "relu bwd_data", "add fwd", "linear fwd"})
    CHECK_MESSAGE(kinds.count(k), k);
  // Ranked by time lost.
  for (size_t i = 1; i < v.rows.size(); ++i)
    CHECK(v.rows[i - 1].time_lost() >= v.rows[i].time_lost());
  for (const auto &r : v.rows) {
    CAPTURE(r.name);
    CAPTURE(r.shapes);
    CHECK(r.fraction_of_roofline() > 0);
    CHECK(r.calls == static_cast<int64_t>(r.call_seconds.size()));
  }
  // The ten largest losses are the big convolutions and batch norms, all below the roofline.
  for (size_t i = 0; i < 10; ++i) {
    CAPTURE(v.rows[i].name);
    CHECK(v.rows[i].fraction_of_roofline() < 1.0);
    CHECK(v.rows[i].time_lost() > 0);
  }
  // The first convolution: 6 steps, one call each; counts are per call times calls.
  bool found = false;
  for (const auto &r : v.rows) {
    if (r.name != "aten::cudnn_convolution" || r.shapes != "32x3x224x224, 64x3x7x7")
      continue;
    found = true;
    CHECK(r.calls == 6);
    CHECK(r.flops == 6.0 * 7552892928.0);
    // The kernel's work alone: the trace's device time holds no launch overhead.
    CHECK(r.roofline_seconds == rel(6 * (7552892928.0 / 15.7e12)));
    CHECK(r.bound == Bound::compute);
  }
  CHECK(found);
  // The memcpy of the input batch is listed, with the operator that launched it.
  bool memcpy_listed = false;
  for (const auto &u : v.unattributed)
    if (u.name.rfind("Memcpy", 0) == 0 && u.op == "aten::copy_")
      memcpy_listed = true;
  CHECK(memcpy_listed);
}

TEST_CASE("attainment compares like with like: the roofline of a kernel holds no launch overhead") {
  // tiny.json's relu: 32 FLOPs, 256 B on v100() (5 us launch overhead): a kernel of 60 us is far
  // from its roofline, and the overhead the trace's device time does not hold is not charged.
  const LoadedTrace t = load_test_trace("tiny.json");
  const trace::AttainmentView v = trace::attainment_view(t.trace, t.links, t.tree, v100());
  REQUIRE(!v.rows.empty());
  const trace::AttainmentRow &r = v.rows[0];
  CHECK(r.roofline_seconds < 1e-6);
  CHECK(r.bound == Bound::memory);
  CHECK(r.fraction_of_roofline() < 0.01);
}
