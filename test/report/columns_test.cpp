// The column list: one declaration per column, four renderings that follow the unit hints.
#include <doctest/doctest.h>

#include <optional>

#include "report/columns.hpp"

using namespace perfmodel::report;

namespace {

struct Layer {
  std::string name;
  int64_t flops = 0;
  double seconds = 0;
  double share = 0;
  std::optional<double> measured;
  bool fits = true;
};

const std::vector<Column<Layer>> &layer_columns() {
  using C = Column<Layer>;
  static const std::vector<C> cols = {
      {"name", "layer", hint::text(), &Layer::name},
      {"flops", "FLOPs", hint::si("F"), &Layer::flops},
      C("seconds", "time", hint::si("s"), &Layer::seconds).csv_as("time (s)"),
      {"share", "share", hint::percent(), &Layer::share, kText},
      C("measured_seconds", "measured", hint::si("s"), &Layer::measured).missing_as("-"),
      {"fits", "fits", hint::flag("yes", "NO"), &Layer::fits},
  };
  return cols;
}

Grid sample() {
  const std::vector<Layer> rows = {{"conv1", 1050000000, 157e-6, 0.625, 150e-6, true},
                                   {"fc|8", 2000, 2.5e-6, 0.0099, std::nullopt, false}};
  return make_grid(layer_columns(), rows);
}

ColumnSpec spec(std::string key, std::string header, Unit unit) {
  ColumnSpec c;
  c.key = std::move(key);
  c.header = std::move(header);
  c.unit = std::move(unit);
  return c;
}

} // namespace

TEST_CASE("a view declared once renders as table, CSV, Markdown and JSON") {
  const Grid g = sample();
  CHECK(table(g) == "layer  FLOPs   time    share  measured  fits\n"
                    "conv1  1.05GF  157us   62.5%  150us     yes\n"
                    "fc|8   2.00KF  2.50us  1.0%   -         NO\n");
  CHECK(csv(g) == "layer,FLOPs (F),time (s),measured (s),fits\n"
                  "conv1,1050000000,0.000157,0.00015,true\n"
                  "fc|8,2000,2.5e-06,,false\n");
  CHECK(markdown(g) == "| layer | FLOPs | time | share | measured | fits |\n"
                       "|---|---:|---:|---:|---:|---|\n"
                       "| conv1 | 1.05GF | 157us | 62.5% | 150us | yes |\n"
                       "| fc\\|8 | 2.00KF | 2.50us | 1.0% | - | NO |\n");
  CHECK(json_rows(g).dump() ==
        R"([{"name":"conv1","flops":1050000000,"seconds":0.000157,"measured_seconds":0.00015,)"
        R"("fits":true},{"name":"fc|8","flops":2000,"seconds":2.5e-06,"fits":false}])");
}

TEST_CASE("CSV digits and Markdown rules follow the view's style") {
  Grid g = sample();
  g.style.csv_digits = 3;
  g.style.md_spaced = true;
  g.style.md_aligned = false;
  CHECK(csv(g).find("conv1,1050000000,0.000157,0.00015,true\n") != std::string::npos);
  g.rows[0][2] = 1.0 / 3.0;
  CHECK(csv(g).find("conv1,1050000000,0.333,") != std::string::npos);
  CHECK(markdown(g).find("\n| --- | --- | --- | --- | --- | --- |\n") != std::string::npos);
}

