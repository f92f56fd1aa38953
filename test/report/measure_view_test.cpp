// measure_view: errors, MAPE over the layers above the threshold, end-to-end error, renderings.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../test_approx.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/report/measure_view.hpp"

using namespace perfmodel;
using namespace perfmodel::report;

namespace {

struct Fixture {
  std::vector<Layer> layers;
  Prediction p;
  MeasurementRun run;

  Fixture() {
    // predicted 1.1 ms vs 1.0 ms (+10%), 0.8 ms vs 1.0 ms (-20%), 10 us vs 20 us (below 50 us)
    const double pred[] = {1.1e-3, 0.8e-3, 10e-6}, meas[] = {1.0e-3, 1.0e-3, 20e-6};
    layers.resize(3);
    for (int i = 0; i < 3; ++i) {
      layers[i].name = "l" + std::to_string(i);
      layers[i].op_name = i == 2 ? "relu" : "conv2d";
    }
    p.model = "toy";
    p.hardware = "cpu-x";
    p.batch = 2;
    for (int i = 0; i < 3; ++i) {
      LayerPrediction lp;
      lp.layer = &layers[i];
      lp.cost.total.flops = 1000 * (i + 1);
      lp.cost.total.bytes_input = 400;
      lp.timing.seconds = pred[i];
      lp.timing.bound = Bound::compute;
      p.layers.push_back(lp);
      MeasuredLayer ml;
      ml.name = layers[i].name;
      ml.path = "gemm";
      ml.stats.median_seconds = meas[i];
      ml.stats.mean_seconds = meas[i];
      ml.stats.min_seconds = meas[i] * 0.9;
      ml.stats.max_seconds = meas[i] * 1.1;
      ml.stats.iters = 10;
      ml.stats.warmup = 3;
      ml.stats.cache_state = "warm";
      ml.stats.noisy = i == 1;
      run.layers.push_back(ml);
    }
    p.totals.predicted_seconds = 1.91e-3;
    run.statistic =
        TimeStatistic::median; // the fixture's numbers are medians (p20 is the CLI's default)
    run.device = "cpu: test (2 threads)";
    run.executed_dtype = "fp32";
    run.threads = 2;
    run.network.median_seconds = 2.0e-3;
    run.network.iters = 10;
    run.network.warmup = 3;
    run.network.cache_state = "warm";
    run.noisy_range_fraction = 0.5;
    run.noisy_sd_fraction = 0.1;
  }
};

} // namespace

TEST_CASE("errors per layer, MAPE above the threshold, end-to-end error") {
  Fixture f;
  const MeasurementView v = make_measurement_view(f.p, f.run);
  REQUIRE(v.rows.size() == 3);
  CHECK(*v.rows[0].error == doctest::Approx(0.10));
  CHECK(*v.rows[1].error == doctest::Approx(-0.20));
  CHECK(*v.rows[2].error == doctest::Approx(-0.50));
  CHECK(v.rows[0].in_summary);
  CHECK_FALSE(v.rows[2].in_summary);
  CHECK(v.summary.layers_in_summary == 2);
  CHECK(v.summary.mape == doctest::Approx(0.15));
  CHECK(v.summary.median_abs_error == doctest::Approx(0.15));
  CHECK(v.summary.end_to_end_error == doctest::Approx(1.91 / 2.0 - 1.0));
  CHECK(v.summary.measured_layer_sum_seconds == rel(2.02e-3));
  CHECK(v.summary.noisy_layers == 1);
}

TEST_CASE("end to end: a whole pass is predicted as the layers' sum plus the pass excess") {
  Fixture f;
  f.p.pass_excess_seconds = 0.09e-3; // 1.91 + 0.09 = 2.0 ms, the measured passes
  const MeasurementView v = make_measurement_view(f.p, f.run);
  CHECK(v.summary.predicted_total_seconds == rel(2.0e-3));
  CHECK(v.summary.predicted_layer_sum_seconds == rel(1.91e-3));
  CHECK(v.summary.end_to_end_error == doctest::Approx(0).scale(1e-9));
  const std::string table = render_measurement(v, Format::table);
  INFO(table);
  CHECK(table.find("predicted 2.00ms (sum of layers 1.91ms + pass excess 90.0us)") !=
        std::string::npos);
  const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["summary"]["predicted_total_seconds"].get<double>() == rel(2.0e-3));
  CHECK(j["summary"]["predicted_layer_sum_seconds"].get<double>() == rel(1.91e-3));
  CHECK(j["summary"]["predicted_pass_excess_seconds"].get<double>() == rel(0.09e-3));
  // without one, the layers' sum; the table does not mention it
  f.p.pass_excess_seconds = 0;
  const MeasurementView plain = make_measurement_view(f.p, f.run);
  CHECK(plain.summary.predicted_total_seconds == rel(1.91e-3));
  CHECK(render_measurement(plain, Format::table).find("pass excess") == std::string::npos);
}

