// nccl-tests text output: the realistic file, both placements, and located errors.
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/io/nccl_tests.hpp"

using namespace perfmodel;
using namespace perfmodel::io;

namespace {
const std::string kHead =
    "# nThread 1 nGpus 4 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20 agg "
    "iters: 1 validation: 1 graph: 0\n#\n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
    "time   algbw   busbw #wrong\n";
const std::string kRow8 = "           8             2     float     sum      -1    20.00    0.00   "
                          " 0.00      0    19.00    0.00    0.00      0\n";
const std::string kRow16 = "          16             4     float     sum      -1    21.00    0.00  "
                           "  0.00      0    20.50    0.00    0.00      0\n";
const std::string kTail = "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 0.0 \n#\n";

std::string error_of(const std::string &text) {
  try {
    parse_nccl_tests(text, "n.txt");
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST_CASE("nccl-tests: the realistic DGX H100 file: two runs, ranks, both placements") {
  const auto runs = read_nccl_tests(PERFMODEL_TEST_DATA "/nccl/dgx-h100-8gpu.txt");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].collective == Collective::all_reduce);
  CHECK(runs[1].collective == Collective::all_gather);
  CHECK(runs[0].ranks == 8);
  CHECK(runs[0].header.line == 2);
  REQUIRE(runs[0].rows.size() == 31); // 8 B ... 8 GiB
  const NcclTestsRow &last = runs[0].rows.back();
  CHECK(last.bytes == 8589934592.0);
  CHECK(last.count == 2147483648);
  CHECK(last.type == "float");
  CHECK(last.redop == "sum");
  CHECK(last.seconds_out == rel(42770.3e-6));
  CHECK(last.busbw_out == rel(351.47e9));
  CHECK(last.seconds_in == rel(41480.0e-6));
  CHECK(last.algbw_in == rel(207.09e9));
}

TEST_CASE("nccl-tests: a run without its name is told by busbw / algbw and redop") {
  const auto runs = parse_nccl_tests(kHead + kRow8 + kRow16 + kTail, "n.txt");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].ranks == 4);
  CHECK_FALSE(runs[0].collective);
  NcclTestsRun r = runs[0];
  r.rows[0].algbw_out = 100e9;
  r.rows[0].busbw_out = 150e9; // 2(n-1)/n for n = 4
  CHECK(run_collective(r, std::nullopt, 4) == Collective::all_reduce);
  r.rows[0].busbw_out = 75e9;
  CHECK(run_collective(r, std::nullopt, 4) == Collective::reduce_scatter);
  r.rows[0].redop = "none"; // all_gather or alltoall: cannot tell
  CHECK_THROWS_WITH_AS(run_collective(r, std::nullopt, 4),
                       doctest::Contains("n.txt:1:1: error: cannot tell which collective"),
                       InputError);
  CHECK(run_collective(r, Collective::all_to_all, 4) == Collective::all_to_all);
  r.collective = Collective::all_gather;
  CHECK_THROWS_WITH_AS(run_collective(r, Collective::all_to_all, 4),
                       doctest::Contains("this run is all_gather"), InputError);
}

TEST_CASE("nccl-tests: bad and truncated files are located") {
  CHECK(error_of("hello\n") ==
        "n.txt:1:1: error: not nccl-tests output: a row before the '# nThread ...' header line");
  CHECK(error_of("# just a comment\n") ==
        "n.txt:1:1: error: not nccl-tests output: no '# nThread ... nGpus ...' header line");
  CHECK(error_of(kHead + kRow8) == "n.txt:5:1: error: the nccl-tests run started at line 1 ends "
                                   "without its '# Avg bus bandwidth' line (truncated?)");
  CHECK(error_of(kHead + kRow8.substr(0, 60) + "\n" + kTail)
            .find("n.txt:4:61: error: an nccl-tests row has 13 fields") == 0);
  std::string bad = kRow8;
  bad.replace(bad.find("20.00"), 5, "2x.00");
  CHECK(error_of(kHead + bad + kTail) == "n.txt:4:57: error: time must be a number, not '2x.00'");
  std::string wrong = kRow16;
  wrong.replace(wrong.rfind('0'), 1, "3");
  CHECK(error_of(kHead + wrong + kTail) ==
        "n.txt:4:116: error: this row reports 3 wrong elements: its times are not of a "
        "correct run");
  CHECK(error_of(kHead + kTail) == "n.txt:5:1: error: the nccl-tests run started at line 1 has "
                                   "no rows");
  // -c 0 (no validation) prints N/A in #wrong
  std::string na = kRow8;
  na.replace(na.find("      0    19"), 7, "    N/A");
  CHECK(error_of(kHead + na + kTail).empty());
}

TEST_CASE("nccl-tests: nThread and nGpus must be counts (a fuzz find: nThread 0 gave 0 ranks)") {
  auto head = [&](const std::string &from, const std::string &to) {
    std::string h = kHead;
    h.replace(h.find(from), from.size(), to);
    return h + kRow8 + kTail;
  };
  CHECK(error_of(head("nThread 1", "nThread 0")) ==
        "n.txt:1:11: error: nThread '0' is not a count from 1 to 1048576");
  CHECK(error_of(head("nGpus 4", "nGpus 99999999999999999999")) ==
        "n.txt:1:19: error: nGpus '99999999999999999999' is not a count from 1 to 1048576");
  CHECK(error_of(head("nGpus 4", "nGpus 4x")) ==
        "n.txt:1:19: error: nGpus '4x' is not a count from 1 to 1048576");
  CHECK(parse_nccl_tests(head("nGpus 4", "nGpus 1048576"), "n.txt")[0].ranks == 1048576);
}

TEST_CASE("nccl-tests: a row's count is a whole number within 2^53 (a fuzz find: 1e78)") {
  std::string big = kRow8;
  big.replace(big.find("             2"), 14, "          1e78");
  CHECK(error_of(kHead + big + kTail) ==
        "n.txt:4:23: error: count must be a whole number of at most 2^53, not '1e78'");
  std::string frac = kRow8;
  frac.replace(frac.find("             2"), 14, "           2.5");
  CHECK(error_of(kHead + frac + kTail).find("count must be a whole number") != std::string::npos);
}
