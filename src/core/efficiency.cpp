// The calibrated efficiency model: op classes, kernel features of a layer, and the layer time.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "perfmodel/calibration.hpp"
#include "perfmodel/epilogue.hpp"
#include "perfmodel/limits.hpp"
#include "perfmodel/pool_window.hpp"

namespace perfmodel {

namespace {

struct ClassName {
  OpClass c;
  std::string_view name;
};
constexpr ClassName kClassNames[] = {
    {OpClass::gemm, "gemm"},
    {OpClass::gemv, "gemv"},
    {OpClass::conv, "conv"},
    {OpClass::pointwise, "pointwise"},
    {OpClass::depthwise, "depthwise"},
    {OpClass::depthwise_strided, "depthwise_strided"},
    {OpClass::elementwise, "elementwise"},
    {OpClass::norm, "norm"},
    {OpClass::pool, "pool"},
    {OpClass::reduce, "reduce"},
    {OpClass::data_movement, "data_movement"},
};

bool finite_positive(double v) { return std::isfinite(v) && v > 0; }

// A LayerCost holding one kernel call's counts, for the roofline fallback.
LayerCost cost_of(const KernelFeatures &f) {
  LayerCost c;
  c.fwd.flops = int64_t(f.flops);
  c.fwd.bytes_input = int64_t(f.bytes);
  c.total = c.fwd;
  c.gemm = f.gemm;
  c.gemm_like = is_gemm_class(f.op_class);
  return c;
}

void add_timing(LayerTiming &sum, const LayerTiming &t) {
  sum.compute_seconds += t.compute_seconds;
  sum.memory_seconds += t.memory_seconds;
  sum.overhead_seconds += t.overhead_seconds;
  sum.seconds += t.seconds;
  sum.unit = t.unit;
}

Bound largest_term(double compute, double memory, double overhead) {
  if (compute <= 0 && memory <= 0 && overhead <= 0)
    return Bound::none;
  if (compute >= memory && compute >= overhead)
    return Bound::compute;
  if (memory >= overhead)
    return Bound::memory;
  return Bound::overhead;
}

} // namespace

std::string_view to_string(OpClass c) {
  for (const auto &n : kClassNames)
    if (n.c == c)
      return n.name;
  return "?";
}

std::optional<OpClass> parse_op_class(std::string_view s) {
  for (const auto &n : kClassNames)
    if (n.name == s)
      return n.c;
  return std::nullopt;
}

const std::vector<OpClass> &all_op_classes() {
  static const std::vector<OpClass> all = [] {
    std::vector<OpClass> v;
    for (const auto &n : kClassNames)
      v.push_back(n.c);
    return v;
  }();
  return all;
}

bool is_gemm_class(OpClass c) {
  return c == OpClass::gemm || c == OpClass::gemv || c == OpClass::conv ||
         c == OpClass::pointwise || c == OpClass::depthwise || c == OpClass::depthwise_strided;
}

OpClass fallback_class(OpClass c) {
  if (c == OpClass::depthwise_strided)
    return OpClass::depthwise;
  if (c == OpClass::reduce) // calibrations before the split fitted both in `pool`
    return OpClass::pool;
  return c;
}

std::string_view to_string(KernelPart p) {
  switch (p) {
  case KernelPart::fwd:
    return "fwd";
  case KernelPart::bwd_data:
    return "bwd_data";
  case KernelPart::bwd_weight:
    return "bwd_weight";
  }
  return "?";
}

std::optional<KernelPart> parse_kernel_part(std::string_view s) {
  std::string l(s);
  for (char &c : l)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  if (l == "fwd")
    return KernelPart::fwd;
  if (l == "bwd_data")
    return KernelPart::bwd_data;
  if (l == "bwd_weight" || l == "bwd_filter")
    return KernelPart::bwd_weight;
  return std::nullopt;
}

namespace {

// The shape of the layer's first input, or null when it has none (or an unknown tensor).
const Shape *first_input_shape(const Graph &g, const Layer &layer) {
  if (layer.inputs.empty() || !g.tensors.count(layer.inputs[0]))
    return nullptr;
  return &g.tensor(layer.inputs[0]).shape;
}

// The layer's window over one plane (perfmodel/pool_window.hpp), or none when its shapes are
// not those of a 2-D pool over NCHW tensors.
std::optional<PoolWindow> layer_pool_window(const Graph &g, const Layer &layer) {
  if (layer.inputs.empty() || layer.outputs.empty() || !g.tensors.count(layer.inputs[0]) ||
      !g.tensors.count(layer.outputs[0]))
    return std::nullopt;
  const Shape &in = g.tensor(layer.inputs[0]).shape, &out = g.tensor(layer.outputs[0]).shape;
  if (in.size() != 4 || out.size() != 4)
    return std::nullopt;
  return pool_window(in, out, layer.attrs); // valid attributes: shape inference parsed them
}

} // namespace

OpClass op_class_of(const Graph &g, const Layer &layer) {
  switch (layer.op) {
  case OpKind::linear:
  case OpKind::matmul:
    return OpClass::gemm;
  case OpKind::conv2d: {
    const int64_t groups = layer.attrs.get_int("groups", 1);
    int64_t in_channels = 0;
    if (const Shape *s = first_input_shape(g, layer); s && s->size() >= 2)
      in_channels = (*s)[1];
    if (groups <= 1 || groups != in_channels)
      return OpClass::conv;
    for (int64_t s : layer.attrs.get_ints("stride", {1, 1}, 2))
      if (s > 1)
        return OpClass::depthwise_strided;
    return OpClass::depthwise;
  }
  case OpKind::conv_transpose2d:
    return OpClass::conv;
  case OpKind::activation:
  case OpKind::elementwise:
  case OpKind::dropout:
    return OpClass::elementwise;
  case OpKind::batch_norm:
  case OpKind::layer_norm:
  case OpKind::softmax:
    return OpClass::norm;
  case OpKind::max_pool:
  case OpKind::avg_pool: {
    // The CPU executor's special cases (kernels/cpu/pool.cpp): a copy, or a global pool.
    const std::optional<PoolWindow> w = layer_pool_window(g, layer);
    if (w && pool_is_identity(*w))
      return OpClass::data_movement;
    if (w && pool_covers_plane(*w))
      return OpClass::reduce;
    return OpClass::pool;
  }
  case OpKind::global_avg_pool:
  case OpKind::global_max_pool:
  case OpKind::reduce:
    return OpClass::reduce;
  default:
    return OpClass::data_movement;
  }
}

namespace {

// A depthwise convolution runs as a direct kernel, not a GEMM: each output row (ow values, the
// vectorized loop) is the sum of k shifted input rows times one weight each. Its efficiency
// depends on the row length, so the model sees the same MACs as m = ow, n = rows per group
// (batch x oh x channel multiplier), k = taps per output: the Hockney size and the tile
// quantization of m then act on the row (ow = 7 fills half of a 16-lane AVX-512 vector).
GemmShape depthwise_rows(const Graph &g, const Layer &layer, const GemmShape &s) {
  if (layer.outputs.empty() || !g.tensors.count(layer.outputs[0]))
    return s;
  const Shape &out = g.tensor(layer.outputs[0]).shape;
  if (out.size() != 4 || out[3] <= 0 || s.m % out[3] != 0)
    return s;
  return GemmShape{out[3], (s.m / out[3]) * s.n, s.k, s.groups};
}

// The geometry of a conv2d layer over NCHW tensors; none when its shapes are not 4-D.
std::optional<ConvGeometry> conv_geometry(const Graph &g, const Layer &layer) {
  const Shape *in = first_input_shape(g, layer);
  if (!in || in->size() != 4 || layer.outputs.empty() || !g.tensors.count(layer.outputs[0]))
    return std::nullopt;
  const Shape &out = g.tensor(layer.outputs[0]).shape;
  if (out.size() != 4)
    return std::nullopt;
  const auto kernel = layer.attrs.get_ints("kernel", {1, 1}, 2);
  const auto stride = layer.attrs.get_ints("stride", {1, 1}, 2);
  const auto dilation = layer.attrs.get_ints("dilation", {1, 1}, 2);
  ConvGeometry c;
  c.batch = (*in)[0];
  c.in_channels = (*in)[1];
  c.in_h = (*in)[2];
  c.in_w = (*in)[3];
  c.out_channels = out[1];
  c.out_h = out[2];
  c.out_w = out[3];
  c.kernel_h = kernel[0];
  c.kernel_w = kernel[1];
  c.stride_h = stride[0];
  c.stride_w = stride[1];
  c.dilation_h = dilation[0];
  c.dilation_w = dilation[1];
  c.groups = layer.attrs.get_int("groups", 1);
  return c;
}

// The independent work items of a streaming layer's pass (KernelFeatures::parallel_units):
// what a GPU spreads over its SMs. 0 for other classes or unknown shapes.
double parallel_units_of(const Graph &g, const Layer &layer, OpClass c, KernelPart pass) {
  const Shape *in = first_input_shape(g, layer);
  const Shape *out = !layer.outputs.empty() && g.tensors.count(layer.outputs[0])
                         ? &g.tensor(layer.outputs[0]).shape
                         : nullptr;
  switch (c) {
  case OpClass::elementwise:
  case OpClass::reduce:
    return out ? double(numel(*out)) : 0.0;
  case OpClass::pool: // the backward pass writes the input's gradient
    return pass == KernelPart::fwd ? (out ? double(numel(*out)) : 0.0)
                                   : (in ? double(numel(*in)) : 0.0);
  case OpClass::norm:
    if (!in || in->empty())
      return 0;
    if (layer.op == OpKind::batch_norm) // statistics per channel
      return in->size() >= 2 ? double((*in)[1]) : 0.0;
    return in->back() > 0 ? double(numel(*in) / in->back()) : 0.0; // rows of the last axis
  default:
    return 0;
  }
}

} // namespace

KernelFeatures layer_features(const Graph &g, const Layer &layer, const LayerCost &cost,
                              KernelPart pass, double reuse_bytes, double cross_core_bytes,
                              bool weights_cached) {
  KernelFeatures f;
  f.pass = pass;
  f.reuse_bytes = pass == KernelPart::fwd ? reuse_bytes : 0;
  f.cross_core_bytes = pass == KernelPart::fwd ? cross_core_bytes : 0;
  f.op_class = op_class_of(g, layer);
  f.dtype = layer.dtype;
  f.layout = g.layout;
  const Shape *in = first_input_shape(g, layer);
  if (f.op_class == OpClass::pool && in && in->size() == 4)
    f.plane_elements = double((*in)[2] * (*in)[3]);
  const PassCost &part = pass == KernelPart::fwd        ? cost.fwd
                         : pass == KernelPart::bwd_data ? cost.bwd_data
                                                        : cost.bwd_weight;
  f.flops = double(part.flops);
  f.bytes = double(part.bytes());
  if (cost.gemm) {
    GemmShape s = *cost.gemm;
    if (f.op_class == OpClass::depthwise || f.op_class == OpClass::depthwise_strided)
      s = depthwise_rows(g, layer, s);
    // dX = dY W^T: (m x n)(n x k); dW = X^T dY: (k x m)(m x n).
    if (pass == KernelPart::bwd_data)
      s = GemmShape{s.m, s.k, s.n, s.groups};
    if (pass == KernelPart::bwd_weight)
      s = GemmShape{s.k, s.n, s.m, s.groups};
    f.gemm = s;
    // A matrix-vector product runs another code path (no packing, one pass over the matrix).
    if (f.op_class == OpClass::gemm && (s.m == 1 || s.n == 1))
      f.op_class = OpClass::gemv;
  }
  // A convolution is lowered to a GEMM through an im2col matrix unless it is a plain 1x1
  // (the matrix is then the input itself) or depthwise (done directly).
  if ((layer.op == OpKind::conv2d || layer.op == OpKind::conv_transpose2d) && cost.gemm &&
      f.op_class == OpClass::conv) {
    const auto kernel = layer.attrs.get_ints("kernel", {1, 1}, 2);
    const auto stride = layer.attrs.get_ints("stride", {1, 1}, 2);
    const auto pad = layer.attrs.get_ints("pad", {0, 0}, 2);
    bool plain_1x1 = true;
    for (int64_t v : kernel)
      plain_1x1 = plain_1x1 && v == 1;
    for (int64_t v : stride)
      plain_1x1 = plain_1x1 && v == 1;
    for (int64_t v : pad)
      plain_1x1 = plain_1x1 && v == 0;
    if (!plain_1x1) {
      const GemmShape &s = *cost.gemm;
      f.lowered_bytes =
          double(s.m) * double(s.k) * double(s.groups) * double(bytes_of(layer.dtype));
      // im2col copies a stride-1 row with one memcpy, a strided one element by element
      // (kernels/cpu/conv.cpp): the gather is its own term. The forward pass only: the backward
      // passes' col2im and their transposed products run other loops.
      if (layer.op == OpKind::conv2d && pass == KernelPart::fwd && stride.size() == 2 &&
          stride[1] > 1)
        f.strided_lowered_bytes = f.lowered_bytes;
    } else if (layer.op == OpKind::conv2d) {
      f.op_class = OpClass::pointwise; // another code path: the GEMM reads the input as is
    }
    if (pass == KernelPart::fwd && in && !in->empty() && (*in)[0] > 1)
      f.images = double((*in)[0]);
  }
  if (layer.op == OpKind::conv2d)
    f.conv = conv_geometry(g, layer);
  f.parallel_units = parallel_units_of(g, layer, f.op_class, pass);
  if (layer.op == OpKind::batch_norm && in && in->size() >= 2 && (*in)[1] > 0)
    f.channel_elements = double(numel(*in) / (*in)[1]);
  if (pass == KernelPart::fwd) {
    f.epilogue_sweeps = double(epilogue_sweeps(layer));
    if ((f.op_class == OpClass::conv || f.op_class == OpClass::pointwise) && !weights_cached)
      f.weight_bytes = double(cost.fwd.bytes_weights);
  }
  return f;
}

const ClassCalibration *Calibration::find(OpClass c, DType dtype) const {
  for (const auto &cc : classes)
    if (cc.op_class == c && cc.dtype == dtype)
      return &cc;
  return nullptr;
}

double outermost_cache_bytes(const std::vector<MemoryLevelCapacity> &levels) {
  return levels.size() < 2 ? std::numeric_limits<double>::infinity()
                           : levels[levels.size() - 2].capacity_bytes;
}

double Calibration::cache_bytes() const { return outermost_cache_bytes(memory_levels); }

bool Calibration::has_term(std::string_view key) const {
  const size_t j = execution_target().term_index(key);
  if (j == std::string_view::npos)
    return false;
  for (const auto &cc : classes)
    if (cc.params.term_rate(j) > 0)
      return true;
  return false;
}

double Calibration::term_rate(const EfficiencyParams &p, std::string_view key) const {
  const size_t j = execution_target().term_index(key);
  return j == std::string_view::npos ? 0.0 : p.term_rate(j);
}

const ClassCalibration *Calibration::find_or_fallback(OpClass c, DType dtype) const {
  if (const ClassCalibration *cc = find(c, dtype))
    return cc;
  return find(fallback_class(c), dtype);
}

const ClassCalibration *Calibration::find_for_pass(OpClass c, DType dtype, KernelPart pass) const {
  for (OpClass k : {c, fallback_class(c)}) {
    const ClassCalibration *any = nullptr, *fwd = nullptr;
    for (const auto &cc : classes) {
      if (cc.op_class != k || cc.dtype != dtype)
        continue;
      if (cc.pass == pass)
        return &cc;
      if (!cc.pass && !any)
        any = &cc;
      if (cc.pass == KernelPart::fwd && !fwd)
        fwd = &cc;
    }
    if (any || fwd)
      return any ? any : fwd;
  }
  return nullptr;
}

bool is_valid(const Calibration &cal, std::string *error) {
  auto fail = [&](const std::string &msg) {
    if (error)
      *error = msg;
    return false;
  };
  if (cal.version != 1)
    return fail("unsupported calibration version " + std::to_string(cal.version));
  if (cal.cores < 1)
    return fail("cores must be at least 1");
  if (cal.memory_levels.empty())
    return fail("at least one memory level is needed");
  // Rates are held to the range of perfmodel/limits.hpp: a positive denormal passes "> 0" but
  // turns every time derived from it into infinity.
  const std::string rates = range_str(kMinRate, kMaxRate);
  if (cal.host_state && !(sane_rate(cal.host_state->fp32_flops_per_second) &&
                          sane_rate(cal.host_state->dram_bytes_per_second) &&
                          (cal.host_state->cross_core_bytes_per_second == 0 ||
                           sane_rate(cal.host_state->cross_core_bytes_per_second))))
    return fail("host_state needs fp32_flops_per_second and dram_bytes_per_second " + rates +
                " (cross_core_bytes_per_second: the same, or 0 for none)");
  if (cal.pass_excess &&
      !(std::isfinite(cal.pass_excess->per_layer_seconds) &&
        cal.pass_excess->per_layer_seconds >= 0 && std::isfinite(cal.pass_excess->fraction) &&
        cal.pass_excess->fraction >= 0 && cal.pass_excess->networks >= 0))
    return fail("pass_excess needs per_layer_seconds and fraction finite and >= 0");
  for (size_t i = 0; i + 1 < cal.memory_levels.size(); ++i)
    if (!finite_positive(cal.memory_levels[i].capacity_bytes))
      return fail("memory level '" + cal.memory_levels[i].name + "' needs a positive capacity");
  for (const auto &cc : cal.classes) {
    const std::string what =
        std::string(to_string(cc.op_class)) + "/" + std::string(to_string(cc.dtype)) + ": ";
    const EfficiencyParams &p = cc.params;
    if (!sane_rate(p.peak_flops_per_second))
      return fail(what + "peak must be " + rates + " FLOP/s");
    if (p.bytes_per_second.size() != cal.memory_levels.size())
      return fail(what + "needs one bandwidth per memory level (" +
                  std::to_string(cal.memory_levels.size()) + ")");
    for (double bw : p.bytes_per_second)
      if (!sane_rate(bw))
        return fail(what + "bandwidths must be " + rates + " B/s");
    for (double v : {p.m_half, p.n_half, p.k_half, p.lowering_factor, p.overhead_seconds})
      if (!std::isfinite(v) || v < 0)
        return fail(what + "sizes, lowering and overhead must be >= 0");
    if (p.overhead_seconds > kMaxOverheadSeconds)
      return fail(what + "overhead must be " + range_str(0, kMaxOverheadSeconds) + " s");
    const std::vector<TargetTerm> &terms = cal.execution_target().terms();
    if (p.term_rates.size() > terms.size())
      return fail(what + "has " + std::to_string(p.term_rates.size()) + " term rates, target '" +
                  std::string(cal.execution_target().name()) + "' has " +
                  std::to_string(terms.size()) + " terms");
    for (size_t j = 0; j < p.term_rates.size(); ++j)
      if (p.term_rates[j] != 0 && !sane_rate(p.term_rates[j]))
        return fail(what + terms[j].key + " must be 0 (none) or " + rates);
    if (!(p.tile_m >= 1) || !(p.tile_n >= 1))
      return fail(what + "tiles must be at least 1");
    if (!(p.overlap >= 0 && p.overlap <= 1))
      return fail(what + "overlap must be in [0, 1]");
  }
  return true;
}

size_t memory_level_for(const Calibration &cal, double working_set_bytes) {
  for (size_t i = 0; i + 1 < cal.memory_levels.size(); ++i)
    if (working_set_bytes <= cal.memory_levels[i].capacity_bytes)
      return i;
  return cal.memory_levels.empty() ? 0 : cal.memory_levels.size() - 1;
}

KernelFeatures one_call(const Calibration &cal, const KernelFeatures &f, double *calls) {
  return cal.execution_target().one_call(cal, f, calls);
}

EfficiencyTerms efficiency_terms(const Calibration &cal, double tile_m, double tile_n,
                                 const KernelFeatures &f, const EfficiencyParams *p) {
  const ExecutionTarget &target = cal.execution_target();
  EfficiencyTerms e;
  e.quantized_flops = f.flops;
  e.level = memory_level_for(cal, std::max(f.bytes + f.lowered_bytes, f.reuse_bytes));
  e.plane = target.plane_of(cal, f);
  const bool gemm_like =
      f.gemm && is_gemm_class(f.op_class) && f.gemm->m > 0 && f.gemm->n > 0 && f.gemm->k > 0;
  if (gemm_like && target.tile_call(cal, f, p, &e)) {
    // the target chose the call's tiles
  } else if (gemm_like) {
    const GemmShape &s = *f.gemm;
    e.m = double(s.m);
    e.n = double(s.n);
    e.k = double(s.k);
    const double tiles = std::ceil(e.m / tile_m) * std::ceil(e.n / tile_n) * double(s.groups);
    const double cores = double(std::max(1, cal.cores));
    const double waves = std::ceil(tiles / cores);
    // The work the tiles cost (as the target pays a partial tile), with the idle cores of the
    // last wave, relative to the useful work, applied to the counted FLOPs (so that an exactly
    // tiled, balanced call keeps its boda FLOPs).
    const double useful = e.m * e.n;
    const double tiled = target.tiled_extent(f.op_class, e.m, tile_m) *
                         target.tiled_extent(f.op_class, e.n, tile_n) * waves * cores / tiles;
    e.quantized_flops = f.flops * std::max(1.0, tiled / useful);
  }
  const std::vector<TargetTerm> &terms = target.terms();
  e.term_bytes.assign(terms.size(), 0.0);
  for (const TargetTerm &t : terms)
    e.term_joins.push_back(t.join);
  if (!terms.empty())
    target.term_bytes(cal, f, e, e.term_bytes.data());
  e.term_unfitted_rates.assign(terms.size(), 0.0);
  for (size_t j = 0; j < terms.size(); ++j)
    if (e.term_bytes[j] > 0)
      e.term_unfitted_rates[j] = target.unfitted_term_rate(cal, f, j);
  return e;
}

namespace {

// p's rate of each of the terms e carries; where p has none, the call's unfitted rate (absent
// ones 0).
std::vector<double> term_rate_vector(const EfficiencyTerms &e, const EfficiencyParams &p) {
  std::vector<double> rates(e.term_bytes.size(), 0.0);
  for (size_t j = 0; j < rates.size(); ++j) {
    rates[j] = p.term_rate(j);
    if (rates[j] <= 0 && j < e.term_unfitted_rates.size())
      rates[j] = e.term_unfitted_rates[j];
  }
  return rates;
}

} // namespace

double efficiency_seconds(const EfficiencyTerms &e, const KernelFeatures &f,
                          const EfficiencyParams &p, double overhead) {
  const std::vector<double> rates = term_rate_vector(e, p);
  const ModelRates<double> r{
      p.peak_flops_per_second,        p.m_half,          p.n_half,  p.k_half,
      p.bytes_per_second.at(e.level), p.lowering_factor, p.overlap, overhead};
  return efficiency_seconds<double>(e, f, r, rates.data());
}

LayerTiming calibrated_time(const Calibration &cal, const HwSpec &hw, const KernelFeatures &all) {
  const ClassCalibration *cc = cal.find_for_pass(all.op_class, all.dtype, all.pass);
  if (!cc || cc->params.bytes_per_second.size() != cal.memory_levels.size())
    return roofline_time(hw, cost_of(all), all.dtype);
  double calls = 1;
  const KernelFeatures f = one_call(cal, all, &calls); // the terms below are one call's
  LayerTiming t;
  if (auto unit = hw.best_unit(f.dtype, is_gemm_class(f.op_class)))
    t.unit = *unit;
  t.unit.dtype = f.dtype;
  if (f.flops <= 0 && f.bytes <= 0)
    return t; // views: no work, no call
  const EfficiencyParams &p = cc->params;
  t.unit.flops_per_second = p.peak_flops_per_second;
  const EfficiencyTerms e = efficiency_terms(cal, p.tile_m, p.tile_n, f, &p);
  const double bw = p.bytes_per_second[e.level];
  const double work = efficiency_seconds(e, f, p, 0.0); // compute + memory, before the overhead
  const double hockney = hockney_of(e, p.m_half, p.n_half, p.k_half);
  const double plane = plane_factor_of(e, p.m_half);
  t.compute_seconds = e.quantized_flops / (p.peak_flops_per_second * hockney) / plane;
  const std::vector<double> rates = term_rate_vector(e, p);
  t.memory_seconds = memory_seconds(e, f, bw, p.lowering_factor, rates.data()) / plane +
                     term_seconds(e, rates.data(), TermJoin::serial);
  t.overhead_seconds = p.overhead_seconds;
  t.seconds = work + p.overhead_seconds;
  for (double *x : {&t.compute_seconds, &t.memory_seconds, &t.overhead_seconds, &t.seconds})
    *x *= calls;
  t.bound = largest_term(t.compute_seconds, t.memory_seconds, t.overhead_seconds);
  t.attainable_flops_per_second = t.seconds > 0 ? all.flops / t.seconds : 0;
  return t;
}

LayerTiming calibrated_layer_time(const Calibration &cal, const HwSpec &hw, const Graph &g,
                                  const Layer &layer, const LayerCost &cost, Pass pass,
                                  const LayerSchedule &schedule, bool weights_cached) {
  LayerTiming sum =
      calibrated_time(cal, hw,
                      layer_features(g, layer, cost, KernelPart::fwd, schedule.reuse_bytes,
                                     schedule.cross_core_bytes, weights_cached));
  if (pass == Pass::train) {
    for (KernelPart kp : {KernelPart::bwd_data, KernelPart::bwd_weight}) {
      const KernelFeatures f = layer_features(g, layer, cost, kp);
      if (f.flops > 0 || f.bytes > 0)
        add_timing(sum, calibrated_time(cal, hw, f));
    }
    sum.bound = largest_term(sum.compute_seconds, sum.memory_seconds, sum.overhead_seconds);
  }
  const double flops = double(cost.total.flops);
  sum.attainable_flops_per_second = sum.seconds > 0 ? flops / sum.seconds : 0;
  return sum;
}

} // namespace perfmodel
