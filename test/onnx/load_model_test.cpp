// load_model: .onnx files go to the importer, YAML to the YAML reader, bare names to models/.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

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
