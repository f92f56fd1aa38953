// The graph IR: tensors with shapes and dtypes, layers (op + attributes), a DAG of them.
//
// A Graph is built by a reader (YAML, ONNX) and then completed by infer_shapes(), which
// checks the DAG (unknown inputs, cycles, duplicate names) and computes every output shape
// and parameter tensor with the op's rule from ops.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "perfmodel/dtype.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/layout.hpp"
#include "perfmodel/ops.hpp"

namespace perfmodel {

using Shape = std::vector<int64_t>;
int64_t numel(const Shape &s);
std::string shape_str(const Shape &s, char sep = '*'); // "5*3*227*227"

struct TensorDesc {
  std::string name;
  Shape shape;
  DType dtype = DType::fp32;
  bool buffer = false; // a non-learnable constant (batchnorm running stats): bytes, not params
  int64_t bytes() const { return numel(shape) * bytes_of(dtype); }
};

/// A declared dimension: `value`, or `batch_factor` x batch when batch_factor > 0 (so a
/// declared shape follows --batch: [N, 1, 768] or [128, 12N, 64]).
struct DeclaredDim {
  int64_t value = 0;
  int64_t batch_factor = 0;
  int64_t resolve(int64_t batch) const { return batch_factor > 0 ? batch_factor * batch : value; }
};
using DeclaredShape = std::vector<DeclaredDim>;
DeclaredShape declared(const Shape &s); // all dims fixed

/// One attribute value: integer, float, string or list of integers (ONNX's common kinds).
using AttrValue = std::variant<int64_t, double, std::string, std::vector<int64_t>>;

class Attributes {
public:
  bool has(const std::string &key) const { return values_.count(key) != 0; }
  void set(const std::string &key, AttrValue v) { values_[key] = std::move(v); }
  int64_t get_int(const std::string &key, int64_t fallback) const;
  double get_float(const std::string &key, double fallback) const;
  std::string get_string(const std::string &key, const std::string &fallback) const;
  /// A list; a scalar int is broadcast to `n` copies (kernel: 3 -> {3, 3}).
  std::vector<int64_t> get_ints(const std::string &key, std::vector<int64_t> fallback,
                                size_t n = 0) const;
  const std::map<std::string, AttrValue> &all() const { return values_; }

private:
  std::map<std::string, AttrValue> values_;
};

/// A layer that inference fusion (perfmodel/fusion.hpp) merged into the layer before it in a
/// fused group: what it was, and what it reads besides the value fused into it.
struct FusedPart {
  std::string name;                  // the original layer's name
  OpKind op = OpKind::generic;       // activation, elementwise or batch_norm
  std::string op_name;               // its op type as written ("BatchNormalization", "Relu")
  std::string function;              // an activation's or element-wise op's function, else ""
  std::vector<std::string> operands; // tensors it reads besides the fused value (each is also
                                     // in Layer::inputs, after the head's own inputs)
  bool folded = false; // a batch norm folded into a GEMM's weights and bias: no step at run time
};

/// What fusion merged into a layer (empty for a layer as written): the layer's own op is the
/// head, `head_name` and `head_inputs` its name and inputs before fusion, `parts` the layers
/// after it, in order. The fused layer's outputs are the last part's.
struct FusionRecord {
  std::string head_name;
  std::vector<std::string> head_inputs; // the op's own inputs: Layer::inputs begins with them
  std::vector<FusedPart> parts;
  bool empty() const { return parts.empty(); }
};

struct Layer {
  std::string name;
  OpKind op = OpKind::generic;
  std::string op_name; // as written by the user / ONNX op type ("conv2d", "Erf")
  Attributes attrs;
  std::vector<std::string> inputs;  // activation tensors read (graph inputs or layer outputs)
  std::vector<std::string> outputs; // activation tensors written
  std::vector<TensorDesc> params;   // weights, bias, ... (filled by infer_shapes or importer)
  std::vector<DeclaredShape> output_shapes; // declared output shapes (importer, output_shape:):
                                            // checked against the rule, required without one
  std::string activation;                   // fused activation ("relu", ...), "" for none
  DType dtype = DType::fp32;                // compute data type
  SourceLoc loc;                            // where it was defined
  FusionRecord fused;                       // set by fusion only (perfmodel/fusion.hpp)
  /// How many of `inputs` the layer's own op reads (all of them unless fusion appended the
  /// operands of its parts).
  size_t op_input_count() const { return fused.empty() ? inputs.size() : fused.head_inputs.size(); }
};

struct Graph {
  std::string name;
  DType dtype = DType::fp32;
  /// The activations' layout the graph runs in (`--layout`; layer_features passes it to each
  /// call): the GPU target's layout conversions read it, the CPU targets ignore it.
  Layout layout = Layout::nchw;
  std::vector<TensorDesc> inputs;    // graph inputs (dim 0 is the batch)
  std::vector<TensorDesc> constants; // constant tensors layers read that are not params
                                     // (gather indices, ONNX Constant operands); no batch dim
  std::vector<Layer> layers;         // topological order after infer_shapes()
  /// Every activation tensor, by name (rebuilt by infer_shapes from inputs and layers). Hashed:
  /// layer names share long prefixes ("layers.31.self_attn."), which an ordered map compares
  /// over and over; nothing depends on the order of iteration.
  std::unordered_map<std::string, TensorDesc> tensors;
  SourceLoc loc;

  const TensorDesc &tensor(const std::string &name) const;
  int64_t batch() const {
    return inputs.empty() || inputs[0].shape.empty() ? 1 : inputs[0].shape[0];
  }
  int64_t param_count() const;
};

/// Sets dim 0 of every graph input to `batch` (the batch override of --batch). Declared output
/// shapes of ops with a shape rule are dropped (the rule recomputes them); those of ops without
/// one follow the batch through their batch factors. Call infer_shapes after.
void set_batch(Graph &g, int64_t batch);

/// Orders layers topologically, checks names and inputs, computes output shapes and params,
/// rebuilding g.tensors from the inputs. Declared output shapes are checked against the rule
/// (or used when the op has none). Throws InputError with the layer's location.
void infer_shapes(Graph &g);

} // namespace perfmodel