TEST_CASE("errors against the min: the least disturbed run") {
  Fixture f;
  f.run.statistic = TimeStatistic::min;
  f.run.network.min_seconds = 1.8e-3;
  const MeasurementView v = make_measurement_view(f.p, f.run);
  CHECK(v.rows[0].measured_seconds == rel(0.9e-3));
  CHECK(*v.rows[0].error == doctest::Approx(1.1 / 0.9 - 1.0));
  CHECK(v.summary.end_to_end_error == doctest::Approx(1.91 / 1.8 - 1.0));
  const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["statistic"] == "min");
  CHECK(j["layers"][0]["measured_seconds"].get<double>() == rel(0.9e-3));
  CHECK(render_measurement(v, Format::table).find("against the min") != std::string::npos);
  // CSV: the statistic's column first (what `error` uses), the median still beside it
  const std::string c = render_measurement(v, Format::csv);
  CHECK(c.rfind("layer,op,path,flops,bytes,predicted (s),measured min (s),median (s),", 0) == 0);
  CHECK(c.find("l0,conv2d,gemm,1000,400,0.0011,0.0009,0.001,") != std::string::npos);
  f.run.statistic = TimeStatistic::p20;
  f.run.layers[0].stats.p20_seconds = 0.95e-3;
  CHECK(*make_measurement_view(f.p, f.run).rows[0].error == doctest::Approx(1.1 / 0.95 - 1.0));
}

TEST_CASE("a mismatched measurement is an input error") {
  Fixture f;
  f.run.layers.pop_back();
  CHECK_THROWS_AS(make_measurement_view(f.p, f.run), InputError);
  Fixture g;
  g.run.layers[1].name = "other";
  CHECK_THROWS_WITH_AS(make_measurement_view(g.p, g.run), doctest::Contains("'other'"), InputError);
}

TEST_CASE("JSON carries the schema, per-layer stats and the summary") {
  Fixture f;
  const auto j =
      nlohmann::json::parse(render_measurement(make_measurement_view(f.p, f.run), Format::json));
  CHECK(j["schema"] == "perfmodel.measurement/1");
  REQUIRE(j["layers"].size() == 3);
  CHECK(j["layers"][0]["measured_seconds"].get<double>() == rel(1e-3));
  CHECK(j["layers"][0]["predicted_seconds"].get<double>() == rel(1.1e-3));
  CHECK(j["layers"][0]["error"].get<double>() == doctest::Approx(0.1));
  CHECK(j["layers"][1]["stats"]["noisy"] == true);
  CHECK(j["layers"][0]["stats"]["cache_state"] == "warm");
  CHECK(j["summary"]["mape"].get<double>() == doctest::Approx(0.15));
  CHECK(j["summary"].contains("end_to_end_error"));
  CHECK(j["summary"]["measured_total_seconds"].get<double>() == rel(2e-3));
}

