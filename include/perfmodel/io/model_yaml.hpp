// Reads and writes the model YAML format (version 1, docs/formats.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "perfmodel/graph.hpp"

namespace perfmodel::io {

/// Options applied while loading any model (YAML or ONNX).
struct ModelLoadOptions {
  std::optional<int64_t> batch;        // --batch: dim 0 of every input
  std::map<std::string, int64_t> dims; // --dim name=value: symbolic dims
  std::optional<DType> dtype;          // --dtype: overrides the model's data type
};

/// Parses a model YAML text; `file` names it in error messages. Runs infer_shapes().
Graph parse_model_yaml(const std::string &text, const std::string &file,
                       const ModelLoadOptions &opts);
Graph read_model_yaml(const std::string &path, const ModelLoadOptions &opts);

/// Writes a shape-inferred graph as model YAML (weights dropped; shapes and attributes kept).
std::string write_model_yaml(const Graph &g);

} // namespace perfmodel::io
