// Graph IR basics: attributes, shapes, lookups, and infer_shapes() (ordering and validation;
// the per-op shape rules are in shape_rules.cpp).
#include "perfmodel/graph.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/shape_rules.hpp"

namespace perfmodel {

int64_t numel(const Shape &s) {
  int64_t n = 1;
  for (int64_t d : s)
    n *= d;
  return n;
}

namespace {

// Tensors are capped at 2^50 elements so that byte counts (x 8) and FLOP counts stay exact in
// int64 and in doubles; a larger shape is an input error, not an overflow.
constexpr int64_t kMaxElements = int64_t{1} << 50;

void check_size(const Shape &s, const SourceLoc &loc, const std::string &what) {
  int64_t n = 1;
  for (int64_t d : s)
    if (d < 0 || __builtin_mul_overflow(n, d, &n) || n > kMaxElements)
      throw InputError(loc,
                       what + " " + shape_str(s, 'x') + " is too large (more than 2^50 elements)");
}

// A double in its shortest round-trip form: "3.7", "1e+26", "inf", "nan".
std::string number_str(double d) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, res.ptr);
}

} // namespace

std::string shape_str(const Shape &s, char sep) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i)
      out += sep;
    out += std::to_string(s[i]);
  }
  return out.empty() ? "1" : out;
}

int64_t Attributes::get_int(const std::string &key, int64_t fallback) const {
  auto it = values_.find(key);
  if (it == values_.end())
    return fallback;
  if (auto *i = std::get_if<int64_t>(&it->second))
    return *i;
  if (auto *d = std::get_if<double>(&it->second)) {
    // A float is taken only when it is a whole number inside int64's range: converting NaN,
    // infinity or anything at or beyond 2^63 is undefined, and 3.7 silently becoming 3 is a
    // wrong answer. (-2^63 and 2^63 are exact doubles, so the comparison is exact.)
    if (std::isfinite(*d) && *d == std::trunc(*d) && *d >= -0x1p63 && *d < 0x1p63)
      return static_cast<int64_t>(*d);
    throw InputError("attribute '" + key + "' must be an integer, not " + number_str(*d));
  }
  if (auto *v = std::get_if<std::vector<int64_t>>(&it->second); v && v->size() == 1)
    return (*v)[0];
  throw InputError("attribute '" + key + "' must be an integer");
}

double Attributes::get_float(const std::string &key, double fallback) const {
  auto it = values_.find(key);
  if (it == values_.end())
    return fallback;
  if (auto *d = std::get_if<double>(&it->second))
    return *d;
  if (auto *i = std::get_if<int64_t>(&it->second))
    return static_cast<double>(*i);
  throw InputError("attribute '" + key + "' must be a number");
}

std::string Attributes::get_string(const std::string &key, const std::string &fallback) const {
  auto it = values_.find(key);
  if (it == values_.end())
    return fallback;
  if (auto *s = std::get_if<std::string>(&it->second))
    return *s;
  if (auto *i = std::get_if<int64_t>(&it->second))
    return std::to_string(*i);
  throw InputError("attribute '" + key + "' must be a string");
}

std::vector<int64_t> Attributes::get_ints(const std::string &key, std::vector<int64_t> fallback,
                                          size_t n) const {
  auto it = values_.find(key);
  if (it == values_.end())
    return fallback;
  if (auto *v = std::get_if<std::vector<int64_t>>(&it->second)) {
    if (n && v->size() == 1)
      return std::vector<int64_t>(n, (*v)[0]);
    return *v;
  }
  if (auto *i = std::get_if<int64_t>(&it->second))
    return std::vector<int64_t>(n ? n : 1, *i);
  throw InputError("attribute '" + key + "' must be an integer or a list of integers");
}

const TensorDesc &Graph::tensor(const std::string &name) const {
  auto it = tensors.find(name);
  if (it == tensors.end())
    throw InputError(loc, "unknown tensor '" + name + "'");
  return it->second;
}

int64_t Graph::param_count() const {
  int64_t n = 0;
  for (const auto &l : layers)
    for (const auto &p : l.params)
      if (!p.buffer)
        n += numel(p.shape);
  return n;
}

DeclaredShape declared(const Shape &s) {
  DeclaredShape d;
  for (int64_t v : s)
    d.push_back(DeclaredDim{v, 0});
  return d;
}

void set_batch(Graph &g, int64_t batch) {
  for (auto &in : g.inputs)
    if (!in.shape.empty())
      in.shape[0] = batch;
  for (auto &l : g.layers)
    if (l.op != OpKind::generic)
      l.output_shapes.clear();
}

