// Context helpers of the ONNX translation: operand classes, constant values, layer creation.
#include "io/onnx/onnx_context.hpp"

#include <cstring>

#include "perfmodel/onnx/onnx_file.hpp"

namespace perfmodel::io::onnx_import {

namespace {

const onnx::AttributeProto *find_attr(const onnx::NodeProto &n, const std::string &name) {
  for (const auto &a : n.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

template <typename T> std::vector<double> raw_as(const std::string &raw) {
  std::vector<double> out(raw.size() / sizeof(T));
  for (size_t i = 0; i < out.size(); ++i) {
    T v;
    std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<double>(v);
  }
  return out;
}

} // namespace

int64_t attr_int(const onnx::NodeProto &n, const std::string &name, int64_t fallback) {
  const auto *a = find_attr(n, name);
  return a && a->has_i() ? a->i() : fallback;
}

double attr_float(const onnx::NodeProto &n, const std::string &name, double fallback) {
  const auto *a = find_attr(n, name);
  return a && a->has_f() ? a->f() : fallback;
}

std::string attr_string(const onnx::NodeProto &n, const std::string &name,
                        const std::string &fallback) {
  const auto *a = find_attr(n, name);
  return a && a->has_s() ? a->s() : fallback;
}

std::optional<std::vector<int64_t>> attr_ints(const onnx::NodeProto &n, const std::string &name) {
  const auto *a = find_attr(n, name);
  if (!a)
    return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::optional<std::vector<double>> tensor_values(const onnx::TensorProto &t) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    return std::nullopt;
  int64_t n = 1;
  for (int64_t d : t.dims())
    n *= d;
  std::vector<double> v;
  if (t.has_raw_data()) {
    switch (t.data_type()) {
    case onnx::TensorProto::FLOAT:
      v = raw_as<float>(t.raw_data());
      break;
    case onnx::TensorProto::DOUBLE:
      v = raw_as<double>(t.raw_data());
      break;
    case onnx::TensorProto::INT32:
      v = raw_as<int32_t>(t.raw_data());
      break;
    case onnx::TensorProto::INT64:
      v = raw_as<int64_t>(t.raw_data());
      break;
    case onnx::TensorProto::INT8:
      v = raw_as<int8_t>(t.raw_data());
      break;
    case onnx::TensorProto::UINT8:
    case onnx::TensorProto::BOOL:
      v = raw_as<uint8_t>(t.raw_data());
      break;
    default:
      return std::nullopt;
    }
  } else {
    for (float f : t.float_data())
      v.push_back(f);
    for (double d : t.double_data())
      v.push_back(d);
    for (int32_t i : t.int32_data())
      v.push_back(i);
    for (int64_t i : t.int64_data())
      v.push_back(static_cast<double>(i));
  }
  if (static_cast<int64_t>(v.size()) != n)
    return std::nullopt; // payload skipped or absent
  return v;
}

bool Context::is_weight(const std::string &name) const {
  auto it = inits.find(name);
  if (it == inits.end())
    return false;
  const int32_t t = it->second->data_type();
  const bool fp = t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::FLOAT16 ||
                  t == onnx::TensorProto::BFLOAT16 || t == onnx::TensorProto::DOUBLE;
  int64_t n = 1;
  for (int64_t d : it->second->dims())
    n *= d;
  return fp && n > 1;
}

const TensorInfo &Context::info(const std::string &name) const {
  auto it = shapes.tensors.find(name);
  if (it == shapes.tensors.end() || !it->second.known)
    throw InputError(SourceLoc{path},
                     "ONNX shape inference could not determine the shape of '" + name + "'");
  return it->second;
}

DType Context::dtype_of(const std::string &name) const {
  return to_dtype(info(name).elem_type, path, name);
}

std::optional<std::vector<double>> Context::values(const std::string &name) const {
  if (auto it = inits.find(name); it != inits.end())
    return tensor_values(*it->second);
  if (auto it = constants.find(name); it != constants.end())
    return tensor_values(*it->second);
  if (auto it = shapes.values.find(name); it != shapes.values.end())
    return std::vector<double>(it->second.begin(), it->second.end());
  return std::nullopt;
}

const std::vector<int> &Context::users(const std::string &name) const {
  static const std::vector<int> none;
  auto it = consumers.find(name);
  return it == consumers.end() ? none : it->second;
}

Layer Context::new_layer(const onnx::NodeProto &n, int index, OpKind op,
                         const std::string &suffix) {
  Layer l;
  std::string base = n.name().empty() ? n.op_type() + "_" + std::to_string(index) : n.name();
  base += suffix;
  l.name = base;
  for (int k = 2; layer_names.count(l.name); ++k)
    l.name = base + "_" + std::to_string(k);
  layer_names.insert(l.name);
  l.op = op;
  l.op_name = n.op_type();
  l.dtype = graph.dtype;
  l.loc = SourceLoc{path};
  return l;
}

TensorDesc Context::param_desc(const std::string &tensor, const std::string &name, bool buffer) {
  const TensorInfo &ti = info(tensor);
  if (!owned.insert(tensor).second)
    buffer = true;
  TensorDesc t{name, ti.shape, to_dtype(ti.elem_type, path, tensor), buffer};
  if (t.shape.empty())
    t.shape = {1};
  return t;
}

void Context::add_operand(Layer &l, const std::string &name, const std::string &role) {
  if (name.empty())
    return;
  if (is_act(name)) {
    l.inputs.push_back(name);
    return;
  }
  if (numel(info(name).shape) <= 1)
    return; // a scalar constant (eps, exponent): an attribute
  l.params.push_back(param_desc(name, role.empty() ? name : l.name + "." + role, !is_weight(name)));
}

void Context::finish(Layer &l, const std::vector<std::string> &outputs) {
  l.outputs.clear();
  l.output_shapes.clear();
  for (const auto &o : outputs) {
    l.outputs.push_back(o);
    l.output_shapes.push_back(declared(info(o).shape));
    activations.insert(o);
  }
  if (!outputs.empty()) {
    const DType d = dtype_of(outputs[0]);
    if (d != DType::int64 && d != DType::int32 && d != DType::boolean)
      l.dtype = d;
  }
  graph.layers.push_back(std::move(l));
}

void Context::add_generic(const onnx::NodeProto &n, int index, const std::string &why,
                          int max_inputs) {
  if (!why.empty())
    unmapped.insert(why);
  Layer l = new_layer(n, index, OpKind::generic);
  for (int i = 0; i < n.input_size() && i < max_inputs; ++i)
    add_operand(l, n.input(i));
  std::vector<std::string> outs;
  for (const auto &o : n.output())
    if (!o.empty())
      outs.push_back(o);
  finish(l, outs);
}

} // namespace perfmodel::io::onnx_import
