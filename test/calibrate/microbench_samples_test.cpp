// Tests of the microbenchmark -> sample conversion (on hand-made results: no timing here).
#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "../test_approx.hpp"
#include "perfmodel/calibrate/microbench_samples.hpp"
#include "perfmodel/error.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;
namespace kc = perfmodel::kernels::cpu;

namespace {

kc::BenchResult result(kc::BenchKind kind, const std::string &variant, double seconds) {
  kc::BenchResult r;
  r.bench.kind = kind;
  r.bench.variant = variant;
  r.bench.name = "case/" + variant;
  r.time.median_seconds = seconds;
  r.flops = 1000;
  r.bytes = 8000;
  return r;
}

} // namespace

TEST_CASE("each benchmark kind maps to its class, machine-only kinds give none") {
  kc::BenchResult g = result(kc::BenchKind::gemm, "", 1e-4);
  g.bench.gemm = kc::GemmDims{32, 16, 8, 1};
  auto s = sample_from_bench(g);
  REQUIRE(s);
  CHECK(s->op_class == OpClass::gemm);
  CHECK(s->flops == 2.0 * 32 * 16 * 8); // recounted by the core, not the benchmark's 1000
  CHECK(s->source == "microbench:case/");

  kc::BenchResult c = result(kc::BenchKind::conv, "depthwise", 1e-4);
  c.bench.conv = kc::ConvDims{1, 8, 10, 10, 8, 3, 3, 1, 1, 1, 1, 1, 1, 8};
  s = sample_from_bench(c);
  REQUIRE(s);
  CHECK(s->op_class == OpClass::depthwise);

  // The epilogue the case ran: a bias unless it says otherwise, and its fused ReLU.
  c.bench.conv = kc::ConvDims{1, 8, 10, 10, 16, 1, 1, 1, 1, 0, 0, 1, 1, 1};
  c.bench.variant = "direct1x1";
  CHECK(sample_from_bench(c)->epilogue_sweeps == 1);
  c.bench.conv->relu = true;
  CHECK(sample_from_bench(c)->epilogue_sweeps == 2);
  c.bench.conv->bias = c.bench.conv->relu = false;
  CHECK(sample_from_bench(c)->epilogue_sweeps == 0);
  CHECK(sample_from_bench(c)->weight_bytes == 4.0 * 16 * 8); // read cold once: t_w
  // An im2col case with a stride along the width: its matrix is gathered (the strided term).
  c.bench.conv = kc::ConvDims{1, 8, 10, 10, 16, 3, 3, 2, 2, 1, 1, 1, 1, 1};
  c.bench.variant = "im2col";
  s = sample_from_bench(c);
  REQUIRE(s);
  CHECK(s->op_class == OpClass::conv);
  CHECK(s->lowered_bytes == 4.0 * 25 * 72);
  CHECK(s->strided_lowered_bytes == s->lowered_bytes);

  CHECK(sample_from_bench(result(kc::BenchKind::elementwise, "relu", 1e-5))->op_class ==
        OpClass::elementwise);
  CHECK(sample_from_bench(result(kc::BenchKind::elementwise, "batchnorm", 1e-5))->op_class ==
        OpClass::norm);
  CHECK(sample_from_bench(result(kc::BenchKind::pool, "max", 1e-5))->op_class == OpClass::pool);
  CHECK(sample_from_bench(result(kc::BenchKind::pool, "global", 1e-5))->op_class ==
        OpClass::reduce);
  CHECK(sample_from_bench(result(kc::BenchKind::bandwidth, "copy", 1e-5))->op_class ==
        OpClass::data_movement);
  CHECK_FALSE(sample_from_bench(result(kc::BenchKind::elementwise, "sigmoid", 1e-5)));
  CHECK_FALSE(sample_from_bench(result(kc::BenchKind::bandwidth, "triad", 1e-5)));
  CHECK_FALSE(sample_from_bench(result(kc::BenchKind::fma, "", 1e-5)));
  CHECK_FALSE(sample_from_bench(result(kc::BenchKind::pool, "max", 0))); // not timed

  const auto all = samples_from_benches({g, c, result(kc::BenchKind::launch, "pool", 2e-6)});
  CHECK(all.size() == 2);
  const auto ref = microbench_reference(
      {result(kc::BenchKind::fma, "", 1e-6), result(kc::BenchKind::launch, "pool", 2e-6)});
  CHECK(ref.fma_flops_per_second == doctest::Approx(1e9));
  CHECK(ref.launch_seconds == 2e-6);
}

TEST_CASE("supplementary matrix-vector cases span the memory levels") {
  const double cache = 32.0 * (1 << 20); // a 32 MiB L3: the DRAM convolutions keep their sizes
  const auto full = supplementary_cases(false, cache);
  const auto quick = supplementary_cases(true, cache);
  CHECK(quick.size() < full.size());
  double lo = 1e30, hi = 0;
  int convs = 0;
  for (const auto &c : full) {
    if (c.kind == kc::BenchKind::conv) {
      REQUIRE(c.conv);
      const double lowered =
          4.0 * c.conv->out_h() * c.conv->out_w() * c.conv->c * c.conv->kernel_h * c.conv->kernel_w;
      CHECK(lowered > 40e6); // beyond the L3
      ++convs;
      continue;
    }
    REQUIRE(c.gemm);
    CHECK(c.gemm->m == 1);
    CHECK(c.kind == kc::BenchKind::gemm);
    const double bytes = 4.0 * double(c.gemm->n) * double(c.gemm->k);
    lo = std::min(lo, bytes);
    hi = std::max(hi, bytes);
  }
  CHECK(lo < 96e3);  // inside an L1
  CHECK(hi > 100e6); // beyond any L3
  CHECK(convs == 3);
  CHECK(full.back().name == "conv/im2col-dram/c16h256o32k5");
  kc::BenchResult r;
  r.bench = full[0];
  r.time.median_seconds = 1e-6;
  CHECK(sample_from_bench(r)->op_class == OpClass::gemv);
}

