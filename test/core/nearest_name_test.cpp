// The "did you mean" rule: edit distance with swaps, case and separators ignored, a bound on
// how far a suggestion may be.
#include <doctest/doctest.h>

#include "perfmodel/nearest_name.hpp"

using namespace perfmodel;

TEST_CASE("edit_distance counts insertions, deletions, substitutions and adjacent swaps") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("predict", "predict") == 0);
  CHECK(edit_distance("predcit", "predict") == 1); // one swap, not two substitutions
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("FP16", "fp16") == 0); // case-insensitive
  CHECK(edit_distance("batchsize", "batch") == 4);
}

TEST_CASE("nearest_name suggests a close name and nothing for a far one") {
  const std::vector<std::string> cmds{"predict", "list",     "info",      "convert", "trace",
                                      "sweep",   "roofline", "calibrate", "kernels", "measure"};
  CHECK(nearest_name("predcit", cmds) == "predict");
  CHECK(nearest_name("sweeep", cmds) == "sweep");
  CHECK(nearest_name("Roofline", cmds) == "roofline");
  CHECK(nearest_name("calib", cmds) == "calibrate"); // a prefix of 3+ letters
  CHECK_FALSE(nearest_name("xyz", cmds));
  CHECK_FALSE(nearest_name("", cmds));

  const std::vector<std::string> opts{"--hw", "--model", "-m", "--batch", "-b", "--dtype"};
  CHECK(nearest_name("--batchsize", opts) == "--batch");
  CHECK(nearest_name("--batch-size", opts) == "--batch");
  CHECK(nearest_name("--modle", opts) == "--model");
  CHECK(nearest_name("--hwx", opts) == "--hw");
  CHECK_FALSE(nearest_name("--fusion", opts));
  CHECK(did_you_mean("--dtpye", opts) == " (did you mean '--dtype'?)");
  CHECK(did_you_mean("--zzz", opts).empty());
}

TEST_CASE("nearest_name prefers the smallest distance, then the earliest candidate") {
  CHECK(nearest_name("dtpye", {"dim", "dtype"}) == "dtype");
  CHECK(nearest_name("fp61", {"fp64", "fp16"}) == "fp64"); // both 1 away: the first
}

TEST_CASE("ascii_lower and iequals ignore ASCII case only") {
  CHECK(perfmodel::ascii_lower("A100-SXM") == "a100-sxm");
  CHECK(perfmodel::iequals("H100", "h100"));
  CHECK_FALSE(perfmodel::iequals("h100", "h10"));
}
