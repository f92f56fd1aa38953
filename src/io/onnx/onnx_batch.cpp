// Following --batch in fixed-batch ONNX exports (see onnx_batch.hpp).
#include "io/onnx/onnx_batch.hpp"

#include <unordered_map>

#include "io/onnx/onnx_context.hpp"
#include "perfmodel/error.hpp"

namespace perfmodel::io::onnx_import {

namespace {

std::string node_name(const onnx::NodeProto &n, int i) {
  return n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name();
}

std::string dims_str(const std::vector<int64_t> &v) {
  std::string s;
  for (int64_t x : v)
    s += (s.empty() ? "" : "x") + std::to_string(x);
  return s;
}

} // namespace

std::optional<int64_t> exported_batch(const onnx::ModelProto &m) {
  std::unordered_set<std::string> inits;
  for (const auto &t : m.graph().initializer())
    inits.insert(t.name());
  std::optional<int64_t> b;
  for (const auto &in : m.graph().input()) {
    if (inits.count(in.name()))
      continue;
    if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape() ||
        in.type().tensor_type().shape().dim_size() == 0)
      return std::nullopt;
    const auto &d = in.type().tensor_type().shape().dim(0);
    if (!d.has_dim_value() || d.dim_value() < 1 || (b && *b != d.dim_value()))
      return std::nullopt;
    b = d.dim_value();
  }
  return b;
}

BatchFollower::BatchFollower(const onnx::ModelProto &m, int64_t exported, int64_t batch)
    : exported_(exported), batch_(batch) {
  const auto &g = m.graph();
  std::unordered_set<std::string> inits;
  for (const auto &t : g.initializer())
    inits.insert(t.name());
  for (const auto &in : g.input())
    if (!inits.count(in.name())) {
      from_input_.insert(in.name());
      if (input_name_.empty())
        input_name_ = in.name();
    }
  for (const auto &n : g.node()) {
    bool any = false;
    for (const auto &in : n.input())
      any = any || from_input_.count(in);
    if (any)
      for (const auto &o : n.output())
        from_input_.insert(o);
  }
}

int BatchFollower::apply(onnx::ModelProto &m, const ShapeResult *r) {
  auto *g = m.mutable_graph();
  std::unordered_map<std::string, const onnx::TensorProto *> consts;
  for (const auto &t : g->initializer())
    consts[t.name()] = &t;
  for (const auto &n : g->node())
    if (n.op_type() == "Constant")
      for (const auto &a : n.attribute())
        if (a.name() == "value" && a.has_t())
          consts[n.output(0)] = &a.t();
  std::unordered_map<std::string, std::string> moved_to; // old target -> new initializer
  int moved = 0;
  for (int i = 0; i < g->node_size(); ++i) {
    auto *n = g->mutable_node(i);
    const bool reshape =
        n->op_type() == "Reshape" && n->input_size() >= 2 && from_input_.count(n->input(0));
    if (!(reshape || (n->op_type() == "Expand" && n->input_size() >= 2)))
      continue;
    const std::string target = n->input(1);
    if (from_input_.count(target))
      continue;
    std::vector<int64_t> v;
    if (auto it = consts.find(target); it != consts.end()) {
      const auto vals = tensor_values(*it->second);
      if (!vals || it->second->dims_size() != 1)
        continue;
      for (double x : *vals)
        v.push_back(static_cast<int64_t>(x));
    } else if (r) {
      auto it2 = r->values.find(target);
      if (it2 == r->values.end())
        continue;
      v = it2->second;
    } else {
      continue;
    }
    if (v.empty() || v[0] != exported_)
      continue;
    auto &name = moved_to[target];
    if (name.empty()) {
      name = target + "/perfmodel_batch_" + std::to_string(batch_);
      auto *t = g->add_initializer();
      t->set_name(name);
      t->set_data_type(onnx::TensorProto::INT64);
      t->add_dims(static_cast<int64_t>(v.size()));
      v[0] = batch_;
      for (int64_t x : v)
        t->add_int64_data(x);
    }
    n->set_input(1, name);
    ++moved;
  }
  return moved;
}

void BatchFollower::check_reshapes(const onnx::ModelProto &m, const ShapeResult &r,
                                   const std::string &path) const {
  const auto &g = m.graph();
  for (int i = 0; i < g.node_size(); ++i) {
    const auto &n = g.node(i);
    if (n.op_type() != "Reshape" || n.input_size() < 2 || n.output_size() < 1)
      continue;
    auto in = r.tensors.find(n.input(0));
    auto out = r.tensors.find(n.output(0));
    if (in == r.tensors.end() || out == r.tensors.end() || !in->second.known ||
        !out->second.known || numel(in->second.shape) == numel(out->second.shape))
      continue;
    throw InputError(SourceLoc{path}, "node '" + node_name(n, i) + "' (Reshape): its target " +
                                          dims_str(out->second.shape) + " cannot hold its input " +
                                          dims_str(in->second.shape) + ": " + hint());
  }
}

std::string BatchFollower::hint() const {
  const std::string b = std::to_string(exported_);
  const std::string in = input_name_.empty() ? "input" : input_name_;
  return "the file was exported with a fixed batch of " + b + ", and perfmodel moves to batch " +
         std::to_string(batch_) +
         " only the Reshape/Expand targets whose leading dim is that batch (docs/onnx.md, "
         "\"Fixed-batch exports\"); run at --batch " +
         b +
         ", or export again with a dynamic batch: torch.onnx.export(model, x, path, "
         "input_names=['" +
         in + "'], dynamic_axes={'" + in + "': {0: 'batch'}})";
}

} // namespace perfmodel::io::onnx_import
