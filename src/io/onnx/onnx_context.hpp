// State shared by the ONNX-to-IR translation steps: tensor classes (activation, weight,
// constant), shapes from ONNX inference, and helpers that turn node operands into IR pieces.
#pragma once

#include <onnx/onnx_pb.h>

#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "io/onnx/onnx_shapes.hpp"
#include "perfmodel/graph.hpp"

namespace perfmodel::io::onnx_import {

struct Context {
  const onnx::GraphProto &g;
  std::string path;
  int64_t opset = 13;
  ShapeResult shapes;
  std::unordered_map<std::string, const onnx::TensorProto *> inits;     // graph initializers
  std::unordered_map<std::string, const onnx::TensorProto *> constants; // Constant node values
  std::unordered_set<std::string> activations; // values that depend on the graph inputs
  std::unordered_map<std::string, std::vector<int>> consumers; // tensor -> node indices
  std::vector<bool> skip;         // nodes already folded into an earlier layer
  std::set<std::string> unmapped; // op types counted as generic without a rule of their own
  std::set<std::string> layer_names;
  std::set<std::string> owned; // initializers already counted as some layer's params
  Graph graph;

  Context(const onnx::GraphProto &graph_proto, std::string file)
      : g(graph_proto), path(std::move(file)) {}

  bool is_act(const std::string &name) const { return activations.count(name) != 0; }
  /// A learned weight: a floating-point initializer with more than one element.
  bool is_weight(const std::string &name) const;
  const TensorInfo &info(const std::string &name) const; // InputError when shape is unknown
  DType dtype_of(const std::string &name) const;
  /// Values of a constant tensor (initializer, Constant node, or ONNX data propagation).
  std::optional<std::vector<double>> values(const std::string &name) const;
  /// Nodes reading `name` (indices into g.node()).
  const std::vector<int> &users(const std::string &name) const;

  /// A layer named after the node (made unique), located in the file.
  Layer new_layer(const onnx::NodeProto &n, int index, OpKind op, const std::string &suffix = "");
  /// Activation operands become inputs; weights become params; other constants with more than
  /// one element become buffer params (bytes, not parameters); scalar constants are dropped.
  void add_operand(Layer &l, const std::string &name, const std::string &role = "");
  /// A param read from `tensor`. An initializer shared by several layers is a parameter of the
  /// first only; later readers count its bytes as a buffer (PyTorch counts shared weights once).
  TensorDesc param_desc(const std::string &tensor, const std::string &name, bool buffer);
  /// Sets outputs and their declared shapes from ONNX inference, and adds the layer.
  void finish(Layer &l, const std::vector<std::string> &outputs);
  /// Counts a node by bytes (OpKind::generic); `why` non-empty lists it in the warning. Only
  /// the first `max_inputs` inputs are operands (Expand's shape input is not data).
  void add_generic(const onnx::NodeProto &n, int index, const std::string &why,
                   int max_inputs = 1 << 30);
};

// Attribute helpers (ONNX defaults are given by the caller).
int64_t attr_int(const onnx::NodeProto &n, const std::string &name, int64_t fallback);
double attr_float(const onnx::NodeProto &n, const std::string &name, double fallback);
std::string attr_string(const onnx::NodeProto &n, const std::string &name,
                        const std::string &fallback);
std::optional<std::vector<int64_t>> attr_ints(const onnx::NodeProto &n, const std::string &name);
/// Values of a TensorProto held inline (raw or typed fields); nullopt when not held.
std::optional<std::vector<double>> tensor_values(const onnx::TensorProto &t);

/// Maps one node with at least one activation input to layer(s) (onnx_ops.cpp).
void map_node(Context &c, const onnx::NodeProto &n, int index);
/// Fuses decomposed LayerNorm chains; returns true when node `index` started one (onnx_fuse.cpp).
bool fuse_layer_norm(Context &c, int index);
/// Fuses the erf GELU chain starting at Div node `index` into a gelu activation.
bool fuse_gelu(Context &c, int index);

} // namespace perfmodel::io::onnx_import
