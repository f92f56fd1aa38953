// libFuzzer target: the calibration YAML reader (io::parse_calibration_yaml). A returned
// calibration must pass is_valid, and writing it and reading it back must succeed (a
// calibration perfmodel accepts is one it can also write).
#include "fuzz_contract.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/io/calibration_yaml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  const std::string text(reinterpret_cast<const char *>(data), size);
  fuzz::contract([&] {
    const Calibration cal = io::parse_calibration_yaml(text, fuzz::kFile);
    std::string why;
    fuzz::require(is_valid(cal, &why), "is_valid(calibration)");
    const std::string again = io::write_calibration_yaml(cal);
    try {
      (void)io::parse_calibration_yaml(again, "rewritten.yaml");
    } catch (const InputError &e) {
      fuzz::fail("a written calibration does not read back", e.what());
    }
  });
  return 0;
}
