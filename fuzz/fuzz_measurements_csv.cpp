// libFuzzer target: the measurement CSV reader (io::parse_measurements_csv). Returned rows have
// positive sizes and, when timed, a finite positive time.
#include "fuzz_contract.hpp"
#include "perfmodel/io/measurements_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  const std::string text(reinterpret_cast<const char *>(data), size);
  fuzz::contract([&] {
    for (const auto &r : io::parse_measurements_csv(text, fuzz::kFile)) {
      fuzz::require(r.batch > 0 && r.stride_h > 0 && r.stride_w > 0 && r.dilation_h > 0 &&
                        r.dilation_w > 0 && r.groups > 0 && r.pad_h >= 0 && r.pad_w >= 0,
                    "row sizes positive");
      if (r.op == io::KernelOp::gemm)
        fuzz::require(r.m > 0 && r.n > 0 && r.k > 0, "gemm sizes positive");
      else
        fuzz::require(r.c > 0 && r.h > 0 && r.w > 0 && r.out_channels > 0 && r.kernel_h > 0 &&
                          r.kernel_w > 0,
                      "conv sizes positive");
      if (r.seconds)
        fuzz::require(fuzz::finite_pos(*r.seconds), "time finite and positive");
    }
  });
  return 0;
}