namespace {

// Kahn's algorithm over tensor producers; keeps the written order where it is already valid.
// The layers are moved out of g.layers into the returned order (the caller assigns it back).
std::vector<Layer> topological_order(Graph &g) {
  std::unordered_map<std::string_view, size_t> producer;
  std::unordered_set<std::string_view> names;
  producer.reserve(g.layers.size());
  for (const auto *list : {&g.inputs, &g.constants})
    for (const auto &in : *list)
      if (!names.insert(in.name).second)
        throw InputError(g.loc, "duplicate input or constant '" + in.name + "'");
  for (size_t i = 0; i < g.layers.size(); ++i) {
    auto &l = g.layers[i];
    if (l.name.empty())
      throw InputError(l.loc, "layer without a name");
    // (the views below point into g's strings, which stay in place until the layers are
    // moved out at the end)
    if (l.outputs.empty())
      l.outputs.push_back(l.name);
    for (const auto &o : l.outputs) {
      if (producer.count(o) || names.count(o))
        throw InputError(l.loc, "layer '" + l.name + "': tensor '" + o +
                                    "' is already produced by another layer or is an input");
      producer.emplace(o, i);
    }
  }
  std::unordered_set<std::string_view> layer_names;
  layer_names.reserve(g.layers.size());
  for (const auto &l : g.layers)
    if (!layer_names.insert(l.name).second)
      throw InputError(l.loc, "duplicate layer name '" + l.name + "'");

  std::vector<int> pending(g.layers.size(), 0);
  std::vector<std::vector<size_t>> consumers(g.layers.size());
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const auto &l = g.layers[i];
    for (const auto &in : l.inputs) {
      if (names.count(in))
        continue;
      auto it = producer.find(in);
      if (it == producer.end())
        throw InputError(l.loc,
                         "layer '" + l.name + "': input '" + in +
                             "' is not a graph input, a constant or the output of any layer");
      pending[i]++;
      consumers[it->second].push_back(i);
    }
  }
  // Repeatedly take the first ready layer in written order: stable, O(n^2) worst case only
  // for badly ordered files; a ready queue keeps the common case linear.
  std::vector<size_t> sequence;
  sequence.reserve(g.layers.size());
  std::vector<bool> done(g.layers.size(), false);
  std::set<size_t> ready_set;
  for (size_t i = 0; i < g.layers.size(); ++i)
    if (pending[i] == 0)
      ready_set.insert(ready_set.end(), i);
  while (!ready_set.empty()) {
    size_t i = *ready_set.begin();
    ready_set.erase(ready_set.begin());
    done[i] = true;
    sequence.push_back(i);
    for (size_t c : consumers[i])
      if (--pending[c] == 0)
        ready_set.insert(c);
  }
  if (sequence.size() != g.layers.size()) {
    for (size_t i = 0; i < g.layers.size(); ++i)
      if (!done[i])
        throw InputError(g.layers[i].loc,
                         "layer '" + g.layers[i].name + "' is part of a cycle in the graph");
  }
  std::vector<Layer> order;
  order.reserve(g.layers.size());
  for (size_t i : sequence)
    order.push_back(std::move(g.layers[i]));
  return order;
}

} // namespace

void infer_shapes(Graph &g) {
  g.tensors.clear();
  g.tensors.reserve(g.inputs.size() + g.constants.size() + g.layers.size());
  for (const auto &in : g.inputs) {
    for (int64_t d : in.shape)
      if (d <= 0)
        throw InputError(g.loc, "input '" + in.name + "' has a non-positive dimension (" +
                                    shape_str(in.shape, 'x') + ")");
    check_size(in.shape, g.loc, "input '" + in.name + "'");
    g.tensors[in.name] = in;
  }
  for (const auto &c : g.constants) {
    check_size(c.shape, g.loc, "constant '" + c.name + "'");
    g.tensors[c.name] = c;
  }
  g.layers = topological_order(g);
  for (auto &l : g.layers) {
    try {
      apply_shape_rule(g, l);
      for (const auto &o : l.outputs) {
        const Shape &os = g.tensors.at(o).shape;
        check_size(os, SourceLoc{}, "output '" + o + "'");
        // An empty tensor (a 0 dimension: a Slice past the end) has no work to model, and
        // every rate and share downstream would divide by it.
        if (std::find(os.begin(), os.end(), int64_t{0}) != os.end())
          throw InputError(SourceLoc{}, "output '" + o + "' is empty (" + shape_str(os, 'x') +
                                            "): a layer's outputs need at least one element");
      }
      for (const auto &p : l.params)
        check_size(p.shape, SourceLoc{}, "parameter '" + p.name + "'");
    } catch (const InputError &e) {
      if (!e.loc().file.empty() || e.loc().line)
        throw;
      // A layer built in code (the LLM graph builder) has no location of its own: the graph's
      // file (its config.json) stands for it.
      throw InputError(l.loc.file.empty() ? g.loc : l.loc,
                       "layer '" + l.name + "' (" + l.op_name + "): " + e.message());
    }
  }
}

} // namespace perfmodel
