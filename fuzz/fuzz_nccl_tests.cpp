// libFuzzer target: the nccl-tests output reader (io::parse_nccl_tests) and the collective each
// run is taken for (io::run_collective). A returned run has a located header, at least one row
// and a rank count; every row has finite, non-negative sizes, times and bandwidths.
#include "fuzz_contract.hpp"
#include "perfmodel/io/nccl_tests.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  const std::string text(reinterpret_cast<const char *>(data), size);
  fuzz::contract([&] {
    for (const io::NcclTestsRun &r : io::parse_nccl_tests(text, fuzz::kFile)) {
      fuzz::require(r.header.line > 0, "the run's header located");
      fuzz::require(!r.rows.empty(), "a run has rows");
      fuzz::require(r.ranks > 0, "ranks positive");
      for (const io::NcclTestsRow &row : r.rows) {
        fuzz::require(row.line > 0 && row.count >= 0, "row located, count non-negative");
        fuzz::require(fuzz::finite_nonneg(row.bytes) && fuzz::finite_nonneg(row.seconds_out) &&
                          fuzz::finite_nonneg(row.seconds_in) &&
                          fuzz::finite_nonneg(row.algbw_out) &&
                          fuzz::finite_nonneg(row.algbw_in) &&
                          fuzz::finite_nonneg(row.busbw_out) && fuzz::finite_nonneg(row.busbw_in),
                      "row values finite and non-negative");
      }
      io::run_collective(r, std::nullopt, r.ranks);
    }
  });
  return 0;
}
