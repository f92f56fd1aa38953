// ONNX import driver: definedness check, dim binding, ONNX shape inference, node walk
// (shape-only nodes dropped, LayerNorm chains fused, the rest mapped), IR validation.
#include "perfmodel/onnx/onnx_import.hpp"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <climits>
#include <map>
#include <set>

#include "io/onnx/onnx_batch.hpp"
#include "io/onnx/onnx_context.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel::io {

using namespace onnx_import;

namespace {

// Every node input must exist before the node: a graph input, an initializer or the output
// of an earlier node (ONNX requires topological order). Catches missing initializers.
void check_defined(const onnx::GraphProto &g, const std::string &path) {
  std::set<std::string> known;
  for (const auto &in : g.input())
    known.insert(in.name());
  for (const auto &t : g.initializer())
    known.insert(t.name());
  for (int i = 0; i < g.node_size(); ++i) {
    const auto &n = g.node(i);
    for (const auto &in : n.input())
      if (!in.empty() && !known.count(in))
        throw InputError(SourceLoc{path},
                         "node '" + (n.name().empty() ? std::to_string(i) : n.name()) + "' (" +
                             n.op_type() + "): input '" + in +
                             "' is not a graph input, an initializer or the output of an "
                             "earlier node");
    for (const auto &o : n.output())
      known.insert(o);
  }
}

// Every node of the main graph has as many inputs and outputs as its operator's schema
// allows (ONNX's registry, at the model's opset of the node's domain, else its latest): the
// operator mapping, the fusions, the constant folding and the batch rule read a node's operands
// by position (MatMul's input(1), a Constant's output(0)), and protobuf aborts the process on
// an index past a repeated field's end. Those passes recognise nodes by op_type, so a node of
// another domain without a schema of its own is held to the ONNX operator of its name, if there
// is one. A node with no schema at all is counted generically, which reads no operand by
// position. InputError naming the node otherwise.
void check_arity(const onnx::ModelProto &m, const std::string &path) {
  std::map<std::string, int> opset; // domain ("" for ONNX's) -> version
  for (const auto &os : m.opset_import())
    opset[os.domain() == "ai.onnx" ? "" : os.domain()] =
        static_cast<int>(std::clamp<int64_t>(os.version(), 1, INT_MAX));
  const auto version = [&](const std::string &domain) {
    auto it = opset.find(domain);
    return it == opset.end() ? INT_MAX : it->second;
  };
  const auto count = [](int least, int most) {
    if (least == most)
      return std::to_string(least);
    if (most == INT_MAX)
      return "at least " + std::to_string(least);
    return std::to_string(least) + " to " + std::to_string(most);
  };
  const auto &g = m.graph();
  for (int i = 0; i < g.node_size(); ++i) {
    const auto &n = g.node(i);
    const std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
    // The schema at the model's opset, else the latest one (an op newer than the opset).
    const auto schema = [&](const std::string &d) {
      const onnx::OpSchema *f = onnx::OpSchemaRegistry::Schema(n.op_type(), version(d), d);
      return f ? f : onnx::OpSchemaRegistry::Schema(n.op_type(), d);
    };
    const onnx::OpSchema *s = schema(domain);
    if (!s && !domain.empty())
      s = schema("");
    if (!s)
      continue;
    const auto check = [&](int have, int least, int most, const char *what) {
      if (have >= least && have <= most)
        return;
      const std::string node = n.name().empty() ? std::to_string(i) : n.name();
      const std::string op = n.op_type();
      throw InputError(SourceLoc{path}, "node '" + node + "' (" + op +
                                            "): " + std::to_string(have) + " " + what +
                                            (have == 1 ? "" : "s") + ", opset " +
                                            std::to_string(s->since_version()) + " " + op +
                                            " takes " + count(least, most));
    };
    check(n.input_size(), s->min_input(), s->max_input(), "input");
    check(n.output_size(), s->min_output(), s->max_output(), "output");
  }
}

std::string stem(const std::string &path) {
  std::string s = path.substr(path.find_last_of('/') + 1);
  if (s.size() > 5 && s.compare(s.size() - 5, 5, ".onnx") == 0)
    s.resize(s.size() - 5);
  return s;
}

void build(Context &c) {
  const auto &g = c.g;
  Graph &out = c.graph;
  for (const auto &t : g.initializer())
    c.inits[t.name()] = &t;
  for (const auto &t : g.initializer())
    if (c.is_weight(t.name())) {
      out.dtype = to_dtype(t.data_type(), c.path, t.name());
      break;
    }
  for (const auto &in : g.input()) {
    if (c.inits.count(in.name()))
      continue;
    const TensorInfo &ti = c.info(in.name());
    out.inputs.push_back(
        TensorDesc{in.name(), ti.shape, to_dtype(ti.elem_type, c.path, in.name())});
    c.activations.insert(in.name());
  }
  if (out.inputs.empty())
    throw InputError(SourceLoc{c.path}, "the model has no inputs");
  for (int i = 0; i < g.node_size(); ++i) {
    std::set<std::string> seen;
    for (const auto &in : g.node(i).input())
      if (!in.empty() && seen.insert(in).second)
        c.consumers[in].push_back(i);
  }
  for (const auto &n : g.node()) // fusion looks ahead at constants (LayerNorm's eps)
    if (n.op_type() == "Constant")
      for (const auto &a : n.attribute())
        if (a.name() == "value" && a.has_t())
          c.constants[n.output(0)] = &a.t();
  c.skip.assign(static_cast<size_t>(g.node_size()), false);
  for (int i = 0; i < g.node_size(); ++i) {
    if (c.skip[i])
      continue;
    const auto &n = g.node(i);
    const std::string &op = n.op_type();
    if (op == "Constant")
      continue;
    bool any_act = false, any_weight = false;
    for (const auto &in : n.input()) {
      any_act = any_act || c.is_act(in);
      any_weight = any_weight || c.is_weight(in);
    }
    if (op == "Shape" || op == "Size")
      continue; // reads metadata only
    if (!any_act) {
      // Constant folding left to the runtime costs nothing, except where it reads a weight
      // (the ViT class token expanded to the batch): then it is a layer without inputs.
      if (any_weight)
        c.add_generic(n, i, "", op == "Expand" ? 1 : 1 << 30);
      continue;
    }
    if (op == "ReduceMean" && fuse_layer_norm(c, i))
      continue;
    if (op == "Div" && fuse_gelu(c, i))
      continue;
    map_node(c, n, i);
  }
}

// Shapes that scale with the batch (found by inferring again at batch+1): reshape targets get
// -1 there, declared shapes of generic ops get a batch factor ([N, 1, 768]).
void make_portable(Graph &g, const ShapeResult &next, int64_t batch, OnnxImportReport &rep) {
  for (auto &l : g.layers) {
    if (l.op != OpKind::reshape && l.op != OpKind::generic)
      continue;
    for (size_t o = 0; o < l.outputs.size(); ++o) {
      auto it = next.tensors.find(l.outputs[o]);
      if (it == next.tensors.end() || !it->second.known)
        continue;
      DeclaredShape &a = l.output_shapes.at(o);
      const Shape &b = it->second.shape;
      std::vector<size_t> differ;
      for (size_t d = 0; d < a.size() && d < b.size(); ++d)
        if (a[d].value != b[d])
          differ.push_back(d);
      if (differ.empty())
        continue;
      if (l.op == OpKind::reshape && differ.size() == 1) {
        Shape target;
        for (const auto &d : a)
          target.push_back(d.value);
        target[differ[0]] = -1;
        l.attrs.set("shape", target);
        continue;
      }
      bool scales = l.op == OpKind::generic;
      for (size_t d : differ) {
        const int64_t k = b[d] - a[d].value;
        scales = scales && k > 0 && a[d].value == k * batch;
      }
      if (!scales) {
        rep.not_portable.push_back(l.name);
        continue;
      }
      for (size_t d : differ)
        a[d].batch_factor = b[d] - a[d].value;
    }
  }
}

// Binds the input dims of `m` at `batch` and runs ONNX shape inference. A fixed-batch export
// run at another batch goes through the BatchFollower rule; where that cannot make the file
// follow the batch, the InputError says so (`hint`, filled for the caller's later checks).
ShapeResult bind_and_infer(onnx::ModelProto &m, const std::string &path,
                           std::optional<int64_t> batch, const std::map<std::string, int64_t> &dims,
                           std::string *hint) {
  const std::optional<int64_t> exported = exported_batch(m);
  std::optional<BatchFollower> follow;
  if (exported && batch && *batch != *exported)
    follow.emplace(m, *exported, *batch);
  bind_input_dims(m, path, batch, dims);
  if (!follow)
    return infer_onnx_shapes(m, path);
  *hint = follow->hint();
  follow->apply(m, nullptr);
  ShapeResult r = infer_onnx_shapes(
      m, path, [&](onnx::ModelProto &mm, const ShapeResult &rr) { return follow->apply(mm, &rr); },
      *hint);
  follow->check_reshapes(m, r, path);
  return r;
}

} // namespace

