// Symbolic dims: --batch sets dim 0, --dim sets named dims, unset dims are a clear error.
#include <doctest/doctest.h>

#include "onnx_builder.hpp"

using perfmodel::test::OnnxBuilder;
using namespace perfmodel;

namespace {

OnnxBuilder seq_model(const std::string &batch = "batch") {
  OnnxBuilder b;
  b.input("x", {batch, "seq", "8"});
  b.init("w", {8, 4});
  b.node("MatMul", {"x", "w"}, {"y"});
  b.output("y");
  return b;
}

} // namespace

TEST_CASE("--batch sets the symbolic batch; it defaults to 1") {
  io::ModelLoadOptions o;
  o.dims["seq"] = 7;
  CHECK(seq_model().load(o).tensor("y").shape == Shape{1, 7, 4});
  o.batch = 5;
  CHECK(seq_model().load(o).tensor("y").shape == Shape{5, 7, 4});
}

TEST_CASE("--batch overrides a fixed batch; --dim may name the batch too") {
  io::ModelLoadOptions o;
  o.dims["seq"] = 3;
  o.batch = 4;
  CHECK(seq_model("2").load(o).tensor("y").shape == Shape{4, 3, 4});
  io::ModelLoadOptions byname;
  byname.dims = {{"seq", 3}, {"batch", 6}};
  CHECK(seq_model().load(byname).tensor("y").shape == Shape{6, 3, 4});
}

TEST_CASE("an unset symbolic dim is an InputError naming it and the option") {
  try {
    seq_model().load();
    FAIL("expected an InputError");
  } catch (const InputError &e) {
    const std::string m = e.what();
    CHECK(m.find("test.onnx: error:") == 0);
    CHECK(m.find("'seq' (input 'x' dim 1)") != std::string::npos);
    CHECK(m.find("--dim NAME=VALUE") != std::string::npos);
  }
}

TEST_CASE("ONNX shape inference errors become InputErrors") {
  OnnxBuilder b;
  b.input("x", {"N", "8"});
  b.init("w", {5, 4}); // inner dims 8 vs 5 do not match
  b.node("MatMul", {"x", "w"}, {"y"});
  b.output("y");
  CHECK_THROWS_WITH_AS(b.load(), doctest::Contains("ONNX shape inference failed"), InputError);
}

TEST_CASE("attributes ONNX's shape inference divides by are checked before it runs") {
  // Found by the bad-input corpus: a Conv with strides 0 stopped perfmodel with SIGFPE inside
  // libonnx's convPoolShapeInference.
  auto conv = [](const std::string &key, const std::vector<int64_t> &v) {
    OnnxBuilder b;
    b.input("x", {"1", "3", "8", "8"});
    b.init("w", {4, 3, 3, 3});
    auto &n = b.node("Conv", {"x", "w"}, {"y"});
    OnnxBuilder::attr(n, key, v);
    b.output("y");
    return b;
  };
  CHECK(conv("strides", {1, 1}).load().tensor("y").shape == Shape{1, 4, 6, 6});
  CHECK_THROWS_WITH_AS(conv("strides", {0, 0}).load(),
                       doctest::Contains("attribute 'strides' must be positive, not 0"),
                       InputError);
  CHECK_THROWS_WITH_AS(conv("dilations", {1, -2}).load(),
                       doctest::Contains("attribute 'dilations' must be positive, not -2"),
                       InputError);
  CHECK_THROWS_WITH_AS(conv("pads", {0, 0, -1, 0}).load(),
                       doctest::Contains("attribute 'pads' must be non-negative, not -1"),
                       InputError);
}
