// Model YAML reader and writer (format: docs/formats.md#model).
#include "perfmodel/io/model_yaml.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "io/yaml_util.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/nearest_name.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel::io {

namespace {

const std::set<std::string> kReserved = {"name",  "op",           "inputs", "outputs", "activation",
                                         "dtype", "output_shape", "params", "type"};

DType read_dtype(const YAML::Node &n, const std::string &file) {
  const std::string s = n.as<std::string>();
  auto d = parse_dtype(s);
  if (!d)
    throw InputError(loc_of(file, n), "unknown dtype '" + s + "'");
  return *d;
}

Shape read_shape(const YAML::Node &n, const std::string &file) {
  if (!n.IsSequence())
    throw InputError(loc_of(file, n), "a shape must be a list of integers");
  Shape s;
  for (const auto &d : n) {
    const int64_t v = get_int(d, "shape dimension", file);
    if (v <= 0)
      throw InputError(loc_of(file, d), "shape dimensions must be positive");
    s.push_back(v);
  }
  return s;
}

// A declared dimension: an integer, "N" (the batch) or "<k>N" (k times the batch).
DeclaredShape read_declared_shape(const YAML::Node &n, const std::string &file) {
  if (!n.IsSequence())
    throw InputError(loc_of(file, n), "a shape must be a list");
  DeclaredShape s;
  for (const auto &d : n) {
    const std::string t = d.IsScalar() ? d.Scalar() : "";
    if (!t.empty() && t.back() == 'N') {
      const std::string k = t.substr(0, t.size() - 1);
      long long f = 1;
      if (!k.empty() &&
          (std::sscanf(k.c_str(), "%lld", &f) != 1 || f <= 0 || std::to_string(f) != k))
        throw InputError(loc_of(file, d), "dimension '" + t + "' must be an integer, N or <k>N");
      s.push_back(DeclaredDim{0, f});
      continue;
    }
    const int64_t v = get_int(d, "shape dimension", file);
    if (v < 0)
      throw InputError(loc_of(file, d), "shape dimensions must not be negative");
    s.push_back(DeclaredDim{v, 0});
  }
  return s;
}

std::vector<std::string> read_names(const YAML::Node &n, const std::string &file) {
  if (n.IsScalar())
    return {n.as<std::string>()};
  if (!n.IsSequence())
    throw InputError(loc_of(file, n), "expected a name or a list of names");
  std::vector<std::string> out;
  for (const auto &e : n)
    out.push_back(e.as<std::string>());
  return out;
}

AttrValue read_attr(const YAML::Node &n, const std::string &key, const std::string &file) {
  if (n.IsSequence())
    return get_int_list(n, key.c_str(), file);
  if (!n.IsScalar())
    throw InputError(loc_of(file, n), "attribute '" + key + "' must be a scalar or a list");
  long long i;
  double d;
  bool b;
  if (YAML::convert<long long>::decode(n, i))
    return static_cast<int64_t>(i);
  if (YAML::convert<double>::decode(n, d))
    return d;
  if (YAML::convert<bool>::decode(n, b))
    return static_cast<int64_t>(b);
  return n.as<std::string>();
}

// "out_features, bias", or "no attributes".
std::string attribute_list(const std::vector<std::string_view> &names) {
  if (names.empty())
    return "no attributes";
  std::string out;
  for (std::string_view n : names)
    out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

Layer read_layer(const YAML::Node &n, const std::string &file, DType dtype,
                 const std::string &previous) {
  if (!n.IsMap())
    throw InputError(loc_of(file, n), "a layer must be a mapping");
  Layer l;
  l.loc = loc_of(file, n);
  l.name = get_string(n, "name", file);
  const std::string op = get_string(n, "op", file);
  auto info = find_op(op);
  if (!info) {
    std::vector<std::string> known;
    for (const OpInfo &o : op_registry())
      known.emplace_back(o.name);
    const std::string near = did_you_mean(op, known);
    throw InputError(loc_of(file, n["op"]),
                     "layer '" + l.name + "': unknown op '" + op + "'" +
                         (near.empty() ? " (perfmodel list ops shows the known ones)" : near));
  }
  l.op = info->kind;
  l.op_name = n["type"] ? n["type"].as<std::string>() : std::string(info->name);
  if (!info->function.empty())
    l.attrs.set("function", std::string(info->function));
  l.dtype = n["dtype"] ? read_dtype(n["dtype"], file) : dtype;
  if (n["inputs"])
    l.inputs = read_names(n["inputs"], file);
  else if (!previous.empty())
    l.inputs = {previous};
  if (n["outputs"])
    l.outputs = read_names(n["outputs"], file);
  if (n["activation"])
    l.activation = n["activation"].as<std::string>();
  if (const YAML::Node os = n["output_shape"]) {
    if (os.IsSequence() && os.size() > 0 && os[0].IsSequence())
      for (const auto &s : os)
        l.output_shapes.push_back(read_declared_shape(s, file));
    else
      l.output_shapes.push_back(read_declared_shape(os, file));
  }
  if (const YAML::Node ps = n["params"]) {
    if (!ps.IsSequence())
      throw InputError(loc_of(file, ps), "params must be a list");
    for (const auto &p : ps) {
      check_keys(p, {"name", "shape", "buffer", "dtype"}, file, "param");
      TensorDesc t{get_string(p, "name", file), read_shape(p["shape"], file), l.dtype};
      if (p["buffer"])
        t.buffer = p["buffer"].as<bool>();
      if (p["dtype"])
        t.dtype = read_dtype(p["dtype"], file);
      l.params.push_back(t);
    }
  }
  const std::vector<std::string_view> &known = op_attributes(l.op);
  for (const auto &kv : n) {
    const std::string key = kv.first.as<std::string>();
    if (kReserved.count(key))
      continue;
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw InputError(loc_of(file, kv.first), "layer '" + l.name + "': unknown attribute '" + key +
                                                   "' (" + op + " takes " + attribute_list(known) +
                                                   ")");
    l.attrs.set(key, read_attr(kv.second, key, file));
  }
  return l;
}

} // namespace

Graph parse_model_yaml(const std::string &text, const std::string &file,
                       const ModelLoadOptions &opts) {
  const YAML::Node root = load_yaml(text, file);
  check_version(root, file, "model");
  check_keys(root,
             {"version", "name", "dtype", "inputs", "constants", "layers", "description", "source"},
             file, "model");
  Graph g;
  g.loc = SourceLoc{file};
  try {
    g.name = get_string(root, "name", file);
    g.dtype = root["dtype"] ? read_dtype(root["dtype"], file) : DType::fp32;
    const YAML::Node inputs = root["inputs"], layers = root["layers"];
    if (!inputs || !inputs.IsSequence() || inputs.size() == 0)
      throw InputError(loc_of(file, root), "'inputs' must be a non-empty list");
    if (!layers || !layers.IsSequence() || layers.size() == 0)
      throw InputError(loc_of(file, root), "'layers' must be a non-empty list");
    for (const auto &in : inputs) {
      check_keys(in, {"name", "shape", "dtype"}, file, "input");
      if (!in["shape"])
        throw InputError(loc_of(file, in), "input needs a 'shape'");
      g.inputs.push_back(TensorDesc{get_string(in, "name", file), read_shape(in["shape"], file),
                                    in["dtype"] ? read_dtype(in["dtype"], file) : g.dtype});
    }
    if (const YAML::Node cs = root["constants"]) {
      if (!cs.IsSequence())
        throw InputError(loc_of(file, cs), "'constants' must be a list");
      for (const auto &c : cs) {
        check_keys(c, {"name", "shape", "dtype"}, file, "constant");
        if (!c["shape"])
          throw InputError(loc_of(file, c), "constant needs a 'shape'");
        g.constants.push_back(TensorDesc{get_string(c, "name", file), read_shape(c["shape"], file),
                                         c["dtype"] ? read_dtype(c["dtype"], file) : g.dtype});
      }
    }
    std::string previous = g.inputs.front().name;
    for (const auto &n : layers) {
      g.layers.push_back(read_layer(n, file, g.dtype, previous));
      const Layer &l = g.layers.back();
      previous = l.outputs.empty() ? l.name : l.outputs.front();
    }
  } catch (const YAML::Exception &e) {
    throw InputError(SourceLoc{file, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
  if (!opts.dims.empty())
    throw InputError(SourceLoc{file}, "--dim sets symbolic dimensions of ONNX models; a YAML model "
                                      "has none (--batch sets the batch)");
  if (opts.batch) {
    if (*opts.batch < 1)
      throw InputError("--batch must be at least 1");
    set_batch(g, *opts.batch);
  }
  infer_shapes(g);
  if (opts.dtype)
    set_dtype(g, *opts.dtype);
  return g;
}

Graph read_model_yaml(const std::string &path, const ModelLoadOptions &opts) {
  return parse_model_yaml(read_file(path), path, opts);
}

namespace {

std::string op_name_for(const Layer &l) {
  const std::string fn = l.attrs.get_string("function", "");
  switch (l.op) {
  case OpKind::activation:
  case OpKind::elementwise:
    return fn;
  case OpKind::reduce:
    return "reduce_" + fn;
  default:
    return std::string(to_string(l.op));
  }
}

void emit_attr(YAML::Emitter &out, const AttrValue &v) {
  if (auto *i = std::get_if<int64_t>(&v))
    out << *i;
  else if (auto *d = std::get_if<double>(&v))
    out << *d;
  else if (auto *s = std::get_if<std::string>(&v))
    out << YAML::DoubleQuoted << *s;
  else {
    out << YAML::Flow << YAML::BeginSeq;
    for (int64_t x : std::get<std::vector<int64_t>>(v))
      out << x;
    out << YAML::EndSeq;
  }
}

void emit_shape(YAML::Emitter &out, const Shape &s) {
  out << YAML::Flow << YAML::BeginSeq;
  for (int64_t d : s)
    out << d;
  out << YAML::EndSeq;
}

void emit_declared(YAML::Emitter &out, const DeclaredShape &s) {
  out << YAML::Flow << YAML::BeginSeq;
  for (const auto &d : s) {
    if (d.batch_factor == 1)
      out << "N";
    else if (d.batch_factor > 1)
      out << std::to_string(d.batch_factor) + "N";
    else
      out << d.value;
  }
  out << YAML::EndSeq;
}

void emit_tensor_list(YAML::Emitter &out, const char *key, const std::vector<TensorDesc> &ts,
                      DType dtype) {
  out << YAML::Key << key << YAML::Value << YAML::BeginSeq;
  for (const auto &t : ts) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << t.name;
    out << YAML::Key << "shape" << YAML::Value;
    emit_shape(out, t.shape);
    if (t.dtype != dtype)
      out << YAML::Key << "dtype" << YAML::Value << std::string(to_string(t.dtype));
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

} // namespace

std::string write_model_yaml(const Graph &g) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "version" << YAML::Value << 1;
  out << YAML::Key << "name" << YAML::Value << g.name;
  out << YAML::Key << "dtype" << YAML::Value << std::string(to_string(g.dtype));
  emit_tensor_list(out, "inputs", g.inputs, g.dtype);
  if (!g.constants.empty())
    emit_tensor_list(out, "constants", g.constants, g.dtype);
  out << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
  std::string previous = g.inputs.empty() ? "" : g.inputs.front().name;
  for (const auto &l : g.layers) {
    const std::string op = op_name_for(l);
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << l.name;
    out << YAML::Key << "op" << YAML::Value << op;
    if (l.op_name != op)
      out << YAML::Key << "type" << YAML::Value << l.op_name;
    if (!(l.inputs.size() == 1 && l.inputs[0] == previous)) {
      out << YAML::Key << "inputs" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const auto &i : l.inputs)
        out << i;
      out << YAML::EndSeq;
    }
    if (!(l.outputs.size() == 1 && l.outputs[0] == l.name)) {
      out << YAML::Key << "outputs" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const auto &o : l.outputs)
        out << o;
      out << YAML::EndSeq;
    }
    if (l.dtype != g.dtype)
      out << YAML::Key << "dtype" << YAML::Value << std::string(to_string(l.dtype));
    if (!l.activation.empty())
      out << YAML::Key << "activation" << YAML::Value << l.activation;
    for (const auto &[k, v] : l.attrs.all()) {
      if (k == "function")
        continue;
      out << YAML::Key << k << YAML::Value;
      emit_attr(out, v);
    }
    if (l.op == OpKind::generic) {
      out << YAML::Key << "output_shape" << YAML::Value << YAML::BeginSeq;
      for (size_t i = 0; i < l.outputs.size(); ++i) {
        if (i < l.output_shapes.size())
          emit_declared(out, l.output_shapes[i]);
        else
          emit_shape(out, g.tensor(l.outputs[i]).shape);
      }
      out << YAML::EndSeq;
    }
    if (!l.params.empty()) {
      out << YAML::Key << "params" << YAML::Value << YAML::BeginSeq;
      for (const auto &p : l.params) {
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name;
        out << YAML::Key << "shape" << YAML::Value;
        emit_shape(out, p.shape);
        if (p.buffer)
          out << YAML::Key << "buffer" << YAML::Value << true;
        if (p.dtype != l.dtype)
          out << YAML::Key << "dtype" << YAML::Value << std::string(to_string(p.dtype));
        out << YAML::EndMap;
      }
      out << YAML::EndSeq;
    }
    out << YAML::EndMap;
    previous = l.outputs.empty() ? l.name : l.outputs.front();
  }
  out << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

} // namespace perfmodel::io
