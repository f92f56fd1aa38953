// The microbenchmark plans and runners: plan sizes, counts per kind, bad cases rejected.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "perfmodel/error.hpp"
#include "perfmodel/kernels/cpu/host_probe.hpp"
#include "perfmodel/kernels/cpu/microbench.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/targets/cpu_eigen/work_split.hpp"

using namespace perfmodel::kernels::cpu;

namespace {

// A GEMM case small enough to run in microseconds.
BenchCase small_gemm(const std::string &name, int64_t batch = 1) {
  BenchCase g;
  g.kind = BenchKind::gemm;
  g.name = name;
  g.gemm = GemmDims{8, 16, 4, batch};
  return g;
}

// Two rounds of 2 timed runs per case, no warm-up, up to 2 extra rounds: the disturbed-round
// tests' plan.
MicrobenchOptions two_rounds_two_extra() {
  MicrobenchOptions o;
  o.warmup = 0;
  o.iters = 4;
  o.rounds = 2;
  o.extra_rounds = 2;
  return o;
}

} // namespace

TEST_CASE("plans cover every kind, names are unique, quick is a smaller plan") {
  MicrobenchOptions q;
  q.quick = true;
  MicrobenchOptions full;
  const auto qp = microbench_plan(q), fp = microbench_plan(full);
  CHECK(qp.size() < fp.size());
  for (const auto *plan : {&qp, &fp}) {
    std::set<std::string> names;
    std::set<BenchKind> kinds;
    std::set<std::string> conv_paths;
    for (const auto &c : *plan) {
      names.insert(c.name);
      kinds.insert(c.kind);
      if (c.kind == BenchKind::conv)
        conv_paths.insert(c.variant);
    }
    CHECK(names.size() == plan->size());
    CHECK(kinds.size() == 7);
    CHECK(conv_paths == std::set<std::string>{"im2col", "direct1x1", "depthwise"});
  }
  // Epilogue variants (no bias; bias and ReLU) of convolutions the executor splits by columns:
  // the products whose passes over C the model charges (docs/calibration.md).
  int variants = 0;
  for (const auto &c : fp) {
    if (c.kind != BenchKind::conv || (c.conv->bias && !c.conv->relu))
      continue;
    ++variants;
    const int64_t rows = c.conv->out_channels, cols = c.conv->out_h() * c.conv->out_w();
    CHECK_FALSE(perfmodel::work_split::gemm_splits_rows(
        rows, cols, c.conv->c * c.conv->kernel_h * c.conv->kernel_w, 2));
    CHECK(c.name.find(c.conv->relu ? "/bias+relu" : "/nobias") != std::string::npos);
  }
  CHECK(variants == 16);
  MicrobenchOptions only = q;
  only.only = "gemm/";
  for (const auto &c : microbench_plan(only))
    CHECK(c.kind == BenchKind::gemm);
}

TEST_CASE("run_bench counts flops and bytes by the boda rules") {
  MicrobenchOptions o;
  o.quick = true;
  o.warmup = 1;
  o.iters = 2;
  const BenchCase g = small_gemm("gemm/test", 2);
  const BenchResult r = run_bench(g, o);
  CHECK(r.flops == 2.0 * 2 * 8 * 16 * 4);
  CHECK(r.bytes == 4.0 * 2 * (8 * 4 + 4 * 16 + 8 * 16));
  CHECK(r.time.iters == 2);
  CHECK(r.time.median_seconds > 0);
  CHECK(r.flops_per_second() > 0);

  BenchCase c;
  c.kind = BenchKind::conv;
  c.name = "conv/test";
  ConvDims d;
  d.c = 4, d.h = d.w = 6, d.out_channels = 8, d.kernel_h = d.kernel_w = 3, d.pad_h = d.pad_w = 1;
  c.conv = d;
  const BenchResult cr = run_bench(c, o);
  CHECK(cr.flops == 2.0 * 6 * 6 * 8 * 4 * 9);
  CHECK(cr.bytes == 4.0 * (4 * 36 + 8 * 4 * 9 + 8 + 8 * 36));

  BenchCase b;
  b.kind = BenchKind::bandwidth;
  b.variant = "triad";
  b.name = "bw/test";
  b.working_set_bytes = 3 * 4 * 4096;
  const BenchResult br = run_bench(b, o);
  // 48 KiB swept 682 times per call (about 32 MiB of traffic, see run_bandwidth)
  CHECK(br.bytes == 3.0 * 4 * 4096 * 682);
  CHECK(br.flops == 2.0 * 4096 * 682);
  CHECK(br.bytes_per_second() > 0);
}

