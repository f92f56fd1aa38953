// Inference fusion (perfmodel/fusion.hpp): the groups are found in one walk in graph order (a
// group starts at the first layer not yet taken that can head one and grows along the only
// reader of its value), then the graph is rebuilt with one layer per group.
#include "perfmodel/fusion.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "perfmodel/epilogue.hpp"

namespace perfmodel {

std::string_view to_string(Fusion f) { return f == Fusion::none ? "none" : "inference"; }

std::optional<Fusion> parse_fusion(std::string_view s) {
  if (s == "none")
    return Fusion::none;
  if (s == "inference")
    return Fusion::inference;
  return std::nullopt;
}

namespace {

bool elementwise_kind(OpKind k) {
  return k == OpKind::activation || k == OpKind::elementwise || k == OpKind::batch_norm;
}

// A batch norm reading `head`'s output scales and shifts each output channel of its product
// (dim 1 of an NCHW convolution output, the features of a 2-D linear output): that is a
// rescaled weight and a new bias.
bool batch_norm_folds_into(const Graph &g, const Layer &head) {
  const Shape &out = g.tensor(head.outputs[0]).shape;
  switch (head.op) {
  case OpKind::conv2d:
  case OpKind::conv_transpose2d:
    return out.size() == 4;
  case OpKind::linear:
    return out.size() == 2;
  default:
    return false;
  }
}

// Per tensor, the layers that read it, once per reading.
std::map<std::string, std::vector<size_t>> readers_of(const Graph &g) {
  std::map<std::string, std::vector<size_t>> r;
  for (size_t i = 0; i < g.layers.size(); ++i)
    for (const std::string &in : g.layers[i].inputs)
      r[in].push_back(i);
  return r;
}

// The groups to fuse, each the indices of its layers in graph order (head first).
std::vector<std::vector<size_t>> find_groups(const Graph &g) {
  const auto readers = readers_of(g);
  std::vector<bool> taken(g.layers.size(), false);
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer &head = g.layers[i];
    const bool gemm = is_gemm_like(head.op);
    if (taken[i] || !(gemm || elementwise_kind(head.op)) || head.outputs.size() != 1)
      continue;
    const TensorDesc &out = g.tensor(head.outputs[0]);
    std::vector<size_t> members{i};
    std::string value = head.outputs[0];
    for (;;) {
      const auto it = readers.find(value);
      if (it == readers.end() || it->second.size() != 1)
        break; // a graph output, or a value another layer (or the same one twice) also reads
      const size_t j = it->second[0];
      const Layer &next = g.layers[j];
      if (taken[j] || !elementwise_kind(next.op) || next.outputs.size() != 1 ||
          !next.activation.empty() || next.dtype != head.dtype)
        break;
      const TensorDesc &next_out = g.tensor(next.outputs[0]);
      if (next_out.shape != out.shape || next_out.dtype != out.dtype)
        break; // the fused kernel writes one tensor of the head's shape
      if (next.op == OpKind::batch_norm) {
        if (next.inputs.empty() || next.inputs[0] != value)
          break;
        // After a GEMM a batch norm folds into it, or ends the group: it runs after the
        // epilogue's other steps only as a kernel (or a chain) of its own.
        if (gemm &&
            !(members.size() == 1 && head.activation.empty() && batch_norm_folds_into(g, head)))
          break;
      }
      members.push_back(j);
      value = next.outputs[0];
    }
    if (members.size() < 2)
      continue;
    for (size_t m : members)
      taken[m] = true;
    groups.push_back(std::move(members));
  }
  return groups;
}

// `part` without the leading path it shares with `head` ("/layer1/bn1/BN" after
// "/layer1/conv1/Conv" is "bn1/BN"); the whole name where nothing would be left.
std::string relative_name(const std::string &part, const std::string &head) {
  size_t cut = 0;
  for (size_t i = 0; i < part.size() && i < head.size() && part[i] == head[i]; ++i)
    if (part[i] == '/')
      cut = i + 1;
  return cut < part.size() ? part.substr(cut) : part;
}

// The fused layer of one group: the head's op, attributes and inputs, then each part's operands
// and (in a chain) parameters; the last part's outputs.
Layer fused_layer(const Graph &g, const std::vector<size_t> &members) {
  const Layer &head = g.layers[members[0]];
  Layer f = head;
  f.fused.head_name = head.name;
  f.fused.head_inputs = head.inputs;
  const bool gemm = is_gemm_like(head.op);
  std::string value = head.outputs[0];
  for (size_t k = 1; k < members.size(); ++k) {
    const Layer &l = g.layers[members[k]];
    FusedPart p;
    p.name = l.name;
    p.op = l.op;
    p.op_name = l.op_name.empty() ? std::string(to_string(l.op)) : l.op_name;
    if (l.op != OpKind::batch_norm)
      p.function = l.attrs.get_string("function", "");
    for (const std::string &in : l.inputs) {
      if (in == value)
        continue; // the fused value: read once (find_groups), never written out
      p.operands.push_back(in);
      if (std::find(f.inputs.begin(), f.inputs.end(), in) == f.inputs.end())
        f.inputs.push_back(in); // an external input is read once however many parts use it
    }
    if (l.op == OpKind::batch_norm && gemm) {
      p.folded = true; // scale into the weights, shift into the bias
      if (!layer_has_bias(f)) {
        const Shape &out = g.tensor(head.outputs[0]).shape;
        const int64_t channels = head.op == OpKind::linear ? out.back() : out[1];
        f.params.push_back(TensorDesc{head.name + ".bias", {channels}, head.dtype});
        f.attrs.set("bias", int64_t{1});
      }
    } else {
      f.params.insert(f.params.end(), l.params.begin(), l.params.end());
    }
    f.fused.parts.push_back(std::move(p));
    value = l.outputs[0];
  }
  const Layer &tail = g.layers[members.back()];
  f.outputs = tail.outputs;
  f.output_shapes = tail.output_shapes;
  return f;
}

std::string joined_name(const Layer &f, bool relative) {
  std::string name = f.fused.head_name;
  for (const FusedPart &p : f.fused.parts)
    name += "+" + (relative ? relative_name(p.name, f.fused.head_name) : p.name);
  return name;
}

} // namespace

