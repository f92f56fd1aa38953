// libFuzzer target: the fit-sample CSV reader (calibrate::parse_samples_csv). Returned samples
// have finite, non-negative counts and times; writing them and reading them back succeeds.
#include "fuzz_contract.hpp"
#include "perfmodel/calibrate/samples_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  const std::string text(reinterpret_cast<const char *>(data), size);
  fuzz::contract([&] {
    const auto samples = calibrate::parse_samples_csv(text, fuzz::kFile);
    for (const auto &s : samples)
      fuzz::require(fuzz::finite_nonneg(s.flops) && fuzz::finite_nonneg(s.bytes) &&
                        fuzz::finite_nonneg(s.seconds),
                    "sample counts and time finite, not negative");
    try {
      (void)calibrate::parse_samples_csv(calibrate::write_samples_csv(samples), "rewritten.csv");
    } catch (const InputError &e) {
      fuzz::fail("written samples do not read back", e.what());
    }
  });
  return 0;
}