TEST_CASE("host probes: drift from the calibration's, flagged beyond the tolerance") {
  Fixture f;
  {
    const MeasurementView v = make_measurement_view(f.p, f.run); // no probes: nothing to say
    CHECK_FALSE(v.host.changed);
    CHECK(render_measurement(v, Format::table).find("host") == std::string::npos);
    const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
    CHECK(j["host_state"]["before"].is_null());
    CHECK(j["host_state"]["changed"] == false);
  }
  f.run.host_before = HostState{4.6e11, 4.4e10};
  f.run.host_after = HostState{4.8e11, 4.6e10};
  {
    const MeasurementView v = make_measurement_view(f.p, f.run); // probes, no reference
    CHECK_FALSE(v.host.drift_before);
    CHECK_FALSE(v.host.changed);
    CHECK(render_measurement(v, Format::table).find("the calibration has none to compare with") !=
          std::string::npos);
  }
  f.run.host_reference = HostState{4.7e11, 4.5e10};
  {
    const MeasurementView v = make_measurement_view(f.p, f.run); // within 10%: same state
    REQUIRE(v.host.drift_after);
    CHECK(v.host.drift_before->compute == doctest::Approx(4.6 / 4.7 - 1));
    CHECK(v.host.drift_after->memory == doctest::Approx(4.6 / 4.5 - 1));
    CHECK_FALSE(v.host.changed);
    const std::string t = render_measurement(v, Format::table);
    CHECK(t.find("host drift from the calibration (before / after): compute -2.1% / +2.1%, "
                 "memory -2.2% / +2.2%") != std::string::npos);
    CHECK(t.find("not in its calibrated state") == std::string::npos);
  }
  f.run.host_after = HostState{2.4e11, 4.6e10}; // a busy SMT sibling halves the FMA rate
  const MeasurementView v = make_measurement_view(f.p, f.run);
  CHECK(v.host.changed);
  CHECK(render_measurement(v, Format::table).find("not in its calibrated state") !=
        std::string::npos);
  const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["host_state"]["changed"] == true);
  CHECK(j["host_state"]["compute_tolerance"].get<double>() == doctest::Approx(0.1));
  CHECK(j["host_state"]["reference"]["dram_bytes_per_second"].get<double>() ==
        doctest::Approx(4.5e10));
  CHECK(j["host_state"]["drift_after"]["compute"].get<double>() == doctest::Approx(2.4 / 4.7 - 1));
  CHECK(j["host_state"]["cross_core_tolerance"].get<double>() == doctest::Approx(0.25));
}

TEST_CASE("the cross-core probe: reported, and a thread placement unlike the calibration's is "
          "another state") {
  Fixture f;
  f.run.host_reference = HostState{4.7e11, 4.5e10, 1.0e11};
  f.run.host_before = HostState{4.7e11, 4.5e10, 0.95e11};
  f.run.host_after = HostState{4.7e11, 4.5e10, 3.8e10}; // the vCPUs moved apart
  const MeasurementView v = make_measurement_view(f.p, f.run);
  CHECK(v.host.changed);
  const std::string t = render_measurement(v, Format::table);
  CHECK(t.find("host probes (fp32 FMA, DRAM read, cross-core read, conv, core round trip): before "
               "470GFLOP/s, "
               "45.0GB/s, 95.0GB/s;") != std::string::npos);
  CHECK(t.find("memory +0.0% / +0.0%, cross-core -5.0% / -62.0%\n") != std::string::npos);
  CHECK(t.find(", cross-core beyond 25.0%, or the faster conv probe beyond") != std::string::npos);
  const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["host_state"]["after"]["cross_core_bytes_per_second"].get<double>() ==
        doctest::Approx(3.8e10));
  CHECK(j["host_state"]["drift_after"]["cross_core"].get<double>() == doctest::Approx(-0.62));
}

TEST_CASE("the core round trip: reported, and it judges the placement where both have it") {
  Fixture f;
  f.run.host_reference = HostState{1.85e11, 2.2e10, 4.7e10, 7.5e10, 0.36e-6};
  // the cross-core read 36% fast, the round trip unmoved: the same placement
  f.run.host_before = HostState{1.85e11, 2.2e10, 6.4e10, 7.5e10, 0.33e-6};
  f.run.host_after = HostState{1.85e11, 2.2e10, 6.4e10, 7.5e10, 0.40e-6};
  CHECK_FALSE(make_measurement_view(f.p, f.run).host.changed);
  f.run.host_after = HostState{1.85e11, 2.2e10, 2.2e10, 7.5e10, 1.31e-6}; // the other placement
  const MeasurementView v = make_measurement_view(f.p, f.run);
  CHECK(v.host.changed);
  const std::string t = render_measurement(v, Format::table);
  CHECK(t.find("conv 75.0GFLOP/s, round trip 1.31us;") != std::string::npos);
  CHECK(t.find(", round trip -8.3% / +263.9%\n") != std::string::npos);
  CHECK(t.find(", the core round trip beyond 2x either way, or the faster conv probe") !=
        std::string::npos);
  const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["host_state"]["after"]["core_round_trip_seconds"].get<double>() == rel(1.31e-6));
  CHECK(j["host_state"]["drift_after"]["round_trip"].get<double>() ==
        doctest::Approx(1.31 / 0.36 - 1));
  CHECK(j["host_state"]["drift_after"]["placement_by_round_trip"] == true);
  CHECK(j["host_state"]["round_trip_factor"].get<double>() == doctest::Approx(2));
}

