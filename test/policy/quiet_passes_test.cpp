// Tests of the quiet-pass policy: which passes ran between quiet convolution probes.
#include <doctest/doctest.h>

#include "perfmodel/policy/quiet_passes.hpp"

using namespace perfmodel::policy;

namespace {
std::vector<size_t> idx(std::initializer_list<size_t> v) { return v; }
std::vector<size_t> all(size_t n) {
  std::vector<size_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = i;
  return v;
}
} // namespace

TEST_CASE("select_quiet_passes: every probe quiet keeps every candidate") {
  const QuietSelection s =
      select_quiet_passes({{0, 190e9}, {2, 185e9}, {4, 176e9}}, {0.05, 0.06, 0.055, 0.05}, all(4),
                          0, QuietPassPolicy{});
  CHECK(s.kept == idx({0, 1, 2, 3}));
  CHECK(s.reference_flops_per_second == 190e9);
  CHECK(s.quiet_passes == 4);
  CHECK(s.spell_passes == 0);
  CHECK(s.quiet_median_seconds == doctest::Approx(0.0525));
  CHECK(s.spell_median_seconds == 0);
  CHECK_FALSE(s.all_kept_for_too_few);
}

TEST_CASE("select_quiet_passes: a pass is quiet only with a quiet probe on either side") {
  // Probes before passes 0, 3, 6 and after the last (9); the one before pass 3 in a spell.
  const std::vector<double> t = {0.060, 0.061, 0.080, 0.088, 0.086, 0.070, 0.060, 0.062, 0.061};
  const QuietSelection s = select_quiet_passes({{0, 190e9}, {3, 150e9}, {6, 188e9}, {9, 189e9}}, t,
                                               all(9), 0, QuietPassPolicy{});
  CHECK(s.kept == idx({6, 7, 8}));
  CHECK(s.quiet_passes == 3);
  CHECK(s.spell_passes == 6);
  CHECK(s.quiet_median_seconds == doctest::Approx(0.061));
  CHECK(s.spell_median_seconds == doctest::Approx((0.070 + 0.080) / 2));
}

TEST_CASE("select_quiet_passes: quiet means within the conv tolerance of the fastest probe") {
  const double ref = 200e9, edge = (1 - QuietPassPolicy{}.conv_tolerance) * ref;
  const std::vector<double> t(6, 0.05);
  // at the edge: quiet
  CHECK(select_quiet_passes({{0, ref}, {3, edge}, {6, ref}}, t, all(6), 0, QuietPassPolicy{})
            .quiet_passes == 6);
  // just under it: the passes beside that probe are in a spell
  const QuietSelection s = select_quiet_passes({{0, ref}, {2, edge * 0.999}, {4, ref}, {6, ref}}, t,
                                               all(6), 0, QuietPassPolicy{});
  // two quiet passes (4 and 5) are too few (QuietPassPolicy::min_passes): every candidate is kept
  CHECK(s.quiet_passes == 2);
  CHECK(s.spell_passes == 4);
  CHECK(s.all_kept_for_too_few);
  CHECK(s.kept == idx({0, 1, 2, 3, 4, 5}));
}

TEST_CASE("select_quiet_passes: a calibration's faster figure finds a run wholly in a spell") {
  const std::vector<double> t(4, 0.08);
  const std::vector<PassProbe> probes = {{0, 140e9}, {2, 145e9}, {4, 138e9}};
  // against its own fastest probe every pass is quiet
  CHECK(select_quiet_passes(probes, t, all(4), 0, QuietPassPolicy{}).quiet_passes == 4);
  // against the calibration's 188 GFLOP/s none is: all kept, flagged
  const QuietSelection s = select_quiet_passes(probes, t, all(4), 188e9, QuietPassPolicy{});
  CHECK(s.reference_flops_per_second == 188e9);
  CHECK(s.quiet_passes == 0);
  CHECK(s.spell_passes == 4);
  CHECK(s.all_kept_for_too_few);
  CHECK(s.kept == idx({0, 1, 2, 3}));
  // a slower calibration figure does not lower the bar set by the fastest probe
  CHECK(
      select_quiet_passes(probes, t, all(4), 100e9, QuietPassPolicy{}).reference_flops_per_second ==
      145e9);
}

