// Preparing the matrix-product and pooling layers: conv2d, conv_transpose2d, linear, matmul, pools.
#include <tuple>

#include "kernels/cpu/layer_context.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/kernels/cpu/conv.hpp"
#include "perfmodel/kernels/cpu/gemm.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/pool.hpp"

namespace perfmodel::kernels::cpu::detail {

void prep_conv(LayerContext &c, bool transposed) {
  const Shape &is = c.in(0).shape;
  const Shape &os = c.out_shape(0);
  need_rank(c, is, 4, "input");
  need_rank(c, os, 4, "output");
  ConvGeom geo;
  geo.n = is[0], geo.c = is[1], geo.h = is[2], geo.w = is[3];
  geo.oc = os[1], geo.oh = os[2], geo.ow = os[3];
  std::vector<int64_t> k = c.l.attrs.get_ints("kernel", {1, 1}, 2);
  if (!c.l.params.empty() && c.l.params[0].shape.size() == 4)
    k = {c.l.params[0].shape[2], c.l.params[0].shape[3]};
  const auto s = c.l.attrs.get_ints("stride", {1, 1}, 2);
  const auto d = c.l.attrs.get_ints("dilation", {1, 1}, 2);
  if (k.size() != 2 || s.size() != 2 || d.size() != 2)
    c.fail("kernel/stride/dilation must be 2-D");
  geo.kh = k[0], geo.kw = k[1], geo.sh = s[0], geo.sw = s[1], geo.dh = d[0], geo.dw = d[1];
  std::tie(geo.pad_top, geo.pad_left) = c.pads();
  geo.groups = c.l.attrs.get_int("groups", 1);
  if (geo.groups < 1 || geo.c % geo.groups || geo.oc % geo.groups)
    c.fail("groups must divide the input and output channels");
  if (os[0] != is[0])
    c.fail("batch of output differs from input");
  if (const auto clamp = fused_clamp(c.l.activation); clamp && !transposed) {
    std::tie(geo.clamp_lo, geo.clamp_hi) = *clamp; // fused into the kernel (conv.hpp)
    c.p.activation_fused = true;
  }
  const float *in = c.in(0).ptr();
  const float a = weight_bound((geo.c / geo.groups) * geo.kh * geo.kw);
  const float *wt = transposed ? c.own({geo.c, geo.oc / geo.groups, geo.kh, geo.kw}, -a, a).ptr()
                               : c.own({geo.oc, geo.c / geo.groups, geo.kh, geo.kw}, -a, a).ptr();
  const float *bias = c.has_bias() ? c.own({geo.oc}, -a, a).ptr() : nullptr;
  c.p.workspace_floats = conv_workspace(geo, transposed);
  const int64_t ws_size = std::max<int64_t>(c.p.workspace_floats, 1);
  // The pool's shared scratch where there is a pool (its data() is read at run time: it may
  // still grow while later layers are prepared), else a workspace of the layer's own.
  std::shared_ptr<Buffer> scratch =
      c.pool ? c.pool->scratch(size_t(ws_size)) : std::shared_ptr<Buffer>();
  float *own_ws = c.pool ? nullptr : c.own({ws_size}).ptr();
  float *out = c.out(0).ptr();
  if (transposed) {
    c.p.path = "gemm+col2im";
    c.p.run = [=] { conv_transpose2d(geo, in, wt, bias, out, scratch ? scratch->data() : own_ws); };
  } else {
    const ConvPath path = conv_path(geo);
    c.p.path = path == ConvPath::im2col      ? "im2col+gemm"
               : path == ConvPath::direct1x1 ? "gemm"
                                             : "depthwise";
    // One slab per thread at the same offset in every layer that shares the scratch (its
    // size / threads: the largest slab of them all), so a slab's lines stay with its thread.
    c.p.run = [=] {
      conv2d(geo, in, wt, bias, out, scratch ? scratch->data() : own_ws,
             scratch ? int64_t(scratch->size()) / num_threads() : 0);
    };
  }
}

void prep_linear(LayerContext &c) {
  const Shape &is = c.in(0).shape;
  const Shape &os = c.out_shape(0);
  if (is.empty() || os.empty())
    c.fail("linear needs a rank >= 1 input");
  const int64_t k = is.back(), n = os.back(), m = numel(is) / std::max<int64_t>(k, 1);
  if (m * n != numel(os))
    c.fail("output " + shape_str(os) + " does not match input " + shape_str(is));
  const float *in = c.in(0).ptr();
  const float a = weight_bound(k);
  const float *wt = c.own({n, k}, -a, a).ptr(); // [out_features, in_features], used transposed
  const float *bias = c.has_bias() ? c.own({n}, -a, a).ptr() : nullptr;
  float *out = c.out(0).ptr();
  c.p.path = "gemm";
  GemmEpilogue epilogue{nullptr, bias};
  if (const auto clamp = fused_clamp(c.l.activation)) {
    std::tie(epilogue.lo, epilogue.hi) = *clamp;
    c.p.activation_fused = true;
  }
  c.p.run = [=] { gemm(m, n, k, in, k, false, wt, k, true, out, n, false, epilogue); };
}

void prep_matmul(LayerContext &c) {
  auto ops = c.operands();
  if (ops.size() != 2)
    c.fail("matmul takes 2 operands, got " + std::to_string(ops.size()));
  Shape a = ops[0].shape, b = ops[1].shape;
  const Shape &os = c.out_shape(0);
  if (a.size() == 1)
    a.insert(a.begin(), 1);
  if (b.size() == 1)
    b.push_back(1);
  const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
  if (b[b.size() - 2] != k)
    c.fail("inner dimensions differ: " + shape_str(a) + " x " + shape_str(b));
  const int64_t batch = (m * n) != 0 ? numel(os) / (m * n) : 0;
  // Batch offsets of A and B for each output batch index (numpy broadcasting of batch dims).
  const size_t br = std::max(a.size(), b.size()) - 2;
  Shape ob(br, 1);
  auto bdims = [&](const Shape &s) {
    Shape d(br, 1);
    for (size_t i = 0; i + 2 < s.size(); ++i)
      d[br - (s.size() - 2) + i] = s[i];
    return d;
  };
  const Shape ad = bdims(a), bd = bdims(b);
  for (size_t i = 0; i < br; ++i)
    ob[i] = std::max(ad[i], bd[i]);
  if (numel(ob) != batch)
    c.fail("output shape " + shape_str(os) + " does not match the operands");
  std::vector<int64_t> aoff(batch), boff(batch);
  const auto ast = strides_of(ad), bst = strides_of(bd), ost = strides_of(ob);
  for (int64_t i = 0; i < batch; ++i) {
    int64_t ai = 0, bi = 0;
    for (size_t d = 0; d < br; ++d) {
      const int64_t idx = (i / ost[d]) % ob[d];
      ai += (ad[d] == 1 ? 0 : idx) * ast[d];
      bi += (bd[d] == 1 ? 0 : idx) * bst[d];
    }
    aoff[i] = ai * m * k;
    boff[i] = bi * k * n;
  }
  const float *pa = ops[0].ptr();
  const float *pb = ops[1].ptr();
  float *out = c.out(0).ptr();
  c.p.path = "gemm";
  c.p.run = [=] {
    for (int64_t i = 0; i < batch; ++i)
      gemm(m, n, k, pa + aoff[i], k, false, pb + boff[i], n, false, out + i * m * n, n);
  };
}

void prep_pool(LayerContext &c, bool max) {
  const Shape &is = c.in(0).shape;
  const Shape &os = c.out_shape(0);
  need_rank(c, is, 4, "input");
  need_rank(c, os, 4, "output");
  PoolGeom geo;
  try {
    static_cast<PoolWindow &>(geo) = pool_window(is, os, c.l.attrs);
  } catch (const InputError &e) {
    c.fail(e.message()); // the layer's location and name, not a second "error:" prefix
  }
  geo.n = is[0], geo.c = is[1];
  geo.count_include_pad = c.l.attrs.get_int("count_include_pad", 0) != 0;
  const float *in = c.in(0).ptr();
  float *out = c.out(0).ptr();
  c.p.path = pool_covers_plane(geo)  ? "reduce"
             : pool_is_identity(geo) ? "copy"
             : max                   ? "maxpool"
                                     : "avgpool";
  c.p.run = [=] { max ? max_pool(geo, in, out) : avg_pool(geo, in, out); };
}

} // namespace perfmodel::kernels::cpu::detail