TEST_CASE("the DRAM convolution cases grow past a large outermost cache") {
  // Input + output + im2col matrix of a same-size convolution, fp32.
  const auto working_set = [](const kc::ConvDims &d) {
    const double pixels = double(d.out_h()) * double(d.out_w());
    return 4.0 * pixels * double(d.c + d.out_channels + d.c * d.kernel_h * d.kernel_w);
  };
  for (double cache : {32.0 * (1 << 20), 128.0 * (1 << 20), 1024.0 * (1 << 20)}) {
    CAPTURE(cache);
    int convs = 0;
    for (const auto &c : supplementary_cases(false, cache)) {
      if (c.kind != kc::BenchKind::conv)
        continue;
      REQUIRE(c.conv);
      CHECK(c.conv->out_h() == c.conv->h); // "same" padding, stride 1
      CHECK(working_set(*c.conv) >= kDramCaseCacheMultiple * cache);
      CHECK(c.name.find("h" + std::to_string(c.conv->h) + "o") != std::string::npos);
      ++convs;
    }
    CHECK(convs == 3);
  }
  // 128 MiB: the c32 -> 64 family's 1,536 B per pixel need a 362-pixel side, rounded to 368.
  CHECK(dram_conv_side(32, 64, 3, 200, 128.0 * (1 << 20)) == 368);
  CHECK(dram_conv_side(32, 64, 3, 200, 32.0 * (1 << 20)) == 200); // the base side suffices
  CHECK(dram_conv_side(32, 64, 3, 200, std::numeric_limits<double>::infinity()) == 200);
  CHECK(dram_conv_side(32, 64, 3, 200, 0.0) == 200);
}

TEST_CASE("the min statistic takes the least disturbed run") {
  kc::BenchResult r = result(kc::BenchKind::pool, "max", 2e-5);
  r.time.min_seconds = 1.5e-5;
  CHECK(sample_from_bench(r)->seconds == 2e-5);
  CHECK(sample_from_bench(r, TimeStatistic::min)->seconds == 1.5e-5);
  CHECK(samples_from_benches({r}, TimeStatistic::min)[0].seconds == 1.5e-5);
  r.time.p20_seconds = 1.7e-5;
  CHECK(sample_from_bench(r, TimeStatistic::p20)->seconds == 1.7e-5);
}

TEST_CASE("with rounds, the sample is the median across rounds of each round's statistic") {
  kc::BenchResult r = result(kc::BenchKind::pool, "max", 2e-5);
  r.time.p20_seconds = 1.0e-5; // the pooled runs' p20: the fastest round's state
  auto round = [](double median, double p20, double min) {
    kc::TimingStats t;
    t.median_seconds = median, t.p20_seconds = p20, t.min_seconds = min;
    return t;
  };
  r.rounds = {round(3e-5, 2.6e-5, 2.5e-5), round(1.2e-5, 1.0e-5, 0.9e-5),
              round(2.2e-5, 2.0e-5, 1.9e-5)};
  CHECK(sample_from_bench(r, TimeStatistic::p20)->seconds == rel(2.0e-5));
  CHECK(sample_from_bench(r, TimeStatistic::median)->seconds == rel(2.2e-5));
  CHECK(sample_from_bench(r, TimeStatistic::min)->seconds == rel(1.9e-5));
  r.rounds.pop_back(); // an even count: the mean of the middle two
  CHECK(sample_from_bench(r, TimeStatistic::p20)->seconds == rel(1.8e-5));
}

TEST_CASE("runs_csv: every run with the probes on either side and its round's statistic") {
  kc::BenchResult r = result(kc::BenchKind::gemm, "a", 0);
  kc::TimingStats t1, t2;
  t1.p20_seconds = 1.5e-3, t1.median_seconds = 2e-3;
  t2.p20_seconds = 2.5e-3, t2.median_seconds = 3e-3;
  r.runs = {{t1, 0, true}, {t2, 1, false}};
  // a host probe, a convolution probe (disturbed) inside the round, a host probe
  const std::vector<HostState> probes{HostState{3e11, 3e10, 4e10, 1.9e11},
                                      HostState{0, 0, 0, 1.4e11},
                                      HostState{3e11, 3e10, 4e10, 1.8e11}};
  const std::string csv =
      runs_csv({r}, probes, {true, false, true}, {true, false, true}, TimeStatistic::p20);
  CHECK(csv == "case,round,counted,probe_before,probe_before_conv (FLOP/s),probe_before_steady,"
               "probe_after,probe_after_conv (FLOP/s),probe_after_steady,p20 (s)\n"
               "case/a,1,1,host,1.9e+11,1,conv,1.4e+11,0,0.0015\n"
               "case/a,2,0,conv,1.4e+11,0,host,1.8e+11,1,0.0025\n");
  CHECK(runs_csv({r}, probes, {true, false, true}, {true, false, true}, TimeStatistic::median)
            .find(",0.003\n") != std::string::npos);
  // a run whose probe after it was never taken
  r.runs.push_back({t2, 2, false});
  CHECK_THROWS_AS(
      runs_csv({r}, probes, {true, false, true}, {true, false, true}, TimeStatistic::p20),
      InputError);
}