TEST_CASE("fma and launch cases run; malformed cases are input errors") {
  MicrobenchOptions o;
  o.warmup = 1;
  o.iters = 2;
  BenchCase f;
  f.kind = BenchKind::fma;
  f.name = "fma/test";
  f.threads = 1;
  const BenchResult fr = run_bench(f, o);
  CHECK(fr.threads == 1);
  CHECK(fr.flops > 0);
  CHECK(fr.flops_per_second() > 1e8); // any FMA unit does better than 0.1 GFLOP/s
  BenchCase bad;
  bad.kind = BenchKind::gemm;
  bad.name = "gemm/bad";
  CHECK_THROWS_AS(run_bench(bad, o), perfmodel::InputError);
  bad.gemm = GemmDims{0, 4, 4, 1};
  CHECK_THROWS_AS(run_bench(bad, o), perfmodel::InputError);
  BenchCase v;
  v.kind = BenchKind::bandwidth;
  v.variant = "nosuch";
  v.name = "bw/bad";
  v.working_set_bytes = 4096;
  CHECK_THROWS_AS(run_bench(v, o), perfmodel::InputError);
  CHECK(to_string(BenchKind::launch) == "launch");
}

TEST_CASE("run_cases spreads each case over the rounds and merges its samples") {
  MicrobenchOptions o;
  o.quick = true;
  o.warmup = 1;
  o.iters = 6;
  o.rounds = 3;
  std::vector<std::string> order;
  o.progress = [&](size_t i, size_t n, const BenchCase &c) {
    CHECK(i < n);
    CHECK(n == 6);
    order.push_back(c.name);
  };
  o.at_probe = [&](bool boundary) {
    CHECK(boundary); // no probe_interval_seconds: probes between rounds only
    order.push_back("|");
    return std::vector<bool>{}; // no answer for a probe: steady
  };
  const BenchCase g = small_gemm("gemm/a");
  BenchCase h = g;
  h.name = "gemm/b";
  const auto results = run_cases({g, h}, o);
  REQUIRE(results.size() == 2);
  // Round by round: a, b, a, b, a, b, with a boundary call before and after every round.
  CHECK(order == std::vector<std::string>{"|", "gemm/a", "gemm/b", "|", "gemm/a", "gemm/b", "|",
                                          "gemm/a", "gemm/b", "|"});
  for (const auto &r : results) {
    CHECK(r.time.iters == 6); // 2 per round
    CHECK(r.time.samples_seconds.size() == 6);
    CHECK(r.time.cache_state == "in-network");
    CHECK(r.time.min_seconds <= r.time.p20_seconds);
    CHECK(r.time.p20_seconds <= r.time.median_seconds);
    REQUIRE(r.rounds.size() == 3); // each round's own statistics, for the fit
    for (const auto &t : r.rounds) {
      CHECK(t.iters == 2);
      CHECK(t.min_seconds >= r.time.min_seconds);
      CHECK(t.max_seconds <= r.time.max_seconds);
    }
  }
  CHECK(results[1].bench.name == "gemm/b");
  o.rounds = 1; // one round: its statistics are `time`'s
  o.progress = nullptr;
  o.at_probe = nullptr;
  CHECK(run_cases({g}, o)[0].rounds.empty());
}

TEST_CASE("run_cases replaces the rounds next to a disturbed host, up to extra_rounds") {
  MicrobenchOptions o = two_rounds_two_extra();
  const BenchCase g = small_gemm("gemm/a");
  // Boundaries: steady, disturbed, steady, steady, steady: rounds 1 and 2 (each beside the
  // disturbed one) do not count, rounds 3 and 4 (the two extra ones) do.
  std::vector<bool> script{true, false, true, true, true};
  size_t calls = 0, cases_run = 0;
  o.at_probe = [&](bool) {
    ++calls;
    return std::vector<bool>(script.begin(), script.begin() + calls);
  };
  o.progress = [&](size_t, size_t, const BenchCase &) { ++cases_run; };
  auto r = run_cases({g}, o);
  CHECK(calls == 5);
  CHECK(cases_run == 4);
  REQUIRE(r.size() == 1);
  CHECK(r[0].rounds.size() == 2); // rounds 3 and 4
  CHECK(r[0].time.iters == 4);    // their samples only: 2 per round
  // Never steady: every round runs (2 + 2 extra) and all are kept rather than none.
  calls = 0, cases_run = 0;
  script.assign(5, false);
  r = run_cases({g}, o);
  CHECK(cases_run == 4);
  CHECK(r[0].rounds.size() == 4);
  CHECK(r[0].time.iters == 8);
  // Steady throughout: no extra round.
  calls = 0, cases_run = 0;
  script.assign(5, true);
  r = run_cases({g}, o);
  CHECK(cases_run == 2);
  CHECK(r[0].rounds.size() == 2);
}

