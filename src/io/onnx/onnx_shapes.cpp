// Symbolic dim binding and ONNX shape inference (ONNX's own InferShapes, never our rules).
#include "io/onnx/onnx_shapes.hpp"

#include <onnx/shape_inference/implementation.h>

#include <map>
#include <set>

#include "io/onnx/onnx_fold.hpp"
#include "io/onnx/onnx_schemas.hpp"
#include "perfmodel/error.hpp"

namespace perfmodel::io::onnx_import {

void bind_input_dims(onnx::ModelProto &m, const std::string &path, std::optional<int64_t> batch,
                     const std::map<std::string, int64_t> &dims) {
  auto *g = m.mutable_graph();
  std::set<std::string> inits;
  for (const auto &t : g->initializer())
    inits.insert(t.name());
  std::vector<std::string> missing;
  std::set<std::string> used;
  for (auto &in : *g->mutable_input()) {
    if (inits.count(in.name()))
      continue;
    if (!in.type().has_tensor_type())
      throw InputError(SourceLoc{path}, "input '" + in.name() + "' is not a tensor");
    auto *tt = in.mutable_type()->mutable_tensor_type();
    if (!tt->has_shape())
      throw InputError(SourceLoc{path}, "input '" + in.name() + "' has no shape");
    for (int i = 0; i < tt->shape().dim_size(); ++i) {
      auto *d = tt->mutable_shape()->mutable_dim(i);
      const std::string param = d->has_dim_param() ? d->dim_param() : "";
      if (i == 0 && batch) {
        d->set_dim_value(*batch);
        continue;
      }
      if (d->has_dim_value() && d->dim_value() > 0)
        continue;
      if (auto it = dims.find(param); !param.empty() && it != dims.end()) {
        if (it->second < 1)
          throw InputError(SourceLoc{path}, "--dim " + param + " must be at least 1");
        d->set_dim_value(it->second);
        used.insert(param);
      } else if (i == 0) {
        d->set_dim_value(1); // the batch, default 1
      } else {
        missing.push_back(param.empty()
                              ? "input '" + in.name() + "' dim " + std::to_string(i) + " (unnamed)"
                              : "'" + param + "' (input '" + in.name() + "' dim " +
                                    std::to_string(i) + ")");
      }
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (const auto &s : missing)
      list += (list.empty() ? "" : ", ") + s;
    throw InputError(SourceLoc{path}, "symbolic dimension(s) without a value: " + list +
                                          "; set them with --dim NAME=VALUE");
  }
  // Shapes stored by the exporter may contradict the bound dims: ONNX recomputes them.
  g->clear_value_info();
  for (auto &out : *g->mutable_output())
    if (out.type().has_tensor_type())
      out.mutable_type()->mutable_tensor_type()->clear_shape();
}

namespace {

TensorInfo info_of(const onnx::TypeProto &t) {
  TensorInfo ti;
  if (!t.has_tensor_type())
    return ti;
  ti.elem_type = t.tensor_type().elem_type();
  if (!t.tensor_type().has_shape())
    return ti;
  ti.known = true;
  for (const auto &d : t.tensor_type().shape().dim()) {
    if (!d.has_dim_value() || d.dim_value() < 0)
      ti.known = false;
    ti.shape.push_back(d.has_dim_value() ? d.dim_value() : -1);
  }
  return ti;
}

} // namespace

namespace {

/// ONNX's own shape inference divides by some attributes without checking them (the libonnx
/// of Debian 12 stops with SIGFPE on a Conv with strides 0), so these are checked first, in
/// every node of the graph and of its subgraphs: strides, dilations and kernel_shape of the
/// convolution and pooling ops must be positive, pads not negative, group and blocksize
/// positive. InputError naming the node otherwise.
void check_inference_attributes(const onnx::GraphProto &g, const std::string &path) {
  static const std::set<std::string> windowed = {
      "Conv",   "ConvTranspose", "ConvInteger", "QLinearConv", "MaxPool", "AveragePool",
      "LpPool", "MaxUnpool",     "MaxRoiPool",  "DeformConv",  "Col2Im"};
  for (const auto &n : g.node()) {
    const bool onnx_domain = n.domain().empty() || n.domain() == "ai.onnx";
    for (const auto &a : n.attribute()) {
      if (a.has_g())
        check_inference_attributes(a.g(), path);
      for (const auto &sub : a.graphs())
        check_inference_attributes(sub, path);
      if (!onnx_domain)
        continue;
      const std::string &k = a.name();
      int64_t least = -1; // the smallest value allowed; -1: not checked
      if (windowed.count(n.op_type()) &&
          (k == "strides" || k == "dilations" || k == "kernel_shape" || k == "group"))
        least = 1;
      else if (windowed.count(n.op_type()) && k == "pads")
        least = 0;
      else if ((n.op_type() == "DepthToSpace" || n.op_type() == "SpaceToDepth") && k == "blocksize")
        least = 1;
      if (least < 0)
        continue;
      std::vector<int64_t> values(a.ints().begin(), a.ints().end());
      if (a.type() == onnx::AttributeProto::INT || a.has_i())
        values.push_back(a.i());
      for (int64_t v : values)
        if (v < least)
          throw InputError(SourceLoc{path}, "node '" + n.name() + "' (" + n.op_type() +
                                                "): attribute '" + k + "' must be " +
                                                (least == 1 ? "positive" : "non-negative") +
                                                ", not " + std::to_string(v));
    }
  }
}

/// A convolution without `kernel_shape` takes it from its weight's dims; libonnx's inference
/// (Debian 12) then indexes the input's spatial dims by the weight's and crashes (SIGSEGV) when
/// the weight has more. The attribute is written from the weight initializer's dims, as the
/// ONNX spec defines it, so that ONNX's own check ("kernel_shape ... input dims") refuses a
/// mismatch instead. Subgraphs alike, with their own initializers.
void make_kernel_shapes_explicit(onnx::GraphProto &g) {
  std::map<std::string, const onnx::TensorProto *> inits;
  for (const auto &t : g.initializer())
    inits[t.name()] = &t;
  for (auto &n : *g.mutable_node()) {
    for (auto &a : *n.mutable_attribute()) {
      if (a.has_g())
        make_kernel_shapes_explicit(*a.mutable_g());
      for (auto &sub : *a.mutable_graphs())
        make_kernel_shapes_explicit(sub);
    }
    if (!(n.domain().empty() || n.domain() == "ai.onnx"))
      continue;
    const std::string &op = n.op_type();
    const int w = op == "QLinearConv" ? 3
                  : (op == "Conv" || op == "ConvTranspose" || op == "ConvInteger") ? 1
                                                                                    : -1;
    if (w < 0 || n.input_size() <= w)
      continue;
    bool given = false;
    for (const auto &a : n.attribute())
      given = given || a.name() == "kernel_shape";
    const auto it = inits.find(n.input(w));
    if (given || it == inits.end())
      continue;
    onnx::AttributeProto *k = n.add_attribute();
    k->set_name("kernel_shape");
    k->set_type(onnx::AttributeProto::INTS);
    for (int d = 2; d < it->second->dims_size(); ++d)
      k->add_ints(it->second->dims(d));
  }
}

ShapeResult infer_once(onnx::ModelProto &m, const std::string &path, const std::string &hint) {
  std::unordered_map<std::string, onnx::TensorShapeProto> data;
  check_inference_attributes(m.graph(), path);
  make_kernel_shapes_explicit(*m.mutable_graph());
  take_failed_checks(); // none left from an earlier run on this thread
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/1,
                                        /*data_propagation=*/true);
    onnx::shape_inference::InferShapes(m, checked_schemas(), options, &data);
  } catch (const std::exception &e) {
    std::string msg = e.what();
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' '))
      msg.pop_back();
    for (auto &c : msg)
      if (c == '\n')
        c = ' ';
    throw InputError(SourceLoc{path},
                     "ONNX shape inference failed: " + msg + (hint.empty() ? "" : "; " + hint));
  }
  if (const std::vector<FailedCheck> failed = take_failed_checks(); !failed.empty())
    throw InputError(SourceLoc{path}, "ONNX shape inference failed: (op_type:" + failed[0].op +
                                          ", inside a subgraph): " + failed[0].why +
                                          (hint.empty() ? "" : "; " + hint));
  ShapeResult r;
  const auto &g = m.graph();
  for (const auto &v : g.input())
    r.tensors[v.name()] = info_of(v.type());
  for (const auto &v : g.value_info())
    r.tensors[v.name()] = info_of(v.type());
  for (const auto &v : g.output())
    r.tensors[v.name()] = info_of(v.type());
  for (const auto &t : g.initializer()) {
    TensorInfo ti;
    ti.elem_type = t.data_type();
    ti.known = true;
    ti.shape.assign(t.dims().begin(), t.dims().end());
    r.tensors[t.name()] = ti;
  }
  for (const auto &[name, shape] : data) {
    std::vector<int64_t> vals;
    bool ok = true;
    for (const auto &d : shape.dim()) {
      if (!d.has_dim_value())
        ok = false;
      vals.push_back(d.dim_value());
    }
    if (ok)
      r.values[name] = std::move(vals);
  }
  return r;
}

} // namespace