TEST_CASE("the convolution probe: reported; a slow spell the FMA probe misses is another state") {
  Fixture f;
  f.run.host_reference = HostState{4.2e11, 4.5e10, 6e10, 2.2e11};
  f.run.host_before = HostState{4.2e11, 4.5e10, 6e10, 2.2e11};
  {
    const MeasurementView v = make_measurement_view(f.p, f.run);
    CHECK_FALSE(v.host.changed);
    CHECK(render_measurement(v, Format::table).find("cross-core +0.0% / -, conv +0.0% / -\n") !=
          std::string::npos);
  }
  // one probe's dip (a vCPU away for milliseconds): the faster probe stands for both
  f.run.host_after = HostState{4.1e11, 4.5e10, 6e10, 1.1e11};
  CHECK_FALSE(make_measurement_view(f.p, f.run).host.changed);
  // the FMA chains at their rate, the convolution a quarter slower in both probes (a neighbour
  // on the caches)
  f.run.host_before = HostState{4.2e11, 4.5e10, 6e10, 1.6e11};
  f.run.host_after = HostState{4.1e11, 4.5e10, 6e10, 1.65e11};
  const MeasurementView v = make_measurement_view(f.p, f.run);
  CHECK(v.host.changed);
  const std::string t = render_measurement(v, Format::table);
  CHECK(t.find("after 410GFLOP/s, 45.0GB/s, 60.0GB/s, conv 165GFLOP/s;") != std::string::npos);
  CHECK(t.find("conv -27.3% / -25.0%") != std::string::npos); // each probe's own drift
  CHECK(t.find("not in its calibrated state") != std::string::npos);
  const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["host_state"]["after"]["conv_flops_per_second"].get<double>() ==
        doctest::Approx(1.65e11));
  CHECK(j["host_state"]["drift_after"]["conv"].get<double>() == doctest::Approx(-0.25));
  CHECK(j["host_state"]["conv_tolerance"].get<double>() ==
        doctest::Approx(policy::HostStatePolicy{}.conv_tolerance));
}

TEST_CASE("with several calibrations the report names the one used and lists them all") {
  Fixture f;
  f.run.calibration = "b.yaml";
  f.run.calibration_candidates = {"a.yaml", "b.yaml"};
  f.p.calibrated = true;
  const MeasurementView v = make_measurement_view(f.p, f.run);
  CHECK(render_measurement(v, Format::table)
            .find("(calibrated: b.yaml, the nearest host state of 2 calibrations)") !=
        std::string::npos);
  const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["calibration"] == "b.yaml");
  CHECK(j["calibration_candidates"] == nlohmann::json::array({"a.yaml", "b.yaml"}));
  f.run.calibration_candidates.clear(); // one calibration: no list, no note
  const MeasurementView one = make_measurement_view(f.p, f.run);
  CHECK(render_measurement(one, Format::table).find("nearest host state") == std::string::npos);
  CHECK(nlohmann::json::parse(render_measurement(one, Format::json))["calibration_candidates"]
            .empty());
}

