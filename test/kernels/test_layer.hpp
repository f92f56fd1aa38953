// A layer for the executor tests' small graphs: one output named after the layer.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "perfmodel/graph.hpp"

namespace perfmodel::test {

inline Layer layer(const std::string &name, OpKind op, const std::string &op_name,
                   std::vector<std::string> in,
                   std::vector<std::pair<std::string, AttrValue>> attrs = {}) {
  Layer l;
  l.name = name;
  l.op = op;
  l.op_name = op_name;
  l.inputs = std::move(in);
  l.outputs = {name};
  for (auto &[k, v] : attrs)
    l.attrs.set(k, v);
  return l;
}

} // namespace perfmodel::test
