// Model YAML: good files load, bad ones fail with file:line:col, writing round-trips.
#include <doctest/doctest.h>

#include "perfmodel/cost.hpp"
#include "perfmodel/io/model_yaml.hpp"

using namespace perfmodel;
using namespace perfmodel::io;

namespace {
const char *kGood = R"(version: 1
name: tiny
dtype: fp32
inputs:
  - {name: data, shape: [2, 3, 8, 8]}
layers:
  - {name: c1, op: conv2d, out_channels: 4, kernel: 3, pad: 1, activation: relu}
  - {name: p1, op: maxpool, kernel: 2, ceil_mode: true}
  - {name: skip, op: conv2d, inputs: data, out_channels: 4, kernel: 2, stride: 2, bias: false}
  - {name: sum, op: add, inputs: [p1, skip]}
  - {name: u, op: generic, type: MyOp, output_shape: [N, 16]}
  - {name: fc, op: fc, out_features: 10}
)";

std::string error_of(const std::string &text) {
  try {
    parse_model_yaml(text, "m.yaml", {});
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST_CASE("a good model loads with shapes, defaults and aliases") {
  const Graph g = parse_model_yaml(kGood, "m.yaml", {});
  CHECK(g.name == "tiny");
  REQUIRE(g.layers.size() == 6);
  CHECK(g.layers[0].activation == "relu");
  CHECK(g.layers[1].inputs == std::vector<std::string>{"c1"});
  CHECK(g.tensor("sum").shape == Shape{2, 4, 4, 4});
  CHECK(g.tensor("u").shape == Shape{2, 16});
  CHECK(g.layers[4].op_name == "MyOp");
  CHECK(g.layers[5].op == OpKind::linear);
  CHECK(g.layers[0].loc.line == 7);
  CHECK(g.param_count() == (4 * 3 * 9 + 4) + (4 * 3 * 4) + (10 * 16 + 10));
}

TEST_CASE("--batch and --dtype apply while loading") {
  ModelLoadOptions o;
  o.batch = 5;
  o.dtype = DType::fp16;
  const Graph g = parse_model_yaml(kGood, "m.yaml", o);
  CHECK(g.batch() == 5);
  CHECK(g.tensor("u").shape == Shape{5, 16});
  CHECK(g.tensor("c1").dtype == DType::fp16);
}

TEST_CASE("bad models fail with a located one-line error") {
  CHECK(error_of("version: 2\nname: x\n").find("m.yaml:1:10: error: model: unsupported version") ==
        0);
  CHECK(error_of("name: x\n").find("missing 'version: 1'") != std::string::npos);
  CHECK(error_of("version: 1\nname: x\ninputs: [{name: d, shape: [1, 4]}]\nlayers:\n  - {name: a, "
                 "op: reluu}\n")
            .find("m.yaml:5:19: error: layer 'a': unknown op 'reluu'") == 0);
  CHECK(error_of("version: 1\nname: x\ninputs: [{name: d, shape: [1, 4]}]\nlayers:\n  - {name: a, "
                 "op: relu, inputs: q}\n")
            .find("m.yaml:5:5: error: layer 'a': input 'q'") == 0);
  CHECK(error_of("version: 1\nname: x\ninputs: [{name: d, shape: [1, -4]}]\nlayers: [{name: a, op: "
                 "relu}]\n")
            .find("m.yaml:3:31: error: shape dimensions must be positive") == 0);
  CHECK(error_of("version: 1\nname: [x\n").find("m.yaml:") == 0);
  CHECK(error_of("version: 1\nname: x\nbogus: 1\ninputs: []\n").find("unknown key 'bogus'") !=
        std::string::npos);
  CHECK(error_of("version: 1\nname: x\ninputs: [{name: d, shape: [1, 3, 4, 4]}]\nlayers:\n  - "
                 "{name: c, op: conv2d, out_channels: 2, kernel: 7}\n")
            .find("m.yaml:5:5: error: layer 'c' (conv2d): window larger") == 0);
  // A key the op does not take is a typo, not an attribute to drop in silence (PyTorch's name).
  CHECK(error_of("version: 1\nname: x\ninputs: [{name: d, shape: [1, 3, 4, 4]}]\nlayers:\n  - "
                 "{name: c, op: conv2d, out_channels: 2, kernel: 3, padding: 1}\n") ==
        "m.yaml:5:55: error: layer 'c': unknown attribute 'padding' (conv2d takes out_channels, "
        "kernel, stride, pad, dilation, groups, bias)");
  CHECK(error_of("version: 1\nname: x\ninputs: [{name: d, shape: [1, 4]}]\nlayers:\n  - {name: a, "
                 "op: add, inputs: [d, d], axis: 1}\n") ==
        "m.yaml:5:40: error: layer 'a': unknown attribute 'axis' (add takes no attributes)");
  CHECK(error_of("version: 1\nname: x\ninputs: [{name: d, shape: [1, 4]}]\nlayers:\n  - {name: a, "
                 "op: relu, function: tanh}\n")
            .find("unknown attribute 'function'") != std::string::npos);
  CHECK(error_of("- just a list\n").find("expected a YAML mapping") != std::string::npos);
}

TEST_CASE("write_model_yaml round-trips shapes, params, constants and costs") {
  Graph g = parse_model_yaml(kGood, "m.yaml", {});
  g.constants.push_back(TensorDesc{"k", {3}, DType::int64});
  const std::string text = write_model_yaml(g);
  ModelLoadOptions o;
  o.batch = 3;
  const Graph back = parse_model_yaml(text, "back.yaml", o);
  REQUIRE(back.layers.size() == g.layers.size());
  CHECK(back.param_count() == g.param_count());
  CHECK(back.tensor("u").shape == Shape{3, 16});
  CHECK(back.constants.size() == 1);
  const Graph again = parse_model_yaml(text, "back.yaml", {});
  for (size_t i = 0; i < g.layers.size(); ++i)
    CHECK(layer_cost(again, again.layers[i], Pass::fwd).total.flops ==
          layer_cost(g, g.layers[i], Pass::fwd).total.flops);
}

TEST_CASE("--dim is refused for YAML models instead of being ignored") {
  ModelLoadOptions o;
  o.dims["seq"] = 128;
  CHECK_THROWS_WITH_AS(parse_model_yaml(kGood, "m.yaml", o),
                       doctest::Contains("m.yaml: error: --dim"), InputError);
}
