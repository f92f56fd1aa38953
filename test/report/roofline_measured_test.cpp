// Tests of reading measured layer times from perfmodel.measurement/1 JSON.
#include <doctest/doctest.h>

#include "perfmodel/report/roofline_view.hpp"

using namespace perfmodel;

TEST_CASE("measured seconds by layer name; unmeasured layers left out") {
  auto m = report::parse_measurement_json(R"({
    "schema": "perfmodel.measurement/1",
    "layers": [
      {"name": "conv1", "measured_seconds": 0.001},
      {"name": "relu1", "measured_seconds": null},
      {"name": "pool1"},
      {"name": "fc", "measured_seconds": 2e-5, "other": [1, 2]}
    ]})",
                                          "m.json");
  CHECK(m.size() == 2);
  CHECK(m.at("conv1") == 0.001);
  CHECK(m.at("fc") == 2e-5);
}

TEST_CASE("bad measurement files are InputErrors with the file (and line:col for syntax)") {
  auto msg = [](const std::string &text) {
    try {
      report::parse_measurement_json(text, "m.json");
    } catch (const InputError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string syntax = msg("{\n  \"schema\": \"perfmodel.measurement/1\",\n  \"layers\": [,]\n}");
  CHECK(syntax.rfind("m.json:3:", 0) == 0);
  CHECK(syntax.find("invalid JSON") != std::string::npos);
  CHECK(msg("[]").find("expected a JSON object") != std::string::npos);
  CHECK(msg(R"({"layers": []})").find("not a measurement file") != std::string::npos);
  CHECK(msg(R"({"schema": "perfmodel.sweep/1", "layers": []})").find("not a measurement") !=
        std::string::npos);
  CHECK(msg(R"({"schema": "perfmodel.measurement/2", "layers": []})").find("unsupported") !=
        std::string::npos);
  CHECK(msg(R"({"schema": "perfmodel.measurement/1"})").find("\"layers\" must be an array") !=
        std::string::npos);
  CHECK(msg(R"({"schema": "perfmodel.measurement/1", "layers": [{"measured_seconds": 1}]})")
            .find("layers[0]: needs a string \"name\"") != std::string::npos);
  CHECK(msg(R"({"schema": "perfmodel.measurement/1", "layers": [{"name": "a",
            "measured_seconds": "1"}]})")
            .find("must be a number") != std::string::npos);
  CHECK(msg(R"({"schema": "perfmodel.measurement/1", "layers": []})") == "no error");
}