ShapeResult infer_onnx_shapes(onnx::ModelProto &m, const std::string &path,
                              const ShapeRewrite &rewrite, const std::string &hint) {
  // ONNX propagates shape values through Shape/Gather/Concat/... but not Div, Equal, Where:
  // fold those once their inputs are known and infer again, until nothing changes.
  for (;;) {
    ShapeResult r = infer_once(m, path, hint);
    const int folded = fold_shape_values(m, r);
    const int rewritten = rewrite ? rewrite(m, r) : 0;
    if (folded + rewritten == 0)
      return r;
    m.mutable_graph()->clear_value_info();
  }
}

DType to_dtype(int32_t elem_type, const std::string &path, const std::string &tensor) {
  switch (elem_type) {
  case onnx::TensorProto::FLOAT:
    return DType::fp32;
  case onnx::TensorProto::DOUBLE:
    return DType::fp64;
  case onnx::TensorProto::FLOAT16:
    return DType::fp16;
  case onnx::TensorProto::BFLOAT16:
    return DType::bf16;
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return DType::int8;
  case onnx::TensorProto::INT16: // perfmodel has no 16-bit integer: same storage as fp16
  case onnx::TensorProto::UINT16:
    return DType::fp16;
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return DType::int32;
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
    return DType::int64;
  case onnx::TensorProto::BOOL:
    return DType::boolean;
  default:
    throw InputError(SourceLoc{path}, "tensor '" + tensor + "' has an unsupported element type " +
                                          std::to_string(elem_type));
  }
}

} // namespace perfmodel::io::onnx_import
