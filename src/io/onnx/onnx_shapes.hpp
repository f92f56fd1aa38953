// Binds the symbolic dims of an ONNX model's inputs (--batch, --dim) and runs ONNX's own shape
// inference, returning every tensor's shape and element type.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "perfmodel/io/model_yaml.hpp"

namespace perfmodel::io::onnx_import {

struct TensorInfo {
  Shape shape;
  int32_t elem_type = 0; // onnx::TensorProto::DataType
  bool known = false;    // every dim has a value
};

struct ShapeResult {
  std::unordered_map<std::string, TensorInfo> tensors;
  /// Values ONNX's data propagation computed for small integer (shape) tensors.
  std::unordered_map<std::string, std::vector<int64_t>> values;
};

/// Sets dim 0 of every graph input to `batch` (default: 1 where symbolic) and every other
/// symbolic dim from `dims`; InputError naming the unset dims and the --dim option otherwise.
void bind_input_dims(onnx::ModelProto &m, const std::string &path, std::optional<int64_t> batch,
                     const std::map<std::string, int64_t> &dims);

/// Rewrites `m` between inference passes from what the last pass found; returns how many
/// changes it made (0: nothing to infer again).
using ShapeRewrite = std::function<int(onnx::ModelProto &, const ShapeResult &)>;

/// Runs onnx::shape_inference::InferShapes (strict, with data propagation) on `m` (modified:
/// value_info is replaced) and collects the shapes, folding shape values (onnx_fold.hpp) and
/// applying `rewrite` after each pass until neither changes anything. InputError with ONNX's
/// message on failure, followed by `hint` when that is not empty.
ShapeResult infer_onnx_shapes(onnx::ModelProto &m, const std::string &path,
                              const ShapeRewrite &rewrite = {}, const std::string &hint = "");

/// Maps an ONNX element type to perfmodel's DType; InputError for strings and unknown types.
DType to_dtype(int32_t elem_type, const std::string &path, const std::string &tensor);

} // namespace perfmodel::io::onnx_import
