// Tests of the calibration samples taken from a trace's attainment view.
#include "perfmodel/calibrate/trace_samples.hpp"

#include <doctest/doctest.h>

#include "../trace/trace_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("samples from the ResNet-50 trace: median call time, core counts, single passes") {
  const LoadedTrace &t = shared_trace(0);
  trace::AttainmentView v = trace::attainment_view(t.trace, t.links, t.tree, v100());
  auto samples = calibrate::samples_from_attainment(v, "r.json.gz");
  REQUIRE(samples.size() > 50);
  CHECK(samples.size() <= v.rows.size());
  bool conv = false;
  for (const auto &s : samples) {
    CHECK(s.seconds > 0);
    CHECK(s.source.rfind("trace:r.json.gz:aten::", 0) == 0);
    if (s.source == "trace:r.json.gz:aten::cudnn_convolution 32x3x224x224, 64x3x7x7") {
      conv = true;
      CHECK(s.op_class == OpClass::conv);
      CHECK(s.pass == KernelPart::fwd);
      CHECK(s.flops == 7552892928.0);
      CHECK(s.bytes == 122065664.0);
      // The median of the six calls' device times.
      for (const auto &r : v.rows)
        if (r.name == "aten::cudnn_convolution" && r.shapes == "32x3x224x224, 64x3x7x7") {
          std::vector<double> c = r.call_seconds;
          std::sort(c.begin(), c.end());
          CHECK(s.seconds == doctest::Approx(0.5 * (c[2] + c[3])));
        }
    }
  }
  CHECK(conv);
}
