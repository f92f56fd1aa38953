// Fixed-batch exports (torch.onnx.export without dynamic_axes): the batch is baked into the
// graph inputs' dim 0 and into the constant shape tensors that Reshape and Expand read. This
// makes such a file follow --batch where the rule below applies, and explains where it does
// not (docs/onnx.md, "Fixed-batch exports").
#pragma once

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "io/onnx/onnx_shapes.hpp"

namespace perfmodel::io::onnx_import {

/// The batch the file was exported with: the dim 0 shared by all graph inputs (initializers
/// excluded) when each is a fixed value; nullopt when one is symbolic, or they differ.
std::optional<int64_t> exported_batch(const onnx::ModelProto &m);

/// Moves the constant shape targets of a fixed-batch export from `exported` to `batch`.
class BatchFollower {
public:
  /// `m` as read from the file (before folding): which tensors derive from a graph input.
  BatchFollower(const onnx::ModelProto &m, int64_t exported, int64_t batch);

  /// The rule: every Reshape whose data input derives from a graph input, and every Expand,
  /// whose target (input 1) does not derive from a graph input (the export computed it from
  /// constants) and whose value is known (an initializer, a Constant node, or ONNX's propagated
  /// data in `r`) with leading value `exported`, reads instead a new int64 initializer whose
  /// leading value is `batch`; other readers of the old value keep it. Targets that derive from
  /// a graph input (Shape -> Gather -> ...) already follow the batch and are left alone. Returns
  /// how many targets it moved; call it again after each inference pass (folding can make more
  /// values known) until it returns 0.
  int apply(onnx::ModelProto &m, const ShapeResult *r);

  /// Reshape nodes whose inferred input and output element counts differ: a target that holds
  /// the exported batch in a dim other than its leading one (PyTorch's attention views,
  /// [seq, batch x heads, head_dim]). InputError naming the first, with hint(). Call after
  /// the last inference pass.
  void check_reshapes(const onnx::ModelProto &m, const ShapeResult &r,
                      const std::string &path) const;

  /// "the file was exported with a fixed batch of 1 ...; run at --batch 1, or re-export with a
  /// dynamic batch: ..." (one clause, for the end of an error message).
  std::string hint() const;

  int64_t exported() const { return exported_; }

private:
  int64_t exported_, batch_;
  std::string input_name_;
  std::unordered_set<std::string> from_input_; // tensors that derive from a graph input
};

} // namespace perfmodel::io::onnx_import
