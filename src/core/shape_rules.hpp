// Per-op shape rules used by infer_shapes(): output shapes and parameter tensors of one layer.
#pragma once

#include <array>

#include "perfmodel/graph.hpp"

namespace perfmodel {

/// Computes the layer's output shapes (into g.tensors) and params (when not given). Output
/// tensors that already have a shape are checked against the rule. Throws InputError.
void apply_shape_rule(Graph &g, Layer &layer);

/// Spatial geometry of a 2-D window op (conv or pool), attributes resolved with defaults.
struct Window2d {
  std::array<int64_t, 2> kernel{1, 1}, stride{1, 1}, dilation{1, 1};
  std::array<int64_t, 4> pad{0, 0, 0, 0}; // top, left, bottom, right
};
Window2d window_attrs(const Attributes &a, bool stride_defaults_to_kernel);

/// Numpy broadcasting of two shapes; throws InputError when they do not broadcast.
Shape broadcast_shapes(const Shape &a, const Shape &b);

} // namespace perfmodel