TEST_CASE("unit hints: zero as unset, text width, JSON rounding and null") {
  ColumnSpec c = spec("bw", "bandwidth", hint::si("B/s").unset_when_zero());
  c.missing = "-";
  CHECK(format_cell(c, 0.0, Format::table) == "-");
  CHECK(format_cell(c, 0.0, Format::csv) == "0");
  CHECK(format_cell(c, 9e11, Format::md) == "900GB/s");
  const ColumnSpec t = spec("name", "kernel", hint::text(8));
  CHECK(format_cell(t, std::string("abcdefghij"), Format::table) == "abcde...");
  CHECK(format_cell(t, std::string("abcdefghij"), Format::csv) == "abcdefghij");
  CHECK(format_cell(spec("e", "error", hint::percent(1, true)), -0.0412, Format::table) == "-4.1%");
  CHECK(format_cell(spec("e", "error", hint::percent(1, true)), 0.0412, Format::table) == "+4.1%");
  CHECK(format_cell(spec("x", "x", hint::number(4)), 2.0 / 3.0, Format::table) == "0.6667");

  using C = Column<Layer>;
  const std::vector<C> cols = {
      C("seconds", "time", hint::si("s").rounded_in_json(1e9), &Layer::seconds),
      C("measured", "measured", hint::si("s"), &Layer::measured).null_in_json()};
  const Grid g =
      make_grid(cols, std::vector<Layer>{{"a", 0, 1.23456789012e-3, 0, std::nullopt, true}});
  CHECK(json_row(g, 0).dump() == R"({"seconds":0.001234568,"measured":null})");
}

TEST_CASE("a span replaces a row's value-less cells in the text formats only") {
  using C = Column<Layer>;
  const std::vector<C> cols = {{"name", "layer", hint::text(), &Layer::name},
                               {"measured", "measured", hint::si("s"), &Layer::measured},
                               {"fits", "fits", hint::flag("yes", "NO"), &Layer::fits}};
  const std::vector<Layer> rows = {{"conv1", 0, 0, 0, 1e-3, true},
                                   {"fc", 0, 0, 0, std::nullopt, true}};
  const Grid g =
      make_grid(cols, rows, Style{}, std::function<std::string(const Layer &)>([](const Layer &l) {
                  return l.measured ? "" : "not measured: too short";
                }));
  CHECK(table(g) == "layer  measured  fits\n"
                    "conv1  1.00ms    yes\n"
                    "fc     not measured: too short\n");
  CHECK(markdown(g).find("| fc | not measured: too short |  |\n") != std::string::npos);
  CHECK(csv(g).find("fc,,true\n") != std::string::npos);
}

TEST_CASE("a middle-cut column keeps both ends and gives up what a line is over the width") {
  CHECK(cut_middle("/layer1/layer1.0/bn1/BatchNormalization", 20) == "/layer1/l...lization");
  CHECK(cut_middle("short", 20) == "short");
  CHECK(cut_middle("abcdefghij", 3) == "abcdefghij"); // too narrow to cut: as is
  CHECK(format_cell(spec("n", "layer", hint::text(9).cut_in_middle()), std::string("abcdefghij"),
                    Format::table) == "abc...hij");

  using C = Column<Layer>;
  const std::vector<C> cols = {{"name", "layer", hint::text().cut_in_middle(), &Layer::name},
                               C("seconds", "time", hint::si("s"), &Layer::seconds),
                               C("flops", "FLOPs", hint::si("F"), &Layer::flops).as_detail()};
  const std::vector<Layer> rows = {
      {"/layer1/layer1.0/downsample/downsample.1/Conv", 5, 1e-3, 0, std::nullopt, true},
      {"fc", 7, 2e-3, 0, std::nullopt, true}};
  Style st;
  st.max_width = 30;
  st.details = false;
  const Grid g = make_grid(cols, rows, st);
  const std::string t = table(g);
  CHECK(t == "layer                   time\n"
             "/layer1/la...le.1/Conv  1.00ms\n"
             "fc                      2.00ms\n");
  CHECK(csv(g).find("/layer1/layer1.0/downsample/downsample.1/Conv,0.001,5\n") !=
        std::string::npos); // CSV: whole name and the detail column
  CHECK(json_row(g, 0)["name"] == "/layer1/layer1.0/downsample/downsample.1/Conv");
  CHECK(json_row(g, 0).contains("flops"));
  CHECK(markdown(g).find("FLOPs") == std::string::npos); // no details in the text formats
}
