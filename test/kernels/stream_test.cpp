// Stream kernels compute what they claim (read sums, copy copies, triad), FMA flop counts.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "perfmodel/kernels/cpu/stream.hpp"

using namespace perfmodel::kernels::cpu;

TEST_CASE("read, copy and triad compute their results for any length") {
  for (int64_t n : {1, 15, 16, 129, 1000}) {
    std::vector<float> a(n, 0.5f), b(n, 2.0f), c(n, 4.0f);
    CHECK(stream_read(a.data(), n) == doctest::Approx(0.5 * n));
    stream_copy(b.data(), a.data(), n);
    CHECK(a == b);
    stream_triad(a.data(), b.data(), c.data(), 0.25f, n);
    for (float v : a)
      CHECK(v == 3.0f);
  }
}

TEST_CASE("fma chains count 2 flops per lane per chain and return finite values") {
  CHECK(fma_flops(10, false) ==
        doctest::Approx(2.0 * 10 * kFmaChains * (fma_flops(1, false) / (2.0 * kFmaChains))));
  CHECK(fma_flops(1, false) == doctest::Approx(2.0 * fma_flops(1, true)));
  CHECK(std::isfinite(fma_chains_fp32(1000)));
  CHECK(std::isfinite(fma_chains_fp64(1000)));
}
