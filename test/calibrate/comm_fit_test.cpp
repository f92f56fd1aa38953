// Collective fits: a synthetic nccl-tests table recovers its latency and bandwidth.
#include <doctest/doctest.h>

#include <cmath>

#include "../test_approx.hpp"
#include "perfmodel/calibrate/comm_fit.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;

namespace {

// times of a ring collective at alpha per step and bus bandwidth B, each off by up to +-0.5%
std::vector<SizeTime> synthetic(Collective c, int64_t n, double alpha, double bw) {
  std::vector<SizeTime> v;
  int k = 0;
  for (double s = 8; s <= 8.6e9; s *= 2, ++k) {
    const double t = flat_seconds(c, Algorithm::ring, n, s, alpha, bw);
    v.push_back({s, t * (1 + 0.005 * std::sin(1.7 * k))});
  }
  return v;
}

} // namespace

TEST_CASE("comm fit: a synthetic nccl-tests table recovers latency and bus bandwidth within 1%") {
  for (Collective c : {Collective::all_reduce, Collective::all_gather, Collective::all_to_all}) {
    const CollectiveFit f = fit_collective(c, 8, synthetic(c, 8, 1.7e-6, 362e9));
    CHECK(f.latency_per_step_seconds == rel(1.7e-6, 0.01));
    CHECK(f.bus_bytes_per_second == rel(362e9, 0.01));
    CHECK(f.samples == 31);
    CHECK(f.rms_relative_residual < 0.005);
  }
}

TEST_CASE("comm fit: exact times give the figures exactly; a negative intercept is held at 0") {
  const CollectiveFit f =
      fit_collective(Collective::all_reduce, 4,
                     {{1e6, 6 * 2e-6 + 1.5e6 / 100e9}, {1e8, 6 * 2e-6 + 1.5e8 / 100e9}});
  CHECK(f.latency_per_step_seconds == rel(2e-6, 1e-9));
  CHECK(f.bus_bytes_per_second == rel(100e9, 1e-9));
  // times shorter than bandwidth alone allows at small sizes: no negative latency
  const CollectiveFit z = fit_collective(Collective::all_reduce, 4, {{1e6, 1e-6}, {1e8, 1.5e-3}});
  CHECK(z.latency_per_step_seconds == 0);
  CHECK(z.bus_bytes_per_second > 0);
}

TEST_CASE("comm fit: too little data or times that do not grow are input errors") {
  CHECK_THROWS_WITH_AS(fit_collective(Collective::all_reduce, 8, {{8, 1e-5}, {8, 1.1e-5}}),
                       doctest::Contains("at least two sizes"), InputError);
  CHECK_THROWS_WITH_AS(fit_collective(Collective::all_reduce, 8, {{8, 1e-3}, {1e9, 1e-5}}),
                       doctest::Contains("do not grow with the size"), InputError);
}

TEST_CASE("comm fit: the realistic file's runs fit one per collective") {
  const auto runs = io::read_nccl_tests(PERFMODEL_TEST_DATA "/nccl/dgx-h100-8gpu.txt");
  const CommCalibration cal = fit_nccl_tests(runs, 8, std::nullopt);
  REQUIRE(cal.fits.size() == 2);
  // the file was written with 24 us + 1.75 x size / 362 GB/s, +-3% noise
  CHECK(cal.fits.at(Collective::all_reduce).bus_bytes_per_second == rel(362e9, 0.03));
  CHECK(cal.fits.at(Collective::all_reduce).latency_per_step_seconds == rel(24e-6 / 14, 0.05));
  CHECK_THROWS_WITH_AS(fit_nccl_tests(runs, 16, std::nullopt),
                       doctest::Contains("dgx-h100-8gpu.txt:2:1: error: this run has 8 ranks, "
                                         "--gpus says 16"),
                       InputError);
}
