// Loads a model from any supported format, chosen by extension: .onnx or YAML.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "perfmodel/io/model_yaml.hpp"

namespace perfmodel::io {

/// `spec` is a path or a bare name found in models/ (.yaml, then .onnx).
Graph load_model(const std::string &spec, const ModelLoadOptions &opts);

/// An ONNX model already in memory (torch.onnx.export into a buffer, no file): the same import
/// as an .onnx file's, without mapping one. `name` names the bytes in messages ("name: error:
/// ..."); external data, which bytes alone cannot carry, is looked up relative to the current
/// directory. Throws InputError as for a file.
Graph load_onnx_bytes(const uint8_t *data, size_t size, const std::string &name,
                      const ModelLoadOptions &opts);

} // namespace perfmodel::io