Graph import_onnx(OnnxFile f, const ModelLoadOptions &opts, const OnnxImportOptions &iopts,
                  OnnxImportReport *report) {
  OnnxImportReport local;
  OnnxImportReport &rep = report ? *report : local;
  const std::string path = f.path;
  check_defined(f.model.graph(), path);
  check_arity(f.model, path);
  if (opts.batch && *opts.batch < 1)
    throw InputError("--batch must be at least 1");
  onnx::ModelProto probe;
  if (iopts.batch_portable)
    probe = f.model;
  std::string hint;
  ShapeResult shapes = bind_and_infer(f.model, path, opts.batch, opts.dims, &hint);
  Context c(f.model.graph(), path);
  for (const auto &os : f.model.opset_import())
    if (os.domain().empty() || os.domain() == "ai.onnx")
      c.opset = os.version();
  c.shapes = std::move(shapes);
  c.graph.name = stem(path);
  c.graph.loc = SourceLoc{path};
  build(c);
  Graph g = std::move(c.graph);
  rep.unmapped.assign(c.unmapped.begin(), c.unmapped.end());
  if (iopts.batch_portable) {
    // The same file one batch larger: what differs follows the batch. A file that cannot
    // follow it at all (a fixed-batch export the rule does not cover) is written at this batch.
    const int64_t b = g.batch();
    std::string probe_hint;
    try {
      make_portable(g, bind_and_infer(probe, path, b + 1, opts.dims, &probe_hint), b, rep);
    } catch (const InputError &e) {
      rep.batch_fixed = "at batch " + std::to_string(b + 1) + ": " + e.message();
    }
  }
  try {
    infer_shapes(g);
  } catch (const InputError &e) {
    if (hint.empty())
      throw;
    throw InputError(e.loc(), e.message() + "; " + hint);
  }
  if (!rep.unmapped.empty() && iopts.warnings) {
    std::string list;
    for (const auto &s : rep.unmapped)
      list += (list.empty() ? "" : ", ") + s;
    std::fprintf(iopts.warnings,
                 "%s: warning: no counting rule for %s; counted by the bytes they read and "
                 "write (generic)\n",
                 path.c_str(), list.c_str());
  }
  if (opts.dtype)
    set_dtype(g, *opts.dtype);
  return g;
}

Graph import_onnx(const std::string &path, const ModelLoadOptions &opts,
                  const OnnxImportOptions &iopts, OnnxImportReport *report) {
  return import_onnx(read_onnx_file(path), opts, iopts, report);
}

} // namespace perfmodel::io
