// The operator schemas ONNX's shape inference runs with (onnx_shapes.cpp): ONNX's own, with the
// convolutions' inference guarded where libonnx's would read past its vectors.
#pragma once

#include <onnx/defs/schema.h>

#include <string>
#include <vector>

namespace perfmodel::io::onnx_import {

/// ONNX's schema registry, except that Conv, ConvInteger, QLinearConv and ConvTranspose (ONNX
/// domain) check, before ONNX's inference of the node, that a node without `kernel_shape` has a
/// weight of its data's rank. Their inference (libonnx 1.12, Debian 12) takes the kernel from
/// the weight's dims after the first two and indexes one per spatial dim of the data, so a
/// weight of another rank crashes it (SIGSEGV, SIGFPE) or reads past a vector; the check fails
/// the node's inference instead (ONNX's error, naming the node; see take_failed_checks for a
/// subgraph's), whatever the weight is: an initializer, a graph input or another node's output,
/// in the graph or a subgraph. A node with
/// `kernel_shape`, or whose data or weight shape ONNX does not know, goes to ONNX's inference
/// unchecked (ONNX checks the attribute's size itself, and skips a node without shapes).
const onnx::ISchemaRegistry *checked_schemas();

/// A check of checked_schemas() that failed: the node's op type and why.
struct FailedCheck {
  std::string op;  // "Conv"
  std::string why; // "the weight (input 1) has rank 4 and the data (input 0) rank 3: ..."
};

/// The checks of checked_schemas() that failed on this thread since the last call, then
/// forgotten. libonnx 1.12 reports a failed node of the main graph (InferShapes throws) but
/// drops those of a subgraph's inference (an If or Loop body), so its caller reads these after
/// InferShapes returns.
std::vector<FailedCheck> take_failed_checks();

} // namespace perfmodel::io::onnx_import
