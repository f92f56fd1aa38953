// Tests of the roofline view: ceilings, diagonals, ridges, layer points, measured points.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "perfmodel/report/roofline_view.hpp"
#include "../core/sweep_fixtures.hpp"

using namespace perfmodel;

namespace {

report::RooflineData tiny_roofline(const std::map<std::string, double> &measured = {}) {
  static Graph g = test::tiny_net(4); // predictions point into the graph: keep it alive
  static HwSpec hw = test::tiny_gpu();
  return report::make_roofline(predict(g, hw, PredictOptions{}), hw, measured);
}

} // namespace

TEST_CASE("a ceiling per compute unit, a diagonal per memory level, ridges of used ceilings") {
  report::RooflineData d = tiny_roofline();
  CHECK(d.title() == "tiny on gpu1, batch 4, fp32, fwd");
  REQUIRE(d.ceilings.size() == 2);
  CHECK(d.ceilings[0].unit == "simt");
  CHECK(d.ceilings[0].selected);       // fp32: what the model runs at
  CHECK_FALSE(d.ceilings[1].selected); // fp16 tensor: unused
  CHECK(d.ceilings[1].matrix_only);
  REQUIRE(d.diagonals.size() == 2);
  CHECK(d.diagonals[1].level == "dram");
  REQUIRE(d.ridges.size() == 2); // simt fp32 x {l2, dram}
  CHECK(d.ridges[1].arithmetic_intensity == doctest::Approx(10e12 / 1e12));
  CHECK(d.ridges[0].arithmetic_intensity == doctest::Approx(10e12 / 4e12));
}

TEST_CASE("one point per layer with AI, attainable and predicted FLOP/s") {
  report::RooflineData d = tiny_roofline();
  REQUIRE(d.points.size() == 4);
  const report::RooflinePoint &conv = d.points[0];
  CHECK(conv.name == "conv");
  CHECK(conv.op == "conv2d");
  CHECK(conv.arithmetic_intensity == doctest::Approx(double(conv.flops) / double(conv.bytes)));
  CHECK(conv.predicted_flops_per_second == doctest::Approx(double(conv.flops) / conv.seconds));
  CHECK(conv.predicted_flops_per_second <= conv.attainable_flops_per_second * (1 + 1e-9));
  CHECK(conv.drawable());
  CHECK_FALSE(d.points[2].drawable()); // the flatten moves no data
  CHECK(report::top_points_by_time(d, 2).size() == 2);
  auto top = report::top_points_by_time(d, 10);
  CHECK(top.size() == 3); // the three drawable layers
  CHECK(d.points[top[0]].seconds >= d.points[top[1]].seconds);
}

TEST_CASE("measured points are matched by name; unknown names are reported") {
  report::RooflineData d = tiny_roofline({{"conv", 1e-3}, {"nope", 1.0}});
  REQUIRE(d.points[0].measured_seconds);
  CHECK(*d.points[0].measured_flops_per_second ==
        doctest::Approx(double(d.points[0].flops) / 1e-3));
  CHECK_FALSE(d.points[1].measured_seconds);
  CHECK(d.unmatched_measurements == std::vector<std::string>{"nope"});
}

TEST_CASE("roofline renderings agree on the numbers") {
  report::RooflineData d = tiny_roofline({{"conv", 1e-3}});
  auto j = nlohmann::json::parse(report::render_roofline(d, report::Format::json));
  CHECK(j["schema"] == "perfmodel.roofline/1");
  CHECK(j["ceilings"].size() == 2);
  CHECK(j["ridges"][1]["level"] == "dram");
  CHECK(j["layers"][0]["measured_seconds"] == 1e-3);
  CHECK(j["layers"][0]["arithmetic_intensity"] == d.points[0].arithmetic_intensity);
  std::string csv = report::render_roofline(d, report::Format::csv);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 5); // header + 4 layers
  CHECK(csv.find("conv,conv2d,") != std::string::npos);
  std::string table = report::render_roofline(d, report::Format::table);
  CHECK(table.rfind("roofline of tiny on gpu1", 0) == 0);
  CHECK(table.find("ridge    simt fp32 / dram  10.0F/B") != std::string::npos);
  std::string md = report::render_roofline(d, report::Format::md);
  CHECK(md.find("| conv | conv2d |") != std::string::npos);
}