TEST_CASE("run_cases counts rounds by the latest judgement of every boundary") {
  MicrobenchOptions o = two_rounds_two_extra();
  // After the second round the first boundary is judged again and found disturbed (calibrate:
  // a faster convolution probe came), so round 1 no longer counts and a third round runs.
  const std::vector<std::vector<bool>> answers{
      {true}, {true, true}, {false, true, true}, {false, true, true, true}};
  size_t calls = 0, cases_run = 0;
  o.at_probe = [&](bool) { return answers.at(calls++); };
  o.progress = [&](size_t, size_t, const BenchCase &) { ++cases_run; };
  const auto r = run_cases({small_gemm("gemm/a")}, o);
  CHECK(calls == 4);
  CHECK(cases_run == 3);
  REQUIRE(r.size() == 1);
  CHECK(r[0].rounds.size() == 2); // rounds 2 and 3
  CHECK(r[0].time.iters == 4);
}

TEST_CASE("run_cases probes inside a round and judges each case's run by its own probes") {
  MicrobenchOptions o = two_rounds_two_extra();
  o.probe_interval_seconds = 1e-9; // a probe before every case but a round's first
  // Two cases a and b: per round the probes are |, a, (inside), b, | -- 3 per round, the
  // boundary shared. Probe 1 (inside round 1) disturbed: round 1's a (probes 0-1) and b (1-2)
  // do not count; round 2 (probes 2-4) counts; round 3 (4-6) counts. Each case then has 2.
  std::vector<bool> script{true, false, true, true, true, true, true, true, true};
  std::vector<bool> kinds;
  std::vector<std::string> order;
  o.at_probe = [&](bool boundary) {
    kinds.push_back(boundary);
    order.push_back(boundary ? "|" : ":");
    return std::vector<bool>(script.begin(), script.begin() + long(kinds.size()));
  };
  o.progress = [&](size_t, size_t, const BenchCase &c) { order.push_back(c.name); };
  const BenchCase g = small_gemm("gemm/a");
  BenchCase h = g;
  h.name = "gemm/b";
  auto r = run_cases({g, h}, o);
  CHECK(order == std::vector<std::string>{"|", "gemm/a", ":", "gemm/b", "|", "gemm/a", ":",
                                          "gemm/b", "|", "gemm/a", ":", "gemm/b", "|"});
  REQUIRE(r.size() == 2);
  for (const auto &c : r) {
    REQUIRE(c.runs.size() == 3);
    CHECK(c.rounds.size() == 2);
    CHECK(c.time.iters == 4);
    CHECK(c.runs[1].time.iters == 2);
  }
  // every run, with the probe before it: a's after probes 0, 2, 4 (|), b's after 1, 3, 5 (:)
  for (size_t k = 0; k < 3; ++k) {
    CHECK(r[0].runs[k].probe_before == 2 * k);
    CHECK(r[1].runs[k].probe_before == 2 * k + 1);
    CHECK(r[0].runs[k].counted == (k > 0));
    CHECK(r[1].runs[k].counted == (k > 0));
  }
  // Probe 2 (round 1's boundary, after b) disturbed instead: round 1's a still counts (probes
  // 0-1), its b does not (1-2), nor does round 2's a (2-3); round 2's b (3-4) counts. Each case
  // has 1 of 2, so a third round runs, and each ends with 2 of 3: a rounds 1 and 3, b 2 and 3.
  script = {true, true, false, true, true, true, true, true, true};
  kinds.clear(), order.clear();
  r = run_cases({g, h}, o);
  REQUIRE(r.size() == 2);
  for (const auto &c : r) {
    REQUIRE(c.runs.size() == 3);
    CHECK(c.rounds.size() == 2);
  }
  CHECK(r[0].runs[0].counted);
  CHECK_FALSE(r[0].runs[1].counted);
  CHECK_FALSE(r[1].runs[0].counted);
  CHECK(r[1].runs[1].counted);
  // Under the old rule (a round counts only when both its boundaries are steady) round 1 and 2
  // would both be out and a fourth round would run.
  CHECK(std::count(order.begin(), order.end(), "|") == 4);
}

