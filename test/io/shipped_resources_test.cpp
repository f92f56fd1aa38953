// Tests of the shipped resources: every hw_specs/*.yaml loads, validates and follows the file
// conventions; the torchvision models match torchvision's parameter counts and shapes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfmodel/graph.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/model_yaml.hpp"

using namespace perfmodel;

namespace {

const std::string kSource = PERFMODEL_SOURCE_DIR;

std::vector<std::string> shipped_hw_files() {
  std::vector<std::string> files;
  for (const auto &e : std::filesystem::directory_iterator(kSource + "/hw_specs"))
    if (e.path().extension() == ".yaml")
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

Graph load_model(const std::string &name) {
  return io::read_model_yaml(kSource + "/models/" + name + ".yaml", {});
}

const Layer &layer(const Graph &g, const std::string &name) {
  for (const auto &l : g.layers)
    if (l.name == name)
      return l;
  throw std::runtime_error("no layer " + name + " in " + g.name);
}

std::string output_shape(const Graph &g, const std::string &name) {
  return shape_str(g.tensor(layer(g, name).outputs.at(0)).shape, 'x');
}

bool near(double a, double b, double rel) { return std::abs(a - b) <= rel * std::abs(b); }

} // namespace

TEST_CASE("every shipped hardware spec loads and validates") {
  const auto files = shipped_hw_files();
  std::set<std::string> names;
  for (const auto &f : files) {
    CAPTURE(f);
    HwSpec hw;
    REQUIRE_NOTHROW(hw = io::read_hw_yaml(f));
    std::string err;
    CHECK_MESSAGE(is_valid(hw, &err), err);
    // The file name is the name `--hw` looks it up by; the spec must agree with it.
    CHECK(hw.name == std::filesystem::path(f).stem().string());
    names.insert(hw.name);
  }
  for (const char *expected : {"v100", "a100", "h100", "h200", "t4", "titanx-maxwell"}) {
    CAPTURE(expected);
    CHECK(names.count(expected) == 1);
    CHECK_NOTHROW(io::load_hw(expected)); // bare-name lookup in the source tree
  }
}

TEST_CASE("shipped GPU specs follow the file conventions") {
  // GPU specs are built from datasheet figures by the rules of docs/hardware.md; CPU specs
  // (zen5-2c) are measured on their machine and follow their own comments.
  int n_gpu = 0;
  for (const auto &f : shipped_hw_files()) {
    CAPTURE(f);
    const HwSpec hw = io::read_hw_yaml(f);
    if (hw.kind != "gpu")
      continue;
    ++n_gpu;
    REQUIRE(hw.tdp_watts > 0);
    CHECK(hw.units > 0);
    CHECK(hw.clock_hz > 0);
    // Static power is GenZ's 30% of TDP.
    CHECK(near(hw.static_watts, 0.3 * hw.tdp_watts, 1e-9));
    // Energy per FLOP is GenZ's compute share (40% of TDP) at the unit's peak, to 3 digits.
    for (const auto &u : hw.compute) {
      CAPTURE(u.unit);
      const std::string dtype(to_string(u.dtype));
      CAPTURE(dtype);
      CHECK(near(u.energy_per_flop_joules, 0.4 * hw.tdp_watts / u.flops_per_second, 0.01));
      CHECK(u.matrix_only == (u.unit == "tensor"));
    }
    // Innermost level first, DRAM last: bandwidths fall outwards, DRAM is the largest level
    // (aggregate L1 may exceed L2: V100's 80 x 128 KiB > 6 MiB), every level has an energy.
    REQUIRE(hw.memory.size() >= 2);
    CHECK(hw.dram().name == "dram");
    for (size_t i = 0; i < hw.memory.size(); ++i) {
      CAPTURE(hw.memory[i].name);
      CHECK(hw.memory[i].energy_per_byte_joules > 0);
      CHECK(hw.memory[i].capacity_bytes > 0);
      if (i + 1 < hw.memory.size())
        CHECK(hw.memory[i].capacity_bytes < hw.dram().capacity_bytes);
      if (i > 0)
        CHECK(hw.memory[i].bytes_per_second < hw.memory[i - 1].bytes_per_second);
    }
  }
  CHECK(n_gpu >= 6);
}

TEST_CASE("shipped hardware specs carry the datasheet figures of gpu-specs.md") {
  struct Figures {
    double fp32, tensor_fp16, dram, l2, tdp; // FLOP/s, FLOP/s (0: none), B/s, B, W
  };
  // Dense peaks from shared/reference/gpu-specs.md (never the 2x sparse figures).
  const std::map<std::string, Figures> expected = {
      {"a100", {19.5e12, 312e12, 1555e9, 40 * 1048576.0, 400}},
      {"h100", {67e12, 989e12, 3350e9, 50 * 1048576.0, 700}},
      {"h200", {67e12, 989e12, 4800e9, 50 * 1048576.0, 700}},
      {"t4", {8.1e12, 65e12, 320e9, 4 * 1048576.0, 70}},
      {"titanx-maxwell", {6.7e12, 0, 336e9, 3 * 1048576.0, 250}},
  };
  for (const auto &entry : expected) {
    // Named variables, not structured bindings: clang 14 cannot capture those (CAPTURE).
    const std::string &name = entry.first;
    const Figures &want = entry.second;
    CAPTURE(name);
    const HwSpec hw = io::load_hw(name);
    const auto fp32 = hw.best_unit(DType::fp32, false);
    REQUIRE(fp32.has_value());
    CHECK(fp32->flops_per_second == doctest::Approx(want.fp32));
    const auto fp16 = hw.best_unit(DType::fp16, true);
    REQUIRE(fp16.has_value()); // titanx-maxwell: pseudo-fp16 at the fp32 rate
    if (want.tensor_fp16 > 0) {
      CHECK(fp16->unit == "tensor");
      CHECK(fp16->flops_per_second == doctest::Approx(want.tensor_fp16));
    } else {
      CHECK(fp16->unit == "simt");
      CHECK(fp16->flops_per_second == doctest::Approx(want.fp32));
    }
    CHECK(hw.dram().bytes_per_second == doctest::Approx(want.dram));
    CHECK(hw.memory[1].name == "l2");
    CHECK(hw.memory[1].capacity_bytes == doctest::Approx(want.l2));
    CHECK(hw.tdp_watts == doctest::Approx(want.tdp));
  }
}

TEST_CASE("alexnet and vgg16 have torchvision's parameter counts") {
  // sum(p.numel() for p in torchvision.models.<name>().parameters()), torchvision 0.14.1
  // (run with /usr/bin/python3 when these files were written).
  CHECK(load_model("alexnet").param_count() == 61100840);
  CHECK(load_model("vgg16").param_count() == 138357544);
}

TEST_CASE("alexnet's shapes are torchvision's at 224x224") {
  const Graph g = load_model("alexnet");
  // Output shapes of torchvision.models.alexnet().features[i] on a 1x3x224x224 input.
  const std::map<std::string, Shape> expected = {
      {"features.0", {1, 64, 55, 55}},   {"features.2", {1, 64, 27, 27}},
      {"features.3", {1, 192, 27, 27}},  {"features.5", {1, 192, 13, 13}},
      {"features.6", {1, 384, 13, 13}},  {"features.8", {1, 256, 13, 13}},
      {"features.10", {1, 256, 13, 13}}, {"features.12", {1, 256, 6, 6}},
      {"avgpool", {1, 256, 6, 6}},       {"flatten", {1, 9216}},
      {"classifier.6", {1, 1000}},
  };
  for (const auto &entry : expected) {
    const std::string &name = entry.first; // not a structured binding: clang 14 (CAPTURE)
    const Shape &shape = entry.second;
    CAPTURE(name);
    CHECK(output_shape(g, name) == shape_str(shape, 'x'));
  }
}

TEST_CASE("vgg16's conv output shapes are torchvision's at 224x224") {
  const Graph g = load_model("vgg16");
  // (index in torchvision.models.vgg16().features, output shape) for each Conv2d, from
  // torchvision 0.14.1 on a 1x3x224x224 input; every conv is 3x3, pad 1, stride 1.
  const std::vector<std::pair<int, Shape>> convs = {
      {0, {1, 64, 224, 224}},  {2, {1, 64, 224, 224}}, {5, {1, 128, 112, 112}},
      {7, {1, 128, 112, 112}}, {10, {1, 256, 56, 56}}, {12, {1, 256, 56, 56}},
      {14, {1, 256, 56, 56}},  {17, {1, 512, 28, 28}}, {19, {1, 512, 28, 28}},
      {21, {1, 512, 28, 28}},  {24, {1, 512, 14, 14}}, {26, {1, 512, 14, 14}},
      {28, {1, 512, 14, 14}},
  };
  int n_conv = 0;
  for (const auto &l : g.layers)
    n_conv += l.op == OpKind::conv2d;
  CHECK(n_conv == 13);
  for (const auto &[index, shape] : convs) {
    const std::string name = "features." + std::to_string(index);
    CAPTURE(name);
    CHECK(layer(g, name).op == OpKind::conv2d);
    CHECK(output_shape(g, name) == shape_str(shape, 'x'));
  }
  CHECK(output_shape(g, "features.30") == "1x512x7x7");
  CHECK(output_shape(g, "avgpool") == "1x512x7x7");
  CHECK(output_shape(g, "flatten") == "1x25088");
  CHECK(output_shape(g, "classifier.6") == "1x1000");
}
