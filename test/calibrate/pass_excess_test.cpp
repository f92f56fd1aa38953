// Tests of the pass-excess fit: known answers, the cases it refuses, its bounds.
#include <doctest/doctest.h>

#include "perfmodel/calibrate/pass_excess.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;

namespace {

// A pass whose excess over its layers' sum follows `truth` exactly.
PassSample pass_of(const PassExcess &truth, int layers, double layer_sum) {
  return {"net", layers, layer_sum, layer_sum + truth.seconds(layers, layer_sum)};
}

} // namespace

TEST_CASE("the pass excess of three networks made from known parameters is fitted back") {
  PassExcess truth;
  truth.per_layer_seconds = 4e-6;
  truth.fraction = 0.012;
  // the calibration networks' shapes: many short layers, a middle, few long ones
  const auto fit = fit_pass_excess(
      {pass_of(truth, 98, 4.3e-3), pass_of(truth, 85, 6.9e-3), pass_of(truth, 22, 39e-3)});
  REQUIRE(fit);
  CHECK(fit->per_layer_seconds == doctest::Approx(4e-6).epsilon(0.01));
  CHECK(fit->fraction == doctest::Approx(0.012).epsilon(0.01));
  CHECK(fit->networks == 3);
  // what predict adds for a 152-layer, 6.3 ms network
  CHECK(fit->seconds(152, 6.3e-3) == doctest::Approx(152 * 4e-6 + 0.012 * 6.3e-3).epsilon(0.01));
}

TEST_CASE("the pass excess is bounded at 0: a pass faster than its layers adds nothing") {
  const auto fit = fit_pass_excess({{"a", 100, 5e-3, 4.9e-3}, {"b", 20, 40e-3, 39.5e-3}});
  REQUIRE(fit);
  CHECK(fit->per_layer_seconds == doctest::Approx(0).scale(1e-6));
  CHECK(fit->fraction == doctest::Approx(0).scale(1e-6));
  // only a per-layer cost: the fraction stays at its bound
  PassExcess truth;
  truth.per_layer_seconds = 5e-6;
  const auto per_layer = fit_pass_excess({pass_of(truth, 100, 5e-3), pass_of(truth, 20, 40e-3)});
  REQUIRE(per_layer);
  CHECK(per_layer->per_layer_seconds == doctest::Approx(5e-6).epsilon(0.01));
  CHECK(per_layer->fraction == doctest::Approx(0).scale(1e-6));
}

TEST_CASE("the pass excess is not fitted from networks it cannot tell the two terms apart in") {
  PassExcess truth;
  truth.per_layer_seconds = 4e-6;
  truth.fraction = 0.01;
  CHECK_FALSE(fit_pass_excess({}));
  CHECK_FALSE(fit_pass_excess({pass_of(truth, 98, 4.3e-3)})); // one network
  // the same layers per second: a per-layer cost and a fraction look alike
  CHECK_FALSE(fit_pass_excess({pass_of(truth, 50, 5e-3), pass_of(truth, 100, 10.2e-3)}));
  // a network without timed layers or passes
  CHECK_FALSE(fit_pass_excess({pass_of(truth, 98, 4.3e-3), {"empty", 0, 0, 0}}));
  CHECK_FALSE(fit_pass_excess({pass_of(truth, 98, 4.3e-3), {"untimed", 22, 39e-3, 0}}));
}
