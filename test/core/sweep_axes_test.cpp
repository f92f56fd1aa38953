// Tests of sweep axis parsing: lists, +step and xfactor ranges, and every rejected form.
#include <doctest/doctest.h>

#include "perfmodel/sweep.hpp"

using namespace perfmodel;
using V = std::vector<int64_t>;

TEST_CASE("integer axis: single values and lists") {
  CHECK(parse_int_axis("8", "--batch") == V{8});
  CHECK(parse_int_axis("1,2,4", "--batch") == V{1, 2, 4});
  CHECK(parse_int_axis(" 4 , 1 ", "--batch") == V{4, 1}); // order kept
  CHECK(parse_int_axis("2,2,3,2", "--batch") == V{2, 3}); // duplicates dropped
  CHECK(parse_int_axis("0,-1", "--batch") == V{0, -1});   // accepted; the sweep skips them
}

TEST_CASE("integer axis: factor ranges") {
  CHECK(parse_int_axis("1:1024:x2", "b").size() == 11);
  CHECK(parse_int_axis("1:1024:x2", "b").back() == 1024);
  CHECK(parse_int_axis("1:100:x10", "b") == V{1, 10, 100});
  CHECK(parse_int_axis("3:100:x3", "b") == V{3, 9, 27, 81});
  CHECK(parse_int_axis("5:5:x2", "b") == V{5});
  CHECK(parse_int_axis("1:8:*2", "b") == V{1, 2, 4, 8});
  // Near the limit the factor loop stops before overflowing.
  CHECK(parse_int_axis("1:9007199254740992:x2", "b").size() == 54);
}

TEST_CASE("integer axis: step ranges and mixtures") {
  CHECK(parse_int_axis("1:64:+8", "b") == V{1, 9, 17, 25, 33, 41, 49, 57});
  CHECK(parse_int_axis("1:4", "b") == V{1, 2, 3, 4});
  CHECK(parse_int_axis("2:10:4", "b") == V{2, 6, 10});
  CHECK(parse_int_axis("-2:2:+2", "b") == V{-2, 0, 2});
  CHECK(parse_int_axis("1,2:8:x2,3", "b") == V{1, 2, 4, 8, 3});
}

TEST_CASE("integer axis: bad input is an InputError naming the axis and the item") {
  auto msg = [](const char *text) {
    try {
      parse_int_axis(text, "--batch");
    } catch (const InputError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(msg("").find("--batch: empty axis") != std::string::npos);
  CHECK(msg("1,,2").find("empty item") != std::string::npos);
  CHECK(msg("abc").find("'abc' is not an integer") != std::string::npos);
  CHECK(msg("1.5").find("not an integer") != std::string::npos);
  CHECK(msg("8:1:x2").find("start is greater than its end") != std::string::npos);
  CHECK(msg("1:8:x1").find("factor must be at least 2") != std::string::npos);
  CHECK(msg("0:8:x2").find("must start at 1 or more") != std::string::npos);
  CHECK(msg("1:8:+0").find("step must be at least 1") != std::string::npos);
  CHECK(msg("1:8:-1").find("step is +N or xN") != std::string::npos);
  CHECK(msg("1:8:x").find("not an integer") != std::string::npos);
  CHECK(msg("1:2:3:4").find("a range is start:end") != std::string::npos);
  CHECK(msg("1:99999999999999999999").find("out of range") != std::string::npos);
  CHECK(msg("1:10000000:+1").find("more than 100000 values") != std::string::npos);
  CHECK(msg("1:8:x2").find("--batch") == std::string::npos); // valid: no error at all
  CHECK(msg("1:8:x2") == "no error");
}

TEST_CASE("list axis") {
  using S = std::vector<std::string>;
  CHECK(parse_list_axis("a100", "--hw") == S{"a100"});
  CHECK(parse_list_axis("v100, a100,v100", "--hw") == S{"v100", "a100"});
  CHECK_THROWS_AS(parse_list_axis("", "--hw"), InputError);
  CHECK_THROWS_AS(parse_list_axis("a,,b", "--hw"), InputError);
  CHECK_THROWS_AS(parse_list_axis("a, ", "--hw"), InputError);
}
