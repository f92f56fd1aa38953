// The measured energy of a run next to the predicted one: J per pass and per sample, GF/s/W,
// error; absent from the report when the executor measures no energy.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "perfmodel/report/measure_view.hpp"

using namespace perfmodel;
using namespace perfmodel::report;

namespace {

struct OneLayer {
  Layer layer;
  Prediction p;
  MeasurementRun run;
  OneLayer() {
    layer.name = "conv";
    layer.op_name = "conv2d";
    p.model = "toy";
    p.hardware = "gpu-x";
    p.batch = 4;
    LayerPrediction lp;
    lp.layer = &layer;
    lp.timing.seconds = 1e-3;
    p.layers.push_back(lp);
    p.totals.predicted_seconds = 1e-3;
    p.totals.cost.flops = 2'000'000'000; // 2 GFLOP per pass
    p.totals.energy_joules = 0.5;
    MeasuredLayer ml;
    ml.name = "conv";
    ml.stats.median_seconds = ml.stats.p20_seconds = ml.stats.min_seconds = 1e-3;
    run.layers.push_back(ml);
    run.network.median_seconds = run.network.p20_seconds = run.network.min_seconds = 1e-3;
  }
};

} // namespace

TEST_CASE("energy: measured per pass and per sample, GF/s/W and power, against the prediction") {
  OneLayer f;
  f.run.energy = MeasuredEnergy{400.0, 1000, 1.0, "NVML total-energy counter"};
  f.run.timing_note = "replays of the whole pass (1000 passes in all, graph replay)";
  f.run.network.warmup = 3;
  f.run.network.iters = 100;
  const MeasurementView v = make_measurement_view(f.p, f.run);
  REQUIRE(v.energy);
  CHECK(v.energy->measured_joules_per_pass == doctest::Approx(0.4));
  CHECK(v.energy->measured_joules_per_sample == doctest::Approx(0.1));
  CHECK(v.energy->predicted_joules_per_sample == doctest::Approx(0.125));
  CHECK(v.energy->measured_gflops_per_watt == doctest::Approx(5.0)); // 2 GFLOP / 0.4 J
  CHECK(v.energy->predicted_gflops_per_watt == doctest::Approx(4.0));
  CHECK(v.energy->measured_watts == doctest::Approx(400.0));
  CHECK(v.energy->error == doctest::Approx(0.25));
  const std::string text = render_measurement(v, Format::table);
  CHECK(text.find("; 3 warm-up + 100 replays of the whole pass (1000 passes in all, graph "
                  "replay), buffers ") != std::string::npos);
  CHECK(text.find("energy: measured 400mJ per pass (100mJ per sample, 5.00GF/s/W, 400W over "
                  "1.00s of 1000 timed passes, NVML total-energy counter), predicted 500mJ "
                  "(125mJ per sample, 4.00GF/s/W), error +25.0%\n") != std::string::npos);
  const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["energy"]["measured_joules_per_pass"].get<double>() == doctest::Approx(0.4));
  CHECK(j["energy"]["error"].get<double>() == doctest::Approx(0.25));
}

TEST_CASE("energy: why it was not measured, or nothing when the executor reads none") {
  OneLayer f;
  f.run.energy_unavailable = "NVML not available: cannot load 'libnvidia-ml.so.1'";
  const MeasurementView v = make_measurement_view(f.p, f.run);
  CHECK_FALSE(v.energy);
  CHECK(render_measurement(v, Format::table)
            .find("energy: not measured (NVML not available: cannot load 'libnvidia-ml.so.1')\n") !=
        std::string::npos);
  const auto j = nlohmann::json::parse(render_measurement(v, Format::json));
  CHECK(j["energy"]["measured"].is_null());
  OneLayer cpu;
  const MeasurementView c = make_measurement_view(cpu.p, cpu.run);
  CHECK(render_measurement(c, Format::table).find("energy") == std::string::npos);
  CHECK_FALSE(nlohmann::json::parse(render_measurement(c, Format::json)).contains("energy"));
}
