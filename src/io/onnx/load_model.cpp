// Model loading by format: .onnx goes to the ONNX importer, everything else is model YAML;
// ONNX bytes in memory go to the importer directly.
#include "perfmodel/onnx/load_model.hpp"

#include "perfmodel/io/resources.hpp"
#include "perfmodel/onnx/onnx_import.hpp"

namespace perfmodel::io {

Graph load_model(const std::string &spec, const ModelLoadOptions &opts) {
  const std::string path = resolve_resource(spec, "models", {".yaml", ".onnx"});
  const bool onnx = path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
  return onnx ? import_onnx(path, opts) : read_model_yaml(path, opts);
}

Graph load_onnx_bytes(const uint8_t *data, size_t size, const std::string &name,
                      const ModelLoadOptions &opts) {
  return import_onnx(onnx_import::parse_onnx_bytes(data, size, name, "."), opts);
}

} // namespace perfmodel::io
