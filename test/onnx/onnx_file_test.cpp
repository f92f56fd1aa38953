// Reading .onnx files: weight payloads skipped but size-checked, external data, malformed files.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "onnx_builder.hpp"
#include "perfmodel/io/files.hpp"

using perfmodel::test::OnnxBuilder;
using namespace perfmodel;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string &name) {
  fs::path d = fs::temp_directory_path() / ("perfmodel_onnx_test_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path &p, const std::string &bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

OnnxBuilder conv_model(int64_t cout = 64) {
  OnnxBuilder b;
  b.input("x", {"N", "3", "32", "32"});
  b.init("w", {cout, 3, 3, 3});
  b.node("Conv", {"x", "w"}, {"y"});
  b.output("y");
  return b;
}

std::string error_of(const std::string &path) {
  try {
    io::import_onnx(path, {});
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("large payloads are skipped but counted; small ones are kept") {
  OnnxBuilder b = conv_model(1024); // 1024*27*4 = 110592 bytes > kKeepPayloadBytes
  const std::string bytes = b.bytes();
  auto f = io::onnx_import::parse_onnx_bytes(reinterpret_cast<const uint8_t *>(bytes.data()),
                                             bytes.size(), "m.onnx", ".");
  CHECK(f.skipped_bytes == 1024 * 27 * 4);
  CHECK(f.model.graph().initializer(0).raw_data().empty());
  CHECK(f.model.graph().initializer(0).dims_size() == 4);
  Graph g = io::import_onnx(std::move(f), {});
  CHECK(g.param_count() == 1024 * 27);
}

TEST_CASE("read_onnx_file maps the file and reports it by path") {
  const fs::path d = temp_dir("read");
  write(d / "m.onnx", conv_model().bytes());
  Graph g = io::import_onnx((d / "m.onnx").string(), {});
  CHECK(g.name == "m");
  CHECK(g.param_count() == 64 * 27);
}

TEST_CASE("malformed files: truncated, not ONNX, empty, wrong payload size, missing input") {
  const fs::path d = temp_dir("bad");
  const std::string good = conv_model(1024).bytes();
  write(d / "trunc.onnx", good.substr(0, good.size() / 2));
  write(d / "text.onnx", "this is not a protobuf, just text\n");
  write(d / "empty.onnx", "");
  CHECK(error_of((d / "trunc.onnx").string()).find((d / "trunc.onnx").string() + ": error:") == 0);
  CHECK(error_of((d / "trunc.onnx").string()).find("truncated") != std::string::npos);
  CHECK(error_of((d / "text.onnx").string())
            .find((d / "text.onnx").string() + ": error: not a valid ONNX model") == 0);
  CHECK(error_of((d / "empty.onnx").string()).find((d / "empty.onnx").string() + ": error:") == 0);
  CHECK(error_of((d / "none.onnx").string())
            .find((d / "none.onnx").string() + ": error: cannot read") == 0);

  OnnxBuilder b = conv_model();
  b.model().mutable_graph()->mutable_initializer(0)->mutable_raw_data()->resize(10);
  write(d / "size.onnx", b.bytes());
  CHECK(error_of((d / "size.onnx").string()).find("holds 10 bytes of data but its dims need") !=
        std::string::npos);

  OnnxBuilder m = conv_model();
  m.model().mutable_graph()->clear_initializer(); // the weight is referenced but missing
  write(d / "missing.onnx", m.bytes());
  const std::string e = error_of((d / "missing.onnx").string());
  CHECK(e.find((d / "missing.onnx").string() + ": error:") == 0);
  CHECK(e.find("input 'w' is not a graph input, an initializer") != std::string::npos);
}

TEST_CASE("external data: only checked, small integer tensors read") {
  const fs::path d = temp_dir("ext");
  OnnxBuilder b;
  b.input("x", {"N", "3", "8", "8"});
  auto &w = b.init("w", {16, 3, 3, 3});
  w.clear_raw_data();
  w.set_data_location(onnx::TensorProto::EXTERNAL);
  auto *loc = w.add_external_data();
  loc->set_key("location");
  loc->set_value("weights.bin");
  auto *off = w.add_external_data();
  off->set_key("offset");
  off->set_value("64");
  b.node("Conv", {"x", "w"}, {"c"});
  // A reshape target stored externally: its values are needed by shape inference.
  auto &s = b.init_i64("shape", {0, -1});
  s.clear_int64_data();
  s.set_data_location(onnx::TensorProto::EXTERNAL);
  auto *sl = s.add_external_data();
  sl->set_key("location");
  sl->set_value("weights.bin");
  b.node("Reshape", {"c", "shape"}, {"y"});
  b.output("y");
  write(d / "m.onnx", b.bytes());

  CHECK(error_of((d / "m.onnx").string())
            .find("external data file '" + (d / "weights.bin").string() + "' not found") !=
        std::string::npos);

  std::string data(64 + 16 * 27 * 4, '\0');
  const int64_t vals[2] = {0, -1};
  std::memcpy(data.data(), vals, sizeof vals); // 'shape' at offset 0, 'w' at 64
  write(d / "weights.bin", data);
  Graph g = io::import_onnx((d / "m.onnx").string(), {});
  CHECK(g.param_count() == 16 * 27);
  CHECK(g.tensor("y").shape == Shape{1, 16 * 36});

  write(d / "weights.bin", std::string(100, '\0'));
  CHECK(error_of((d / "m.onnx").string()).find("which has 100") != std::string::npos);
}
