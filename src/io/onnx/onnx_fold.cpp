// Constant evaluation of small integer shape subgraphs (see onnx_fold.hpp).
#include "io/onnx/onnx_fold.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "io/onnx/onnx_context.hpp"

namespace perfmodel::io::onnx_import {

namespace {

constexpr int64_t kMaxElements = 4096;

struct Value {
  Shape dims;
  int32_t type = onnx::TensorProto::INT64;
  std::vector<double> v;
};

// Elements of `dims`, or -1 when a dim is negative or there are more than `limit`: checked, so
// the huge shapes of a hostile file cannot overflow the count.
int64_t checked_count(const Shape &dims, int64_t limit = kMaxElements) {
  for (int64_t d : dims)
    if (d < 0)
      return -1;
  int64_t n = 1;
  for (int64_t d : dims)
    if (d == 0)
      return 0;
  for (int64_t d : dims) {
    if (n > limit / d)
      return -1;
    n *= d;
  }
  return n;
}

// True when every element is an integer-exact double (finite, within +-2^53), so that the
// folder's arithmetic is exact and every conversion to int64 is defined. Values beyond are not
// folded (ONNX's own inference then decides), never converted with undefined behaviour.
bool exact(const Value &v) {
  for (double x : v.v)
    if (!std::isfinite(x) || std::fabs(x) > 9007199254740992.0)
      return false;
  return true;
}

bool is_int(int32_t t) {
  return t == onnx::TensorProto::INT64 || t == onnx::TensorProto::INT32 ||
         t == onnx::TensorProto::BOOL || t == onnx::TensorProto::INT8 ||
         t == onnx::TensorProto::UINT8;
}

std::optional<Value> from_tensor(const onnx::TensorProto &t) {
  auto v = tensor_values(t);
  if (!v)
    return std::nullopt;
  return Value{Shape(t.dims().begin(), t.dims().end()), t.data_type(), std::move(*v)};
}

// Numpy broadcasting of two small values through a binary function.
template <typename F>
std::optional<Value> broadcast(const Value &a, const Value &b, int32_t type, F f) {
  const size_t rank = std::max(a.dims.size(), b.dims.size());
  Shape out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.dims.size() ? 1 : a.dims[i - (rank - a.dims.size())];
    const int64_t db = i < rank - b.dims.size() ? 1 : b.dims[i - (rank - b.dims.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[i] = std::max(da, db);
  }
  const int64_t count = checked_count(out);
  if (count < 0)
    return std::nullopt;
  Value r{out, type, std::vector<double>(static_cast<size_t>(count))};
  for (size_t k = 0; k < r.v.size(); ++k) {
    size_t ia = 0, ib = 0, rem = k, sa = 1, sb = 1;
    for (size_t i = rank; i-- > 0;) {
      const size_t idx = rem % static_cast<size_t>(out[i]);
      rem /= static_cast<size_t>(out[i]);
      const size_t oa = i < rank - a.dims.size() ? 1 : a.dims[i - (rank - a.dims.size())];
      const size_t ob = i < rank - b.dims.size() ? 1 : b.dims[i - (rank - b.dims.size())];
      if (oa > 1)
        ia += idx * sa;
      if (ob > 1)
        ib += idx * sb;
      sa *= oa;
      sb *= ob;
    }
    r.v[k] = f(a.v[ia], b.v[ib]);
  }
  return r;
}

// Structural ops on small 1-D integer tensors (Reshape reads only Constant/initializer shapes
// in ONNX 1.12, so the Shape -> Gather -> Unsqueeze -> Concat chains must become constants).
std::optional<Value> structural(const onnx::NodeProto &n, const std::vector<Value> &in,
                                const TensorInfo *out) {
  const std::string &op = n.op_type();
  auto with_dims = [&](Value v) -> std::optional<Value> {
    if (!out || !out->known || checked_count(out->shape) != static_cast<int64_t>(v.v.size()))
      return std::nullopt;
    v.dims = out->shape;
    return v;
  };
  if (op == "Unsqueeze" || op == "Squeeze" || op == "Reshape" || op == "Flatten")
    return with_dims(in[0]);
  if (op == "Concat") {
    Value r{{0}, in[0].type, {}};
    for (const auto &v : in) {
      if (v.dims.size() > 1)
        return std::nullopt;
      r.v.insert(r.v.end(), v.v.begin(), v.v.end());
    }
    r.dims = {static_cast<int64_t>(r.v.size())};
    return r;
  }
  if (op == "Gather" && in.size() == 2 && in[0].dims.size() == 1) {
    Value r{in[1].dims, in[0].type, {}};
    const int64_t n0 = in[0].dims[0];
    for (double x : in[1].v) {
      const int64_t k =
          static_cast<int64_t>(x) < 0 ? static_cast<int64_t>(x) + n0 : static_cast<int64_t>(x);
      if (k < 0 || k >= n0)
        return std::nullopt;
      r.v.push_back(in[0].v[static_cast<size_t>(k)]);
    }
    return r;
  }
  if (op == "Slice" && in.size() >= 3 && in[0].dims.size() == 1 && in[1].v.size() == 1 &&
      in[2].v.size() == 1) {
    const int64_t len = in[0].dims[0];
    const int64_t step = in.size() >= 5 ? static_cast<int64_t>(in[4].v.at(0)) : 1;
    if (step == 0)
      return std::nullopt;
    auto clampi = [&](double v, int64_t lo, int64_t hi) {
      int64_t x = v > 9e18 ? INT64_MAX / 2 : v < -9e18 ? INT64_MIN / 2 : static_cast<int64_t>(v);
      if (x < 0)
        x += len;
      return std::clamp(x, lo, hi);
    };
    Value r{{0}, in[0].type, {}};
    if (step > 0)
      for (int64_t i = clampi(in[1].v[0], 0, len), e = clampi(in[2].v[0], 0, len); i < e; i += step)
        r.v.push_back(in[0].v[static_cast<size_t>(i)]);
    else
      for (int64_t i = clampi(in[1].v[0], 0, len - 1), e = clampi(in[2].v[0], -1, len - 1); i > e;
           i += step)
        r.v.push_back(in[0].v[static_cast<size_t>(i)]);
    r.dims = {static_cast<int64_t>(r.v.size())};
    return r;
  }
  if (op == "Range" && in.size() == 3 && in[2].v.at(0) != 0) {
    Value r{{0}, in[0].type, {}};
    for (double x = in[0].v.at(0); in[2].v[0] > 0 ? x < in[1].v.at(0) : x > in[1].v.at(0);
         x += in[2].v[0]) {
      r.v.push_back(x);
      if (static_cast<int64_t>(r.v.size()) > kMaxElements)
        return std::nullopt;
    }
    r.dims = {static_cast<int64_t>(r.v.size())};
    return r;
  }
  return std::nullopt;
}

std::optional<Value> evaluate(const onnx::NodeProto &n, const std::vector<Value> &in,
                              const TensorInfo *out) {
  const std::string &op = n.op_type();
  if (auto v = structural(n, in, out))
    return v;
  const bool integer = !in.empty() && is_int(in[0].type);
  if (op == "Identity" && in.size() == 1)
    return in[0];
  if (op == "Cast" && in.size() == 1) {
    Value r = in[0];
    r.type = static_cast<int32_t>(attr_int(n, "to", onnx::TensorProto::INT64));
    if (is_int(r.type))
      for (auto &x : r.v)
        x = std::trunc(x);
    return r;
  }
  if ((op == "Neg" || op == "Abs" || op == "Floor" || op == "Ceil") && in.size() == 1) {
    Value r = in[0];
    for (auto &x : r.v)
      x = op == "Neg"     ? -x
          : op == "Abs"   ? std::fabs(x)
          : op == "Floor" ? std::floor(x)
                          : std::ceil(x);
    return r;
  }
  if (in.size() == 2) {
    const int32_t t = in[0].type;
    if (op == "Add")
      return broadcast(in[0], in[1], t, [](double a, double b) { return a + b; });
    if (op == "Sub")
      return broadcast(in[0], in[1], t, [](double a, double b) { return a - b; });
    if (op == "Mul")
      return broadcast(in[0], in[1], t, [](double a, double b) { return a * b; });
    if (op == "Min")
      return broadcast(in[0], in[1], t, [](double a, double b) { return std::min(a, b); });
    if (op == "Max")
      return broadcast(in[0], in[1], t, [](double a, double b) { return std::max(a, b); });
    if (op == "Div")
      return broadcast(in[0], in[1], t, [integer](double a, double b) {
        return b == 0 ? 0.0 : integer ? std::trunc(a / b) : a / b;
      });
    if (op == "Equal")
      return broadcast(in[0], in[1], onnx::TensorProto::BOOL,
                       [](double a, double b) { return a == b ? 1.0 : 0.0; });
  }
  if (op == "Where" && in.size() == 3) {
    auto cx = broadcast(in[0], in[1], in[1].type, [](double c, double x) { return c ? x : NAN; });
    if (!cx)
      return std::nullopt;
    return broadcast(*cx, in[2], in[1].type,
                     [](double x, double y) { return std::isnan(x) ? y : x; });
  }
  if (op == "ConstantOfShape" && in.size() == 1) {
    Value r{Shape(in[0].v.begin(), in[0].v.end()), onnx::TensorProto::FLOAT, {}};
    double fill = 0;
    for (const auto &a : n.attribute())
      if (a.name() == "value" && a.has_t()) {
        auto v = tensor_values(a.t());
        if (v && v->size() == 1)
          fill = (*v)[0];
        r.type = a.t().data_type();
      }
    const int64_t count = checked_count(r.dims);
    if (count < 0)
      return std::nullopt;
    r.v.assign(static_cast<size_t>(count), fill);
    return r;
  }
  return std::nullopt;
}

void to_constant(onnx::NodeProto &n, const Value &v) {
  const std::string out = n.output(0), name = n.name();
  n.Clear();
  n.set_op_type("Constant");
  n.set_name(name);
  n.add_output(out);
  auto *a = n.add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  auto *t = a->mutable_t();
  for (int64_t d : v.dims)
    t->add_dims(d);
  const bool integer = is_int(v.type);
  t->set_data_type(integer ? onnx::TensorProto::INT64 : onnx::TensorProto::FLOAT);
  if (v.type == onnx::TensorProto::BOOL || v.type == onnx::TensorProto::INT32)
    t->set_data_type(v.type);
  for (double x : v.v) {
    if (t->data_type() == onnx::TensorProto::FLOAT)
      t->add_float_data(static_cast<float>(x));
    else if (t->data_type() == onnx::TensorProto::INT64)
      t->add_int64_data(static_cast<int64_t>(x));
    else
      t->add_int32_data(static_cast<int32_t>(x));
  }
}

} // namespace

int fold_shape_values(onnx::ModelProto &m, const ShapeResult &r) {
  auto *g = m.mutable_graph();
  std::unordered_map<std::string, Value> known;
  for (const auto &t : g->initializer())
    if (auto v = from_tensor(t))
      known[t.name()] = std::move(*v);
  for (const auto &[name, vals] : r.values) {
    auto it = r.tensors.find(name);
    if (it == r.tensors.end() || !it->second.known)
      continue;
    Value v{it->second.shape, it->second.elem_type, std::vector<double>(vals.begin(), vals.end())};
    if (static_cast<int64_t>(v.v.size()) == checked_count(v.dims) && exact(v))
      known.emplace(name, std::move(v));
  }
  int folded = 0;
  for (auto &n : *g->mutable_node()) {
    if (n.op_type() == "Constant") {
      for (const auto &a : n.attribute())
        if (a.name() == "value" && a.has_t())
          if (auto v = from_tensor(a.t()))
            known[n.output(0)] = std::move(*v);
      continue;
    }
    if (n.output_size() != 1 || n.input_size() == 0)
      continue;
    if (auto it = known.find(n.output(0)); it != known.end()) {
      // ONNX propagated the value but consumers such as Reshape read only Constants.
      if (checked_count(it->second.dims) < 0 || !exact(it->second))
        continue;
      to_constant(n, it->second);
      ++folded;
      continue;
    }
    if (n.op_type() == "Shape" || n.op_type() == "Size") { // needs the input's shape only
      auto it = r.tensors.find(n.input(0));
      if (it == r.tensors.end() || !it->second.known)
        continue;
      Shape s = it->second.shape;
      Value v{{static_cast<int64_t>(s.size())}, onnx::TensorProto::INT64, {}};
      const int64_t rank = static_cast<int64_t>(s.size());
      int64_t start = attr_int(n, "start", 0), end = attr_int(n, "end", rank);
      start = std::clamp(start < 0 ? start + rank : start, int64_t{0}, rank);
      end = std::clamp(end < 0 ? end + rank : end, int64_t{0}, rank);
      if (n.op_type() == "Size") {
        const int64_t count = checked_count(s, int64_t{1} << 53);
        if (count < 0)
          continue;
        v = Value{{}, onnx::TensorProto::INT64, {double(count)}};
      } else
        for (int64_t i = start; i < end; ++i)
          v.v.push_back(static_cast<double>(s[i]));
      if (n.op_type() == "Shape")
        v.dims = {static_cast<int64_t>(v.v.size())};
      known[n.output(0)] = v;
      to_constant(n, v);
      ++folded;
      continue;
    }
    std::vector<Value> in;
    bool ok = true;
    for (const auto &i : n.input()) {
      auto it = known.find(i);
      if (it == known.end() || checked_count(it->second.dims) < 0 || !exact(it->second)) {
        ok = false;
        break;
      }
      in.push_back(it->second);
    }
    if (!ok)
      continue;
    auto out = r.tensors.find(n.output(0));
    if (auto v = evaluate(n, in, out == r.tensors.end() ? nullptr : &out->second); v && exact(*v)) {
      known[n.output(0)] = *v;
      to_constant(n, *v);
      ++folded;
    }
  }
  return folded;
}

} // namespace perfmodel::io::onnx_import
