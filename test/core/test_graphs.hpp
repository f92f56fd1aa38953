// Builders of small graphs for the core tests (no file I/O in core tests).
#pragma once

#include <initializer_list>
#include <utility>

#include "perfmodel/graph.hpp"
#include "perfmodel/ops.hpp"

namespace perfmodel::test {

/// A layer of registry op `op` with attributes; inputs/outputs default to "x" and the name.
inline Layer make_layer(const std::string &name, const std::string &op,
                        std::initializer_list<std::pair<const char *, AttrValue>> attrs = {},
                        std::vector<std::string> inputs = {"x"}) {
  Layer l;
  l.name = name;
  const auto info = find_op(op);
  l.op = info ? info->kind : OpKind::generic;
  l.op_name = op;
  if (info && !info->function.empty())
    l.attrs.set("function", std::string(info->function));
  for (const auto &[k, v] : attrs)
    l.attrs.set(k, v);
  l.inputs = std::move(inputs);
  return l;
}

/// A graph with inputs (name, shape) and layers; shapes inferred.
inline Graph make_graph(std::vector<std::pair<std::string, Shape>> inputs,
                        std::vector<Layer> layers, DType dtype = DType::fp32) {
  Graph g;
  g.name = "test";
  g.dtype = dtype;
  for (auto &[n, s] : inputs)
    g.inputs.push_back(TensorDesc{n, s, dtype});
  for (auto &l : layers)
    l.dtype = dtype;
  g.layers = std::move(layers);
  infer_shapes(g);
  return g;
}

/// One layer over one input "x".
inline Graph one_layer(const Shape &in, Layer l) { return make_graph({{"x", in}}, {std::move(l)}); }

} // namespace perfmodel::test
