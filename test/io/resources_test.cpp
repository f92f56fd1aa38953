// Name lookup (docs/lookup.md): $PERFMODEL_PATH before the source tree, case ignored, "did you
// mean", and another kind's name or file refused with a message that says which kind it is.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "perfmodel/error.hpp"
#include "perfmodel/io/resources.hpp"

using namespace perfmodel;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kYaml = {".yaml", ".yml"};

// A temporary root holding hw_specs/<files>, set as $PERFMODEL_PATH for the test's lifetime.
struct TempRoot {
  fs::path dir;
  explicit TempRoot(const std::string &name, const std::vector<std::string> &hw_files) {
    dir = fs::temp_directory_path() / ("perfmodel_resources_test_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir / "hw_specs");
    for (const auto &f : hw_files)
      std::ofstream(dir / "hw_specs" / f) << "name: x\n";
  }
  ~TempRoot() {
    unsetenv("PERFMODEL_PATH");
    fs::remove_all(dir);
  }
};

std::string message_of(const std::string &spec, const std::string &kind) {
  try {
    io::resolve_resource(spec, kind,
                         kind == "models" ? std::vector<std::string>{".yaml", ".onnx"} : kYaml);
  } catch (const InputError &e) {
    return e.what();
  }
  return "(no error)";
}

bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("the roots: $PERFMODEL_PATH entries in order, the share dir, the source tree last") {
  TempRoot t("roots", {});
  setenv("PERFMODEL_PATH", ("/nonexistent/a::" + t.dir.string()).c_str(), 1);
  const auto roots = io::resource_roots();
  REQUIRE(roots.size() == 4);
  CHECK(roots[0] == "/nonexistent/a");
  CHECK(roots[1] == t.dir.string());
  CHECK(has(roots[2], "share/perfmodel"));
  CHECK(roots[3] == PERFMODEL_SOURCE_DIR);
}

TEST_CASE("a file under $PERFMODEL_PATH shadows the source tree's, and list says where") {
  TempRoot t("shadow", {"a100.yaml", "mine.yml"});
  setenv("PERFMODEL_PATH", t.dir.string().c_str(), 1);
  CHECK(io::resolve_resource("a100", "hw_specs", kYaml) == (t.dir / "hw_specs/a100.yaml").string());
  CHECK(io::resolve_resource("MINE", "hw_specs", kYaml) == (t.dir / "hw_specs/mine.yml").string());
  bool saw_a100 = false, saw_h100 = false;
  for (const auto &r : io::find_resources("hw_specs", kYaml)) {
    if (r.name == "a100") {
      saw_a100 = true;
      CHECK(r.folder == (t.dir / "hw_specs").string());
    }
    if (r.name == "h100") {
      saw_h100 = true;
      CHECK(r.folder == std::string(PERFMODEL_SOURCE_DIR) + "/hw_specs");
    }
  }
  CHECK(saw_a100);
  CHECK(saw_h100);
}

TEST_CASE("bare names ignore case") {
  const std::string p = io::resolve_resource("A100", "hw_specs", kYaml);
  CHECK(fs::path(p).filename() == "a100.yaml");
}

TEST_CASE("an unknown name suggests the nearest known one and lists the known names") {
  const std::string m = message_of("a10O", "hw_specs");
  CHECK(has(m, "unknown hardware spec 'a10O' (did you mean 'a100'?); known: a100, "));
  CHECK(has(m, "searched "));
  CHECK_FALSE(has(message_of("zzzzzzzzz", "hw_specs"), "did you mean"));
}

TEST_CASE("another kind's name or file is refused with what it is") {
  CHECK(has(message_of("resnet50", "hw_specs"),
            "'resnet50' is a model, not a hardware spec: give it to --model (found " +
                std::string(PERFMODEL_SOURCE_DIR) + "/models/resnet50.yaml)"));
  CHECK(
      has(message_of("a100", "models"), "'a100' is a hardware spec, not a model: give it to --hw"));
  CHECK(has(message_of("models/resnet50.yaml", "hw_specs"),
            "models/resnet50.yaml: error: this is a model (it is in a models/ folder), not a "
            "hardware spec: give it to --model"));
  CHECK(has(message_of("resnet50.onnx", "hw_specs"),
            "resnet50.onnx: error: this is an ONNX model, not a hardware spec: give it to "
            "--model"));
  CHECK(has(message_of("resnet50.onnx", "calibration"), "not a calibration: give it to --model"));
  CHECK(has(message_of("hw_specs/nosuch.yaml", "hw_specs"),
            "hw_specs/nosuch.yaml: error: no such file"));
}