TEST_CASE("counted_runs: runs counted, in all, and cases that kept every run") {
  std::vector<BenchResult> rs(3);
  rs[0].runs = {{{}, 0, true}, {{}, 1, false}, {{}, 2, true}};
  rs[1].runs = {{{}, 0, false}, {{}, 1, false}}; // none counted: keeps every run
  // rs[2]: no runs at all (a single-round case): not a case without counted runs
  const CountedRuns c = counted_runs(rs);
  CHECK(c.counted == 2);
  CHECK(c.runs == 5);
  CHECK(c.cases_without == 1);
}

TEST_CASE("probe_host measures the FMA rate, a DRAM read, a cross-core read and a convolution") {
  const perfmodel::HostState s = probe_host(perfmodel::policy::ProbePolicy{2});
  // Any FMA unit does better than 0.1 GFLOP/s and any DRAM than 100 MB/s; a probe that
  // returned zeros or an unfinished timing would fail here.
  CHECK(s.fp32_flops_per_second > 1e8);
  CHECK(s.dram_bytes_per_second > 1e8);
  CHECK(s.dram_bytes_per_second < 1e13); // a 192 MiB sweep cannot be served by the caches
  CHECK(s.conv_flops_per_second > 1e8);
  // The convolution runs the FMA units and the caches: never faster than the FMA chains. The
  // two probes run a moment apart on a host other processes share (ctest -j2 runs the calibrate
  // tests beside this one), so one of them may be slowed alone: the margin is 2x (a quiet host
  // gives the convolution about half the FMA rate), against a timing or count off severalfold.
  CHECK(s.conv_flops_per_second < 2.0 * s.fp32_flops_per_second);
  if (num_threads() > 1) {
    CHECK(s.cross_core_bytes_per_second > 1e8);
    CHECK(s.cross_core_bytes_per_second < 1e13);
  }
  ThreadCountScope one(1); // no other core to read from
  CHECK(probe_host(perfmodel::policy::ProbePolicy{2}).cross_core_bytes_per_second == 0);
}

TEST_CASE("the convolution probe is a case of the plan, on the executor's im2col path") {
  const BenchCase probe = conv_probe_case();
  CHECK(probe.name == "conv/im2col/n1c48h40o96k3s1");
  bool in_plan = false;
  for (const BenchCase &c : microbench_plan(MicrobenchOptions{}))
    in_plan = in_plan || c.name == probe.name;
  CHECK(in_plan);
}

TEST_CASE("run_cases defaults to nine rounds for the full plan and one for the quick one") {
  for (bool quick : {false, true}) {
    MicrobenchOptions o;
    o.quick = quick;
    o.warmup = 1;
    o.iters = 9;
    int boundaries = 0;
    o.at_probe = [&](bool) {
      ++boundaries;
      return std::vector<bool>(size_t(boundaries), true);
    };
    const auto results = run_cases({small_gemm("gemm/a")}, o);
    REQUIRE(results.size() == 1);
    CAPTURE(quick);
    CHECK(boundaries == (quick ? 2 : 10)); // before the first round and after each one
    CHECK(results[0].rounds.size() == (quick ? 0u : 9u));
  }
}

TEST_CASE("a lowered convolution's workspace stays cached when it fits with its operands") {
  // n1c40h150o40k3s1 of the plan: input and output 40 x 150 x 150, workspace 9 x that (32 MB)
  const double plane = 40.0 * 150 * 150;
  const double total = 4.0 * (plane + plane + 9 * plane);
  CHECK(conv_workspace_stays_cached(plane, plane, 9 * plane, 128.0 * (1 << 20)));      // Intel: L3
  CHECK_FALSE(conv_workspace_stays_cached(plane, plane, 9 * plane, 32.0 * (1 << 20))); // Zen
  CHECK(conv_workspace_stays_cached(plane, plane, 9 * plane, total));
  CHECK_FALSE(conv_workspace_stays_cached(plane, plane, 9 * plane, total - 1));
  CHECK_FALSE(conv_workspace_stays_cached(1, 1, 1, 0)); // no cache known: evicted
}