TEST_CASE("the passes kept in the faster placement: header, JSON; without the filter, all") {
  Fixture f;
  const auto none =
      nlohmann::json::parse(render_measurement(make_measurement_view(f.p, f.run), Format::json));
  CHECK(none["passes"] == nlohmann::json{{"filter", "all"}});
  PassPlacement pp;
  pp.passes_timed = 12;
  pp.passes_kept = 10; // run.network.iters is the kept count in a real run
  pp.reference_round_trip_seconds = 0.35e-6;
  pp.round_trip_factor = 2;
  pp.short_passes = 10;
  pp.short_median_seconds = 0.0401;
  pp.long_passes = 1;
  pp.long_median_seconds = 0.0453;
  f.run.placement = pp;
  f.run.network.cache_state = "in-network";
  const MeasurementView v = make_measurement_view(f.p, f.run);
  const std::string table = render_measurement(v, Format::table);
  CHECK(table.find("3 warm-up + 12 timed passes") != std::string::npos);
  CHECK(table.find("statistics over 10 of 12 timed passes, those in the faster placement of the "
                   "threads (core round trip between passes within 2x of 0.35 us: 10 passes, "
                   "median 40.1 ms; beyond: 1 pass, median 45.3 ms)") != std::string::npos);
  const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["passes"]["filter"] == "faster-placement");
  CHECK(j["passes"]["timed"] == 12);
  CHECK(j["passes"]["kept"] == 10);
  CHECK(j["passes"]["reference_round_trip_seconds"].get<double>() == rel(0.35e-6));
  CHECK(j["passes"]["all_kept_for_too_few"] == false);
  CHECK(j["passes"]["kept_placement"] == "short_round_trip");
  CHECK(j["passes"]["short_round_trip"]["passes"] == 10);
  CHECK(j["passes"]["long_round_trip"]["median_pass_seconds"].get<double>() ==
        doctest::Approx(0.0453));
  // the long round trip's placement kept (SMT siblings of one core were the short one)
  f.run.placement->kept_long_round_trip = true;
  f.run.placement->long_passes = 10;
  f.run.placement->short_passes = 1;
  const MeasurementView lv = make_measurement_view(f.p, f.run);
  CHECK(render_measurement(lv, Format::table)
            .find("(core round trip between passes beyond 2x of 0.35 us: 10 passes, median "
                  "45.3 ms; within: 1 pass, median 40.1 ms)") != std::string::npos);
  CHECK(nlohmann::json::parse(render_measurement(lv, Format::json))["passes"]["kept_placement"] ==
        "long_round_trip");
  f.run.placement->kept_long_round_trip = false;
  f.run.placement->all_kept_for_too_few = true;
  f.run.placement->passes_kept = 12;
  CHECK(render_measurement(make_measurement_view(f.p, f.run), Format::table)
            .find("statistics over all 12 timed passes: too few ran in either placement") !=
        std::string::npos);
}

