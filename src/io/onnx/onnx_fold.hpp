// Evaluates small integer shape computations that ONNX 1.12's data propagation does not cover
// (Div, Equal, Where, ConstantOfShape, ...) and replaces them with Constant nodes, so the next
// ONNX shape inference pass sees their values. Only values are computed here, never shapes.
#pragma once

#include <onnx/onnx_pb.h>

#include "io/onnx/onnx_shapes.hpp"

namespace perfmodel::io::onnx_import {

/// Folds every node whose inputs all have known values (initializers, Constant nodes, ONNX's
/// propagated shape data in `r`) but whose outputs do not, for the ops it knows. Returns how many
/// nodes became Constants.
int fold_shape_values(onnx::ModelProto &m, const ShapeResult &r);

} // namespace perfmodel::io::onnx_import
