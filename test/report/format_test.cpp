// Number formatting as boda's pp_val prints it, and CSV/Markdown escaping.
#include <doctest/doctest.h>

#include "perfmodel/report/format.hpp"

using namespace perfmodel::report;

TEST_CASE("si() matches boda's pp_val") {
  CHECK(si(3091740, "B") == "3.09MB");
  CHECK(si(465e-6, "s") == "465us");
  CHECK(si(1054152000, "F") == "1.05GF");
  CHECK(si(117.0, "F/B") == "117F/B");
  CHECK(si(23.9, "F/B") == "23.9F/B");
  CHECK(si(1.58294e12, "F/s") == "1.58TF/s");
  CHECK(si(7.9147e9, "F/s/W") == "7.91GF/s/W");
  CHECK(si(0, "s") == "0s");
  CHECK(si(999.7, "B") == "1.00KB");
  CHECK(si(0.5, "J") == "500mJ");
  CHECK(si(9.9999999e-6, "s") == "10.0us");
  CHECK(si(99.97, "B") == "100B");
}

TEST_CASE("CSV quoting (RFC 4180) and Markdown cells") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(md_cell("a|b\nc") == "a\\|b c");
  CHECK(parse_format("md") == Format::md);
  CHECK_FALSE(parse_format("xml"));
}

TEST_CASE("raw() prints the shortest round-trip text") {
  CHECK(raw(0.1) == "0.1");
  CHECK(raw(1.57e13) == "1.57e+13");
  CHECK(std::stod(raw(1.0 / 3.0)) == 1.0 / 3.0);
}
