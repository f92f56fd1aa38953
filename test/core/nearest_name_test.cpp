// Tests of the name matching behind "did you mean" messages.
#include <doctest/doctest.h>

#include "perfmodel/nearest_name.hpp"

using namespace perfmodel;

TEST_CASE("edit distance counts insertions, deletions, substitutions and swaps, ignoring case") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("a10O", "a100") == 1);
  CHECK(edit_distance("A100", "a100") == 0);
  CHECK(edit_distance("predcit", "predict") == 1); // adjacent swap
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("resnet50", "resnet18") == 2);
}

TEST_CASE("the nearest name is suggested only when it is close enough to be a typo") {
  const std::vector<std::string> hw = {"a100", "h100", "t4", "v100", "xeon-emr-2c"};
  CHECK(nearest_name("a10O", hw) == "a100");
  CHECK(nearest_name("xeon-emr", hw) == "xeon-emr-2c"); // a prefix
  CHECK(nearest_name("x", hw) == "xeon-emr-2c");
  CHECK_FALSE(nearest_name("resnet50", hw));
  CHECK_FALSE(nearest_name("A100", hw)); // a known name: nothing to suggest
  CHECK_FALSE(nearest_name("", hw));
  CHECK(nearest_name("g100", hw) == "a100"); // ties: the earlier name
  CHECK(did_you_mean("t5", hw) == " (did you mean 't4'?)");
  CHECK(did_you_mean("mi300", hw).empty());
}

TEST_CASE("case-insensitive helpers") {
  CHECK(ascii_lower("A100-SXM") == "a100-sxm");
  CHECK(iequals("FP16", "fp16"));
  CHECK_FALSE(iequals("fp16", "fp32"));
}
