// Loads a model from any supported format, chosen by extension: .onnx or YAML.
#pragma once

#include <string>

#include "perfmodel/io/model_yaml.hpp"

namespace perfmodel::io {

/// `spec` is a path or a bare name found in models/ (.yaml, then .onnx).
Graph load_model(const std::string &spec, const ModelLoadOptions &opts);

} // namespace perfmodel::io
