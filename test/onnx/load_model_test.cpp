// load_model: .onnx files go to the importer, YAML to the YAML reader, bare names to models/.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "onnx_builder.hpp"
#include "perfmodel/onnx/load_model.hpp"

using perfmodel::test::OnnxBuilder;
using namespace perfmodel;

TEST_CASE("an .onnx path is imported") {
  OnnxBuilder b;
  b.input("x", {"N", "4"});
  b.init("w", {4, 3});
  b.node("MatMul", {"x", "w"}, {"y"});
  b.output("y");
  const auto p = std::filesystem::temp_directory_path() / "perfmodel_load_model_test.onnx";
  std::ofstream(p, std::ios::binary) << b.bytes();
  io::ModelLoadOptions o;
  o.batch = 2;
  Graph g = io::load_model(p.string(), o);
  CHECK(g.tensor("y").shape == Shape{2, 3});
  CHECK(g.param_count() == 12);
}

TEST_CASE("a bare name finds the zoo YAML") {
  Graph g = io::load_model("resnet18", {});
  CHECK(g.param_count() == 11689512);
}

TEST_CASE("an unknown name is an InputError") {
  CHECK_THROWS_AS(io::load_model("no_such_model_anywhere", {}), InputError);
}

TEST_CASE("ONNX bytes in memory import as the same file does") {
  const std::string path = std::string(PERFMODEL_TEST_DATA) + "/onnx/tiny_cnn.onnx";
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(!bytes.empty());
  io::ModelLoadOptions o;
  o.batch = 3;
  const Graph from_file = io::load_model(path, o);
  const Graph from_bytes = io::load_onnx_bytes(reinterpret_cast<const uint8_t *>(bytes.data()),
                                               bytes.size(), "<memory>", o);
  REQUIRE(from_bytes.layers.size() == from_file.layers.size());
  CHECK(from_bytes.param_count() == from_file.param_count());
  for (size_t i = 0; i < from_file.layers.size(); ++i)
    CHECK(from_bytes.layers[i].name == from_file.layers[i].name);
}

TEST_CASE("bad ONNX bytes are an InputError naming them") {
  const std::string junk = "not a protobuf at all";
  try {
    io::load_onnx_bytes(reinterpret_cast<const uint8_t *>(junk.data()), junk.size(), "<torch>", {});
    FAIL("no error");
  } catch (const InputError &e) {
    CHECK(std::string(e.what()).rfind("<torch>: error:", 0) == 0);
  }
}
