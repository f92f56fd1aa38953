// Tests of the calibration fit summary in its four renderings.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../test_approx.hpp"
#include "perfmodel/report/calibration_view.hpp"

using namespace perfmodel;
using namespace perfmodel::report;

namespace {

Calibration small() {
  Calibration c;
  c.device = DeviceFingerprint{"cpu", "AMD EPYC", 2, "fnv1a:00", std::nullopt};
  c.hardware = "zen5-2c";
  c.source = "microbenchmarks";
  c.cores = 2;
  c.memory_levels = {{"l1", 1e5}, {"dram", 0}};
  ClassCalibration g;
  g.op_class = OpClass::gemm;
  g.params.peak_flops_per_second = 1.5e11;
  g.params.bytes_per_second = {1e12, 4e10};
  g.params.tile_m = 16;
  g.params.tile_n = 4;
  g.params.overhead_seconds = 3e-6;
  g.stats = FitStats{10, 0.1, 0.05, 0.2};
  ClassCalibration e;
  e.op_class = OpClass::elementwise;
  e.params.peak_flops_per_second = 1e12;
  e.params.bytes_per_second = {5e11, 3e10};
  e.stats = FitStats{5, 0.1, 0.07, 0.1};
  c.classes = {g, e};
  c.stats = FitStats{15, 0.1, 0.06, 0.2};
  return c;
}

} // namespace

TEST_CASE("table shows rates with SI prefixes and the fit errors") {
  const std::string t = render_calibration(small(), Format::table);
  CHECK(t.find("calibration for zen5-2c (AMD EPYC, 2 cores): microbenchmarks, 15 samples, "
               "MAPE 6.00%") == 0);
  CHECK(t.find("150GF/s") != std::string::npos);
  CHECK(t.find("16x4") != std::string::npos);
  CHECK(t.find("bw dram") != std::string::npos);
  CHECK(t.find("40.0GB/s") != std::string::npos);
  CHECK(t.find("3.00us") != std::string::npos);
  CHECK(t.find("7.00%") != std::string::npos);
}

TEST_CASE("json carries the whole calibration; csv and md one row per class") {
  const auto j = nlohmann::json::parse(render_calibration(small(), Format::json));
  CHECK(j["schema"] == "perfmodel.calibration/1");
  CHECK(j["classes"].size() == 2);
  CHECK(j["classes"][0]["tile_m"] == 16);
  CHECK(j["classes"][1]["fit"]["mape"].get<double>() == doctest::Approx(0.07));
  const std::string csv = render_calibration(small(), Format::csv);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
  CHECK(csv.rfind("class,dtype,samples,peak", 0) == 0);
  const std::string md = render_calibration(small(), Format::md);
  CHECK(md.find("| elementwise | fp32 |") != std::string::npos);
}

TEST_CASE("the pass excess is in the title and in the JSON (null without one)") {
  Calibration c = small();
  CHECK(render_calibration(c, Format::table).find("pass excess") == std::string::npos);
  CHECK(nlohmann::json::parse(render_calibration(c, Format::json))["pass_excess"].is_null());
  c.pass_excess = PassExcess{3.6e-6, 0.0145, 3};
  CHECK(render_calibration(c, Format::table)
            .find("MAPE 6.00%; pass excess 3.60us per layer + 1.45% of the layers' time") !=
        std::string::npos);
  const auto j = nlohmann::json::parse(render_calibration(c, Format::json));
  CHECK(j["pass_excess"]["per_layer_seconds"].get<double>() == rel(3.6e-6));
  CHECK(j["pass_excess"]["fraction"].get<double>() == doctest::Approx(0.0145));
  CHECK(j["pass_excess"]["networks"] == 3);
}
