// libFuzzer target: the ONNX reader, from the byte-level loader (parse_onnx_bytes: wire-level
// payload skipping, protobuf parse, size checks) through ONNX shape inference and the operator
// mapping (import_onnx). External data resolves in an empty folder. A returned graph has
// positive dims everywhere.
#include <unistd.h>

#include "fuzz_contract.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/onnx/onnx_file.hpp"
#include "perfmodel/onnx/onnx_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  static const std::string dir = [] {
    char tmpl[] = "/tmp/perfmodel-fuzz-onnx.XXXXXX";
    const char *made = mkdtemp(tmpl);
    return std::string(made ? made : "/nonexistent");
  }();
  fuzz::contract([&] {
    auto file = io::onnx_import::parse_onnx_bytes(data, size, fuzz::kFile, dir);
    io::OnnxImportOptions iopts;
    iopts.warnings = nullptr;
    const Graph g = io::import_onnx(std::move(file), {}, iopts);
    for (const auto &[name, t] : g.tensors)
      for (int64_t d : t.shape)
        fuzz::require(d > 0, "tensor dims positive");
  });
  return 0;
}
