// Tests of the calibration YAML: round trip, and errors with file:line:col.
#include <doctest/doctest.h>

#include <string>

#include "../test_approx.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/targets/cpu_eigen.hpp"
#include "perfmodel/targets/gpu.hpp"

using namespace perfmodel;
using namespace perfmodel::io;

namespace {

Calibration sample_calibration() {
  Calibration c;
  c.device = DeviceFingerprint{"cpu", "AMD EPYC", 2, "fnv1a:0123456789abcdef", std::nullopt};
  c.date = "2026-11-22T01:00:00Z";
  c.perfmodel_version = "0.1.0";
  c.hardware = "zen5-2c";
  c.source = "microbenchmarks";
  c.cores = 2;
  c.memory_levels = {{"l1", 98304}, {"l2", 2097152}, {"dram", 0}};
  c.target = &cpu_eigen::target();
  ClassCalibration g;
  g.op_class = OpClass::conv;
  g.params.peak_flops_per_second = 1.234e11;
  g.params.m_half = 3.5;
  g.params.k_half = 17;
  g.params.tile_m = 16;
  g.params.tile_n = 8;
  g.params.bytes_per_second = {9e11, 3e11, 4.5e10};
  g.params.lowering_factor = 1.75;
  g.params.overlap = 0.3;
  g.params.overhead_seconds = 4.2e-6;
  g.stats = FitStats{40, 0.05, 0.04, 0.12};
  c.classes.push_back(g);
  c.stats = FitStats{40, 0.05, 0.04, 0.12};
  return c;
}

std::string error_of(const std::string &text) {
  try {
    parse_calibration_yaml(text, "c.yaml");
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("calibration YAML round-trips") {
  const Calibration c = sample_calibration();
  const std::string text = write_calibration_yaml(c);
  CHECK(text.find("version: 1") != std::string::npos);
  const Calibration back = parse_calibration_yaml(text, "c.yaml");
  CHECK(back.device.name == "AMD EPYC");
  CHECK(back.device.isa_hash == c.device.isa_hash);
  CHECK(back.perfmodel_version == "0.1.0");
  CHECK(back.date == c.date);
  CHECK(back.memory_levels.size() == 3);
  CHECK(back.memory_levels[1].capacity_bytes == 2097152);
  REQUIRE(back.classes.size() == 1);
  const EfficiencyParams &p = back.classes[0].params;
  CHECK(back.classes[0].op_class == OpClass::conv);
  CHECK(p.peak_flops_per_second == doctest::Approx(1.234e11));
  CHECK(p.m_half == doctest::Approx(3.5));
  CHECK(p.tile_n == 8);
  CHECK(p.bytes_per_second[2] == doctest::Approx(4.5e10));
  CHECK(p.lowering_factor == doctest::Approx(1.75));
  CHECK(p.overhead_seconds == rel(4.2e-6));
  CHECK(back.classes[0].stats.samples == 40);
  CHECK(back.stats.mape == doctest::Approx(0.04));
  CHECK(write_calibration_yaml(back) == text);
}

TEST_CASE("calibration YAML: the strided-gather rate is written where it is fitted") {
  Calibration c = sample_calibration();
  const std::string without = write_calibration_yaml(c);
  const std::string key = "strided_lowering_bytes_per_second";
  CHECK(without.find(key) == std::string::npos); // 0: no term, not written
  CHECK(parse_calibration_yaml(without, "c.yaml").classes[0].params.term_rate(cpu_eigen::kGather) ==
        0);
  c.classes[0].params.term_rates = {0, 0, 0, 0};
  c.classes[0].params.term_rates[cpu_eigen::kGather] = 2.5e10;
  const std::string text = write_calibration_yaml(c);
  CHECK(text.find(key + ": 2.5e+10") != std::string::npos);
  const EfficiencyParams back = parse_calibration_yaml(text, "c.yaml").classes[0].params;
  CHECK(back.term_rate(cpu_eigen::kGather) == doctest::Approx(2.5e10));
  std::string bad = text;
  bad.replace(bad.find(key + ": 2.5e+10"), key.size() + 9, key + ": -1");
  CHECK(error_of(bad).find("error: '" + key + "' must be at least 0") != std::string::npos);
}

TEST_CASE("calibration YAML errors carry file:line:col") {
  const std::string good = write_calibration_yaml(sample_calibration());
  CHECK(error_of("version: 2\n").find("c.yaml:1:10: error: unsupported calibration version 2") ==
        0);
  CHECK(error_of("[1, 2]\n") == "c.yaml:1:1: error: a calibration must be a mapping");
  CHECK(error_of("version: 1\nfoo: 3\n") == "c.yaml:2:1: error: unknown key 'foo' in calibration");
  CHECK(error_of("version: [\n").find("c.yaml:2:") == 0);

  std::string bad = good;
  bad.replace(bad.find("op_class: conv"), 14, "op_class: convv");
  CHECK(error_of(bad).find("error: unknown op class 'convv'") != std::string::npos);

  bad = good;
  bad.replace(bad.find("overlap: 0.3"), 12, "overlap: 1.5");
  CHECK(error_of(bad).find("error: 'overlap' must be in [0, 1]") != std::string::npos);

  bad = good;
  bad.replace(bad.find("[9e+11, 3e+11, 4.5e+10]"), 23, "[9e+11, 3e+11]");
  const std::string e = error_of(bad);
  CHECK(e.find("c.yaml:") == 0);
  CHECK(e.find("needs one bandwidth per memory level (3)") != std::string::npos);

  bad = good;
  bad.replace(bad.find("peak_flops_per_second: 1.234e+11"), 32, "peak_flops_per_second: fast");
  CHECK(error_of(bad).find("'peak_flops_per_second' must be a number") != std::string::npos);
}

TEST_CASE("calibration rates must lie in the accepted range, denormals included") {
  const std::string good = write_calibration_yaml(sample_calibration());
  CHECK(error_of(good) == "");
  // Before: a peak of 4.9e-324 passed "must be positive" and the views wrote JSON nulls.
  std::string bad = good;
  bad.replace(bad.find("peak_flops_per_second: 1.234e+11"), 32,
              "peak_flops_per_second: 4.9e-324");
  CHECK(error_of(bad).find("conv/fp32: peak must be from 1 to 1e+21 FLOP/s") !=
        std::string::npos);
  bad = good;
  bad.replace(bad.find("peak_flops_per_second: 1.234e+11"), 32, "peak_flops_per_second: 1e300");
  CHECK(error_of(bad).find("peak must be from 1 to 1e+21 FLOP/s") != std::string::npos);
  bad = good;
  bad.replace(bad.find("[9e+11, 3e+11, 4.5e+10]"), 23, "[9e+11, 1e-320, 4.5e+10]");
  CHECK(error_of(bad).find("bandwidths must be from 1 to 1e+21 B/s") != std::string::npos);
  bad = good;
  bad.replace(bad.find("overhead_seconds: 4.2e-06"), 25, "overhead_seconds: 1e+200");
  CHECK(error_of(bad).find("overhead must be from 0 to 1 s") != std::string::npos);
}

TEST_CASE("calibration YAML keeps the CPU's vendor, family and model, which are optional") {
  Calibration c = sample_calibration();
  CHECK(write_calibration_yaml(c).find("cpu_id") == std::string::npos); // absent: not written
  CHECK_FALSE(parse_calibration_yaml(write_calibration_yaml(c), "c.yaml").device.cpu_id);
  c.device.cpu_id = CpuId{"AuthenticAMD", 25, 1};
  const std::string text = write_calibration_yaml(c);
  CHECK(text.find("cpu_id: {vendor: AuthenticAMD, family: 25, model: 1}") != std::string::npos);
  const Calibration back = parse_calibration_yaml(text, "c.yaml");
  REQUIRE(back.device.cpu_id);
  CHECK(*back.device.cpu_id == CpuId{"AuthenticAMD", 25, 1});
  std::string bad = text;
  bad.replace(bad.find("family: 25, "), 12, "");
  CHECK(error_of(bad).find("error: cpu_id needs 'family'") != std::string::npos);
}

TEST_CASE("calibration YAML keeps the host probe figures, which are optional") {
  Calibration c = sample_calibration();
  CHECK(write_calibration_yaml(c).find("host_state") == std::string::npos);
  CHECK_FALSE(parse_calibration_yaml(write_calibration_yaml(c), "c.yaml").host_state);
  c.host_state = HostState{4.75e11, 4.5e10};
  const std::string text = write_calibration_yaml(c);
  CHECK(
      text.find("host_state: {fp32_flops_per_second: 4.75e+11, dram_bytes_per_second: 4.5e+10}") !=
      std::string::npos);
  const Calibration back = parse_calibration_yaml(text, "c.yaml");
  REQUIRE(back.host_state);
  CHECK(back.host_state->fp32_flops_per_second == doctest::Approx(4.75e11));
  CHECK(back.host_state->dram_bytes_per_second == doctest::Approx(4.5e10));

  std::string bad = text;
  bad.replace(bad.find("dram_bytes_per_second: 4.5e+10"), 30, "dram_bytes_per_second: 0");
  CHECK(error_of(bad).find("error: host_state figures must be positive") != std::string::npos);
  bad = text;
  bad.replace(bad.find(", dram_bytes_per_second: 4.5e+10"), 32, "");
  CHECK(error_of(bad).find("error: host_state needs 'dram_bytes_per_second'") != std::string::npos);

  // the optional figures (cross-core read, convolution): written when probed, read back, absent
  // from files written before their probe, positive
  const auto optional_figure = [&c](double HostState::*figure, const std::string &key, double value,
                                    const std::string &written) {
    CHECK(parse_calibration_yaml(write_calibration_yaml(c), "c.yaml").host_state.value().*figure ==
          0);
    c.host_state.value().*figure = value;
    const std::string with = write_calibration_yaml(c);
    CHECK(with.find(written) != std::string::npos);
    CHECK(parse_calibration_yaml(with, "c.yaml").host_state.value().*figure ==
          doctest::Approx(value));
    std::string zero = with;
    const size_t at = zero.find(key + ": ");
    zero.replace(at, zero.find_first_of(",}", at) - at, key + ": 0");
    CHECK(error_of(zero).find("error: " + key + " must be from ") != std::string::npos);
    // A positive denormal is out of range too (it would make every derived time infinite).
    std::string tiny = with;
    tiny.replace(at, tiny.find_first_of(",}", at) - at, key + ": 4.9e-324");
    CHECK(error_of(tiny).find("error: " + key + " must be from ") != std::string::npos);
    return with;
  };
  const std::string with = optional_figure(
      &HostState::cross_core_bytes_per_second, "cross_core_bytes_per_second", 3.8e10,
      "dram_bytes_per_second: 4.5e+10, cross_core_bytes_per_second: 3.8e+10}");
  optional_figure(&HostState::conv_flops_per_second, "conv_flops_per_second", 2.1e11,
                  "cross_core_bytes_per_second: 3.8e+10, conv_flops_per_second: 2.1e+11}");
  optional_figure(&HostState::core_round_trip_seconds, "core_round_trip_seconds", 3.6e-7,
                  "conv_flops_per_second: 2.1e+11, core_round_trip_seconds: 3.6e-07}");
  bad = with;
  bad.replace(bad.find("cross_core_bytes_per_second"), 27, "cross_core");
  CHECK(error_of(bad).find("unknown key 'cross_core' in host_state") != std::string::npos);
}

TEST_CASE("calibration YAML keeps a class's cross-core rate, which is optional") {
  Calibration c = sample_calibration();
  const std::string without = write_calibration_yaml(c);
  CHECK(without.find("cross_core_bytes_per_second") == std::string::npos); // 0: not written
  CHECK(parse_calibration_yaml(without, "c.yaml")
            .classes[0]
            .params.term_rate(cpu_eigen::kCrossCore) == 0);
  c.classes[0].params.term_rates = {0, 0, 0, 0};
  c.classes[0].params.term_rates[cpu_eigen::kCrossCore] = 1.5e10;
  const std::string text = write_calibration_yaml(c);
  CHECK(parse_calibration_yaml(text, "c.yaml").classes[0].params.term_rate(cpu_eigen::kCrossCore) ==
        doctest::Approx(1.5e10));
  std::string bad = text;
  bad.replace(bad.find("cross_core_bytes_per_second: 1.5e+10"), 36,
              "cross_core_bytes_per_second: -1");
  CHECK(error_of(bad).find("error: 'cross_core_bytes_per_second' must be at least 0") !=
        std::string::npos);
}

TEST_CASE("calibration YAML keeps a class's epilogue rate, which is optional") {
  Calibration c = sample_calibration();
  const std::string without = write_calibration_yaml(c);
  CHECK(without.find("epilogue_bytes_per_second") == std::string::npos); // 0: not written
  c.classes[0].params.term_rates = {0, 0, 0, 0};
  c.classes[0].params.term_rates[cpu_eigen::kEpilogue] = 3.5e10;
  const std::string text = write_calibration_yaml(c);
  CHECK(parse_calibration_yaml(text, "c.yaml").classes[0].params.term_rate(cpu_eigen::kEpilogue) ==
        doctest::Approx(3.5e10));
  std::string bad = text;
  bad.replace(bad.find("epilogue_bytes_per_second: 3.5e+10"), 34, "epilogue_bytes_per_second: -2");
  CHECK(error_of(bad).find("error: 'epilogue_bytes_per_second' must be at least 0") !=
        std::string::npos);
}

TEST_CASE("calibration YAML keeps the pass excess, which is optional") {
  Calibration c = sample_calibration();
  CHECK(write_calibration_yaml(c).find("pass_excess") == std::string::npos);
  CHECK_FALSE(parse_calibration_yaml(write_calibration_yaml(c), "c.yaml").pass_excess);
  c.pass_excess = PassExcess{3.6e-6, 0.0145, 3};
  const std::string text = write_calibration_yaml(c);
  CHECK(text.find("pass_excess: {per_layer_seconds: 3.6e-06, fraction: 0.0145, networks: 3}") !=
        std::string::npos);
  const Calibration back = parse_calibration_yaml(text, "c.yaml");
  REQUIRE(back.pass_excess);
  CHECK(back.pass_excess->per_layer_seconds == rel(3.6e-6));
  CHECK(back.pass_excess->fraction == doctest::Approx(0.0145));
  CHECK(back.pass_excess->networks == 3);

  std::string bad = text;
  bad.replace(bad.find("fraction: 0.0145"), 16, "fraction: -0.01");
  CHECK(error_of(bad).find("error: pass_excess figures must be >= 0") != std::string::npos);
  bad = text;
  bad.replace(bad.find("per_layer_seconds: 3.6e-06, "), 28, "");
  CHECK(error_of(bad).find("error: pass_excess needs 'per_layer_seconds'") != std::string::npos);
  bad = text;
  bad.replace(bad.find("fraction: 0.0145"), 16, "fraction: .inf");
  CHECK(error_of(bad).find("'fraction' must be a number") != std::string::npos);
}

TEST_CASE(
    "calibration YAML keeps a class's fitted range and parameters on a bound, both optional") {
  Calibration c = sample_calibration();
  // A file from before them: neither key, and it loads with none.
  const std::string old = write_calibration_yaml(c);
  CHECK(old.find("fitted_range") == std::string::npos);
  CHECK(old.find("at_bound") == std::string::npos);
  const Calibration before = parse_calibration_yaml(old, "c.yaml");
  CHECK_FALSE(before.classes[0].fitted_range);
  CHECK(before.classes[0].at_bound.empty());

  c.classes[0].fitted_range = FittedRange{1.5e6, 3.2e9, 4e4, 2.5e7};
  c.classes[0].at_bound = {{"peak_flops_per_second", true, 3.5325e13, "the spec's peak"},
                           {"bytes_per_second[dram]", true, 9e11, "the spec's dram bandwidth"},
                           {"overhead_seconds", false, 1e-10, "0 (1e-10 s: no overhead)"}};
  const std::string text = write_calibration_yaml(c);
  CHECK(text.find("fitted_range: {flops: [1.5e+06, 3.2e+09], bytes: [40000, 2.5e+07]}") !=
        std::string::npos);
  CHECK(text.find("{parameter: peak_flops_per_second, bound: upper, value: 3.5325e+13, limit: "
                  "\"the spec's peak\"}") != std::string::npos);
  const Calibration back = parse_calibration_yaml(text, "c.yaml");
  const ClassCalibration &k = back.classes[0];
  REQUIRE(k.fitted_range);
  CHECK(k.fitted_range->flops_min == 1.5e6);
  CHECK(k.fitted_range->bytes_max == 2.5e7);
  REQUIRE(k.at_bound.size() == 3);
  CHECK(k.at_bound[1].parameter == "bytes_per_second[dram]");
  CHECK(k.at_bound[1].upper);
  CHECK_FALSE(k.at_bound[2].upper);
  CHECK(k.at_bound[2].limit == "0 (1e-10 s: no overhead)");
  CHECK(write_calibration_yaml(back) == text);

  std::string bad = text;
  bad.replace(bad.find("bound: upper"), 12, "bound: above");
  CHECK(error_of(bad).find("error: 'bound' must be upper or lower, not 'above'") !=
        std::string::npos);
  bad = text;
  bad.replace(bad.find("[1.5e+06, 3.2e+09]"), 18, "[3.2e+09, 1.5e+06]");
  CHECK(error_of(bad).find("'flops' must be [min, max] with 0 <= min <= max") != std::string::npos);
  bad = text;
  bad.replace(bad.find("bytes: [40000, 2.5e+07]"), 23, "bytes: 7");
  CHECK(error_of(bad).find("'bytes' must be a list [min, max]") != std::string::npos);
}

TEST_CASE("calibration YAML names its target; files before the key give it by their executor "
          "choices") {
  Calibration c = sample_calibration();
  std::string text = write_calibration_yaml(c);
  CHECK(text.find("target: cpu_eigen\n") != std::string::npos);
  CHECK(parse_calibration_yaml(text, "c.yaml").target == &cpu_eigen::target());
  c.target = &gpu::target();
  c.classes[0].params.term_rates.clear();
  CHECK(parse_calibration_yaml(write_calibration_yaml(c), "c.yaml").target == &gpu::target());
  c.target = nullptr; // the generic target
  CHECK(write_calibration_yaml(c).find("target: generic\n") != std::string::npos);

  // Files from before `target`: conv_batch and gemm_tiles name it.
  const std::string cpu = write_calibration_yaml(sample_calibration());
  const std::string line = "target: cpu_eigen\n";
  auto with = [&](const std::string &keys) {
    std::string t = cpu;
    t.replace(t.find(line), line.size(), keys);
    return t;
  };
  CHECK(parse_calibration_yaml(with("conv_batch: per_image\ngemm_tiles: panels\n"), "c.yaml")
            .target == &cpu_eigen::target());
  CHECK(parse_calibration_yaml(with("conv_batch: batched\ngemm_tiles: padded\n"), "c.yaml")
            .execution_target()
            .name() == "generic");
  // A mix no target runs: fit it again.
  CHECK(error_of(with("conv_batch: per_image\n"))
            .find("is no execution target's; fit this calibration again") != std::string::npos);
  CHECK(error_of(with("conv_batch: other\n"))
            .find("error: conv_batch must be per_image or batched, not 'other'") !=
        std::string::npos);
  CHECK(error_of(with("target: tpu\n"))
            .find("error: unknown target 'tpu' (generic, cpu_eigen, gpu)") != std::string::npos);
  CHECK(error_of(with("target: gpu\nconv_batch: per_image\ngemm_tiles: panels\n"))
            .find("target 'gpu' does not run conv_batch: per_image") != std::string::npos);
  // A term the target does not have is an unknown key.
  Calibration with_term = sample_calibration();
  with_term.classes[0].params.term_rates = {1.5e10, 0, 0, 0};
  std::string foreign = write_calibration_yaml(with_term);
  foreign.replace(foreign.find(line), line.size(), "target: gpu\n");
  CHECK(error_of(foreign).find("unknown key 'cross_core_bytes_per_second'") != std::string::npos);
}

TEST_CASE("find looks classes up by class and dtype") {
  const Calibration c = sample_calibration();
  CHECK(c.find(OpClass::conv, DType::fp32) != nullptr);
  CHECK(c.find(OpClass::conv, DType::fp16) == nullptr);
  CHECK(c.find(OpClass::gemm, DType::fp32) == nullptr);
}