TEST_CASE("the passes between quiet probes: header line, JSON, and a run spent in a spell") {
  Fixture f;
  f.run.network.cache_state = "in-network";
  QuietPasses q;
  q.passes_timed = 12;
  q.candidates = 12;
  q.passes_kept = 8;
  q.interval_seconds = 0.25;
  q.reference_flops_per_second = 190e9;
  q.tolerance = 0.10;
  q.quiet_passes = 8;
  q.quiet_median_seconds = 0.0469;
  q.spell_passes = 4;
  q.spell_median_seconds = 0.0581;
  q.probe_before_pass = {0, 6, 12};
  q.probe_flops_per_second = {190e9, 150e9, 185e9};
  q.pass_seconds = std::vector<double>(12, 0.05);
  f.run.quiet = q;
  const MeasurementView v = make_measurement_view(f.p, f.run);
  const std::string table = render_measurement(v, Format::table);
  CHECK(table.find("of the 12 timed passes, 8 ran between quiet probes (convolution probes "
                   "within 10% of the fastest, 190 GFLOP/s; 3 probes every 0.25 s): 8 passes, "
                   "median 46.9 ms; in a spell: 4 passes, median 58.1 ms") != std::string::npos);
  auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["passes"]["filter"] == "quiet");
  CHECK(j["passes"]["timed"] == 12);
  CHECK(j["passes"]["kept"] == 8);
  CHECK(j["passes"]["quiet"]["quiet_passes"] == 8);
  CHECK(j["passes"]["quiet"]["spell_median_pass_seconds"].get<double>() == doctest::Approx(0.0581));
  CHECK(j["passes"]["quiet"]["probes"].size() == 3);
  CHECK(j["passes"]["quiet"]["probes"][1]["before_pass"] == 6);
  CHECK(j["passes"]["quiet"]["probes"][1]["conv_flops_per_second"].get<double>() == 150e9);
  CHECK(j["passes"]["quiet"]["pass_seconds"].size() == 12);
  CHECK(j["host_state"]["passes_in_spell"] == false);
  CHECK(j["host_state"]["changed"] == false);
  // Too few quiet: all kept. Against the fastest probe alone that is not a finding about the
  // host; against a calibration's convolution figure the passes ran in a spell.
  f.run.quiet->all_kept_for_too_few = true;
  f.run.quiet->quiet_passes = 2;
  f.run.quiet->spell_passes = 10;
  f.run.quiet->passes_kept = 12;
  const MeasurementView own = make_measurement_view(f.p, f.run);
  CHECK(render_measurement(own, Format::table)
            .find("of the 12 timed passes, all kept: too few ran between quiet probes") !=
        std::string::npos);
  CHECK_FALSE(own.host.passes_in_spell);
  CHECK_FALSE(own.host.changed);
  f.run.quiet->calibration_flops_per_second = 188e9;
  const MeasurementView cal = make_measurement_view(f.p, f.run);
  CHECK(cal.host.passes_in_spell);
  CHECK(cal.host.changed);
  CHECK_FALSE(cal.host.drifted);
  const std::string t = render_measurement(cal, Format::table);
  CHECK(t.find("within 10% of the fastest probe or the calibration's, the faster") !=
        std::string::npos);
  CHECK(t.find("the passes ran in a slow spell of the host: 2 of 12 ran between convolution "
               "probes within 10.0% of the calibration's 188GFLOP/s") != std::string::npos);
  j = nlohmann::json::parse(render_measurement(cal, Format::json));
  CHECK(j["host_state"]["passes_in_spell"] == true);
  CHECK(j["host_state"]["changed"] == true);
  CHECK(j["host_state"]["drifted"] == false);
  // enough quiet passes to keep alone, but under a quarter of those judged: still flagged
  f.run.quiet->all_kept_for_too_few = false;
  f.run.quiet->candidates = 20;
  f.run.quiet->quiet_passes = 4;
  f.run.quiet->spell_passes = 16;
  CHECK(make_measurement_view(f.p, f.run).host.passes_in_spell);
  f.run.quiet->quiet_passes = 5; // a quarter
  f.run.quiet->spell_passes = 15;
  CHECK_FALSE(make_measurement_view(f.p, f.run).host.passes_in_spell);
}

TEST_CASE("table, CSV and Markdown show the same numbers") {
  Fixture f;
  const MeasurementView v = make_measurement_view(f.p, f.run);
  const std::string t = render_measurement(v, Format::table);
  CHECK(t.find("+10.0%") != std::string::npos);
  CHECK(t.find("-50.0%*") != std::string::npos); // below the threshold: starred
  CHECK(t.find("per-layer MAPE 15.0%") != std::string::npos);
  CHECK(t.find("noisy") != std::string::npos);
  const std::string c = render_measurement(v, Format::csv);
  CHECK(c.rfind("layer,op,path,flops,bytes,predicted (s),measured median (s),median (s),", 0) == 0);
  CHECK(c.find("l1,conv2d,gemm,2000,400,0.0008,0.001,0.001,") != std::string::npos);
  const std::string m = render_measurement(v, Format::md);
  CHECK(m.find("| l0 | conv2d |") != std::string::npos);
}

TEST_CASE("microbenchmark rows render with rates") {
  BenchRow r;
  r.name = "gemm/10x10x10";
  r.kind = "gemm";
  r.dtype = "fp32";
  r.threads = 2;
  r.flops = 2000;
  r.bytes = 1200;
  r.stats.median_seconds = 1e-6;
  const auto j = nlohmann::json::parse(render_microbench({r}, "cpu", Format::json));
  CHECK(j["schema"] == "perfmodel.microbench/1");
  CHECK(j["results"][0]["flops_per_second"].get<double>() == doctest::Approx(2e9));
  CHECK(render_microbench({r}, "cpu", Format::table).find("2.00GF/s") != std::string::npos);
  CHECK(render_microbench({r}, "cpu", Format::csv).find("gemm/10x10x10,gemm,,fp32,2,") !=
        std::string::npos);
}
