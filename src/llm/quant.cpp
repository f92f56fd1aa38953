// Weight storage formats of the decoder blocks (docs/llm.md, "Weight data types").
#include "perfmodel/llm/quant.hpp"

#include <cmath>

namespace perfmodel::llm {

std::string_view to_string(WeightType t) {
  switch (t) {
  case WeightType::fp32:
    return "fp32";
  case WeightType::fp16:
    return "fp16";
  case WeightType::bf16:
    return "bf16";
  case WeightType::fp8:
    return "fp8";
  case WeightType::int8:
    return "int8";
  case WeightType::int4:
    return "int4";
  }
  return "?";
}

std::optional<WeightType> parse_weight_type(std::string_view s) {
  if (s == "int4")
    return WeightType::int4;
  const auto d = parse_dtype(s);
  if (!d)
    return std::nullopt;
  switch (*d) {
  case DType::fp32:
    return WeightType::fp32;
  case DType::fp16:
    return WeightType::fp16;
  case DType::bf16:
    return WeightType::bf16;
  case DType::fp8:
    return WeightType::fp8;
  case DType::int8:
    return WeightType::int8;
  default:
    return std::nullopt;
  }
}

int bits_of(WeightType t) {
  switch (t) {
  case WeightType::fp32:
    return 32;
  case WeightType::fp16:
  case WeightType::bf16:
    return 16;
  case WeightType::fp8:
  case WeightType::int8:
    return 8;
  case WeightType::int4:
    return 4;
  }
  return 16;
}

bool has_group_scales(WeightType t) { return t == WeightType::int8 || t == WeightType::int4; }

int64_t matrix_bytes(const WeightFormat &f, int64_t count, int64_t rows, int64_t in) {
  const int64_t bits = int64_t(bits_of(f.type));
  int64_t b = count * ((rows * in * bits + 7) / 8);
  if (has_group_scales(f.type))
    b += count * rows * ((in + f.group_size - 1) / f.group_size) * 2; // fp16 scales
  else if (f.type == WeightType::fp8)
    b += count * 4; // one fp32 scale per matrix
  return b;
}

bool quantized_layer(const Layer &l) {
  if (l.op != OpKind::linear || l.name.rfind("layers.", 0) != 0)
    return false;
  const std::string_view n = l.name;
  return !(n.size() >= 6 && n.substr(n.size() - 6) == "router");
}

namespace {

// The weight (not the bias) of a quantized linear: {count, rows, in} of its [.., rows, in]
// tensor (experts: [E, rows, in]), and its index in the layer's params (-1: none).
struct Matrix {
  int64_t count = 0, rows = 0, in = 0;
  int index = -1;
};

Matrix weight_matrix(const Layer &l) {
  Matrix m;
  for (size_t i = 0; i < l.params.size(); ++i) {
    const TensorDesc &p = l.params[i];
    const std::string &n = p.name;
    if (p.buffer || (n.size() >= 5 && n.compare(n.size() - 5, 5, ".bias") == 0) ||
        p.shape.size() < 2)
      continue;
    m.in = p.shape.back();
    m.rows = p.shape[p.shape.size() - 2];
    m.count = numel(p.shape) / (m.rows * m.in);
    m.index = int(i);
    break;
  }
  return m;
}

} // namespace

int64_t layer_weight_bytes(const Layer &l, DType dtype, const WeightFormat &f) {
  int64_t b = 0;
  const Matrix m = quantized_layer(l) ? weight_matrix(l) : Matrix{};
  for (size_t i = 0; i < l.params.size(); ++i) {
    const TensorDesc &p = l.params[i];
    if (p.buffer)
      continue;
    b += int(i) == m.index ? matrix_bytes(f, m.count, m.rows, m.in)
                           : numel(p.shape) * bytes_of(dtype);
  }
  return b;
}

int64_t weight_bytes(const Graph &g, DType dtype, const WeightFormat &f) {
  int64_t b = 0;
  for (const auto &l : g.layers)
    b += layer_weight_bytes(l, dtype, f);
  return b;
}

void apply_weight_format(const Graph &g, DType dtype, const WeightFormat &f,
                         std::vector<LayerCost> &costs) {
  for (size_t i = 0; i < g.layers.size() && i < costs.size(); ++i) {
    const Layer &l = g.layers[i];
    if (!quantized_layer(l))
      continue;
    const Matrix m = weight_matrix(l);
    if (m.index < 0)
      continue;
    const int64_t stored = m.count * m.rows * m.in * bytes_of(dtype);
    const int64_t q = matrix_bytes(f, m.count, m.rows, m.in);
    PassCost &fw = costs[i].fwd;
    fw.bytes_weights =
        fw.bytes_weights == stored
            ? q
            : int64_t(std::llround(double(fw.bytes_weights) * double(q) / double(stored)));
    costs[i].total = fw;
  }
}

} // namespace perfmodel::llm
