// libFuzzer target: the fit-sample CSV reader (calibrate::parse_samples_csv). Returned samples
// have finite, non-negative counts and times, a conv geometry (where there is one) of counts
// from 1; writing them and reading them back succeeds and gives the same text again (the file
// holds every feature exactly).
#include "fuzz_contract.hpp"
#include "perfmodel/calibrate/samples_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  const std::string text(reinterpret_cast<const char *>(data), size);
  fuzz::contract([&] {
    const auto samples = calibrate::parse_samples_csv(text, fuzz::kFile);
    for (const auto &s : samples) {
      fuzz::require(fuzz::finite_nonneg(s.flops) && fuzz::finite_nonneg(s.bytes) &&
                        fuzz::finite_nonneg(s.seconds) && fuzz::finite_nonneg(s.parallel_units),
                    "sample counts and time finite, not negative");
      if (s.conv)
        fuzz::require(s.conv->batch >= 1 && s.conv->in_channels >= 1 && s.conv->in_h >= 1 &&
                          s.conv->stride_h >= 1 && s.conv->dilation_w >= 1 && s.conv->groups >= 1,
                      "a conv geometry's counts from 1");
    }
    const std::string written = calibrate::write_samples_csv(samples);
    try {
      const auto back = calibrate::parse_samples_csv(written, "rewritten.csv");
      fuzz::require(calibrate::write_samples_csv(back) == written,
                    "written samples read back as the same samples");
    } catch (const InputError &e) {
      fuzz::fail("written samples do not read back", e.what());
    }
  });
  return 0;
}