TEST_CASE("select_quiet_passes: only the candidates are judged and kept") {
  // The faster placement kept passes 1, 2, 3, 4 and 6 of 8; a spell from pass 4 on.
  const std::vector<double> t = {0.05, 0.05, 0.05, 0.05, 0.07, 0.07, 0.07, 0.07};
  const QuietSelection s = select_quiet_passes({{0, 190e9}, {4, 185e9}, {6, 140e9}, {8, 150e9}}, t,
                                               idx({1, 2, 3, 4, 6}), 0, QuietPassPolicy{});
  CHECK(s.kept == idx({1, 2, 3}));
  CHECK(s.quiet_passes == 3);
  CHECK(s.spell_passes == 2);
}

TEST_CASE("select_quiet_passes: probes that do not enclose the candidates judge nothing") {
  const std::vector<double> t = {0.05, 0.05, 0.05};
  for (const std::vector<PassProbe> &probes :
       {std::vector<PassProbe>{}, std::vector<PassProbe>{{0, 190e9}},
        std::vector<PassProbe>{{1, 190e9}, {3, 150e9}},    // none before pass 0
        std::vector<PassProbe>{{0, 190e9}, {2, 150e9}}}) { // none after pass 2
    const QuietSelection s = select_quiet_passes(probes, t, all(3), 0, QuietPassPolicy{});
    CHECK(s.kept == idx({0, 1, 2}));
    CHECK(s.quiet_passes + s.spell_passes == 0);
    CHECK_FALSE(s.all_kept_for_too_few);
  }
  CHECK(select_quiet_passes({{0, 190e9}, {3, 190e9}}, t, {}, 0, QuietPassPolicy{}).kept.empty());
}

TEST_CASE("QuietPassPolicy: the defaults") {
  const QuietPassPolicy p;
  CHECK(p.conv_tolerance == 0.10);
  CHECK(p.probe_interval_seconds == 0.25);
  CHECK(p.min_passes == 3);
  CHECK(p.min_quiet_fraction == 0.25);
}

TEST_CASE("QuietPassPolicy: a wider conv tolerance finds a probe quiet") {
  // the probe before pass 3 reads 15% under the fastest: in a spell by default, quiet at 20%
  const std::vector<PassProbe> probes = {{0, 200e9}, {3, 170e9}, {6, 200e9}};
  const std::vector<double> t(6, 0.05);
  CHECK(select_quiet_passes(probes, t, all(6), 0, QuietPassPolicy{}).spell_passes == 6);
  QuietPassPolicy wide;
  wide.conv_tolerance = 0.20;
  CHECK(select_quiet_passes(probes, t, all(6), 0, wide).quiet_passes == 6);
}

TEST_CASE("passes_in_spell: fewer quiet passes than min_quiet_fraction of those judged") {
  const QuietPassPolicy p;
  CHECK_FALSE(passes_in_spell(190e9, 10, 30, false, p)); // exactly a quarter: not a spell
  CHECK(passes_in_spell(190e9, 9, 31, false, p));
  CHECK(passes_in_spell(190e9, 2, 0, true, p));        // all kept for too few
  CHECK_FALSE(passes_in_spell(0, 0, 40, false, p));    // no calibration figure: not judged
  CHECK_FALSE(passes_in_spell(190e9, 0, 0, false, p)); // nothing judged
  QuietPassPolicy lenient;
  lenient.min_quiet_fraction = 0.2;
  CHECK_FALSE(passes_in_spell(190e9, 9, 31, false, lenient));
}

TEST_CASE("passes_drift: the median probe among the passes against the reference's conv") {
  perfmodel::HostState ref;
  ref.conv_flops_per_second = 200e9;
  const std::vector<PassProbe> probes = {{0, 190e9}, {3, 140e9}, {6, 150e9}, {9, 160e9}};
  REQUIRE(passes_drift(ref, probes));
  CHECK(*passes_drift(ref, probes) == doctest::Approx(155e9 / 200e9 - 1)); // median 155
  CHECK_FALSE(passes_drift(ref, {}));
  CHECK_FALSE(passes_drift(perfmodel::HostState{}, probes)); // a reference without the conv
}
