// Tests of the kernels view: errors and MAPE, and the four renderings.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "perfmodel/report/kernels_view.hpp"

using namespace perfmodel;
using namespace perfmodel::report;

namespace {

KernelsView two_rows() {
  KernelsView v;
  v.hardware = "zen5-2c";
  KernelRowView a;
  a.op = "gemm";
  a.dtype = "fp32";
  a.pass = "fwd";
  a.shape = "64x32x16";
  a.flops = 65536;
  a.bytes = 14336;
  a.predicted_seconds = 1.1e-5;
  a.bound = Bound::compute;
  a.measured_seconds = 1e-5;
  KernelRowView b = a;
  b.op = "conv2d";
  b.shape = "n1 c3 8x8 o4 k3x3 s1 p1";
  b.predicted_seconds = 2e-5;
  b.measured_seconds.reset();
  KernelRowView c = a;
  c.predicted_seconds = 0.7e-5;
  v.rows = {a, b, c};
  finish_kernels_view(v);
  return v;
}

} // namespace

TEST_CASE("errors and MAPE only over measured rows") {
  const KernelsView v = two_rows();
  CHECK(v.measured == 2);
  REQUIRE(v.mape);
  CHECK(*v.mape == doctest::Approx((0.1 + 0.3) / 2));
  CHECK(*v.rows[0].error == doctest::Approx(0.1));
  CHECK_FALSE(v.rows[1].error);
  CHECK(*v.rows[2].error == doctest::Approx(-0.3));
}

TEST_CASE("JSON has the schema, rows in order and the summary") {
  const auto j = nlohmann::json::parse(render_kernels(two_rows(), Format::json));
  CHECK(j["schema"] == "perfmodel.kernels/1");
  REQUIRE(j["rows"].size() == 3);
  CHECK(j["rows"][1]["op"] == "conv2d");
  CHECK_FALSE(j["rows"][1].contains("measured_seconds"));
  CHECK_FALSE(j["rows"][1].contains("error"));
  CHECK(j["rows"][0]["bound"] == "compute");
  CHECK(j["rows"][0]["error"].get<double>() == doctest::Approx(0.1));
  CHECK(j["summary"]["mape"].get<double>() == doctest::Approx(0.2));
  CHECK(j["calibration"].is_null());

  KernelsView none = two_rows();
  for (auto &r : none.rows)
    r.measured_seconds.reset();
  finish_kernels_view(none);
  CHECK_FALSE(
      nlohmann::json::parse(render_kernels(none, Format::json))["summary"].contains("mape"));
}

TEST_CASE("table, CSV and Markdown renderings") {
  KernelsView v = two_rows();
  v.calibration = "zen5-2c";
  const std::string t = render_kernels(v, Format::table);
  CHECK(t.find("kernels on zen5-2c (calibrated: zen5-2c)") == 0);
  CHECK(t.find("+10.0%") != std::string::npos);
  CHECK(t.find("-30.0%") != std::string::npos);
  CHECK(t.find("11.0us") != std::string::npos);
  CHECK(t.find("MAPE over 2 measured rows: 20.00%") != std::string::npos);
  const std::string csv = render_kernels(v, Format::csv);
  CHECK(csv.find("op,dtype,pass,shape,flops,bytes (B),predicted (s),bound,measured (s),error\n") ==
        0);
  CHECK(csv.find("conv2d,fp32,fwd,n1 c3 8x8 o4 k3x3 s1 p1,65536,14336,2e-05,compute,,\n") !=
        std::string::npos);
  const std::string md = render_kernels(v, Format::md);
  CHECK(md.find("| # | op |") != std::string::npos);
}