Graph fuse(const Graph &g, Fusion mode, Pass pass) {
  if (mode == Fusion::none)
    return g;
  if (pass != Pass::fwd)
    throw InputError("--fusion inference applies to the inference pass (--pass fwd) only: "
                     "training keeps every layer's output for the backward pass, so no layer is "
                     "fused (use --fusion none)");
  const std::vector<std::vector<size_t>> groups = find_groups(g);
  std::vector<int> group_at(g.layers.size(), -1); // at a group's last layer: the group
  std::vector<bool> merged(g.layers.size(), false);
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    for (size_t m : groups[gi])
      merged[m] = true;
    group_at[groups[gi].back()] = int(gi);
  }
  std::set<std::string> names; // of the layers left as they are, and of the fused so far
  for (size_t i = 0; i < g.layers.size(); ++i)
    if (!merged[i])
      names.insert(g.layers[i].name);

  Graph out = g;
  out.layers.clear();
  for (size_t i = 0; i < g.layers.size(); ++i) {
    if (group_at[i] < 0) {
      if (!merged[i])
        out.layers.push_back(g.layers[i]);
      continue;
    }
    // At the place of its last part, every input of every part has been computed: a part's
    // inputs come before it, and only the last part's output is read outside the group.
    const std::vector<size_t> &members = groups[size_t(group_at[i])];
    Layer f = fused_layer(g, members);
    f.name = joined_name(f, true);
    if (names.count(f.name))
      f.name = joined_name(f, false);
    for (int n = 2; names.count(f.name); ++n)
      f.name = joined_name(f, false) + "#" + std::to_string(n);
    names.insert(f.name);
    for (size_t k = 0; k + 1 < members.size(); ++k)
      out.tensors.erase(g.layers[members[k]].outputs[0]); // never written: kept in registers
    out.layers.push_back(std::move(f));
  }
  return out;
}

} // namespace perfmodel
