// conv2d / conv_transpose2d against the naive reference: stride, pad, dilation, groups, paths.
#include <doctest/doctest.h>

#include "perfmodel/kernels/cpu/conv.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "reference.hpp"

using namespace perfmodel::kernels::cpu;

namespace {

ConvGeom make(int64_t n, int64_t c, int64_t h, int64_t w, int64_t oc, int64_t k, int64_t s,
              int64_t p, int64_t d, int64_t groups, bool transposed = false) {
  ConvGeom g;
  g.n = n, g.c = c, g.h = h, g.w = w, g.oc = oc, g.kh = g.kw = k, g.sh = g.sw = s;
  g.pad_top = g.pad_left = p, g.dh = g.dw = d, g.groups = groups;
  if (transposed) {
    g.oh = (h - 1) * s - 2 * p + d * (k - 1) + 1;
    g.ow = (w - 1) * s - 2 * p + d * (k - 1) + 1;
  } else {
    g.oh = (h + 2 * p - d * (k - 1) - 1) / s + 1;
    g.ow = (w + 2 * p - d * (k - 1) - 1) / s + 1;
  }
  return g;
}

ref::Conv to_ref(const ConvGeom &g) {
  return {g.n,  g.c,  g.h,  g.w,       g.oc,       g.oh, g.ow, g.kh,
          g.kw, g.sh, g.sw, g.pad_top, g.pad_left, g.dh, g.dw, g.groups};
}

double run_conv(const ConvGeom &g, bool transposed, bool with_bias) {
  Tensor in = random_tensor({g.n, g.c, g.h, g.w}, 11);
  Tensor wt = transposed ? random_tensor({g.c, g.oc / g.groups, g.kh, g.kw}, 12)
                         : random_tensor({g.oc, g.c / g.groups, g.kh, g.kw}, 12);
  Tensor bias = random_tensor({g.oc}, 13);
  Tensor out = zero_tensor({g.n, g.oc, g.oh, g.ow});
  Tensor ws = zero_tensor({std::max<int64_t>(conv_workspace(g, transposed), 1)});
  const float *b = with_bias ? bias.ptr() : nullptr;
  std::vector<float> expect;
  if (transposed) {
    conv_transpose2d(g, in.ptr(), wt.ptr(), b, out.ptr(), ws.ptr());
    expect = ref::conv_transpose2d(to_ref(g), in.ptr(), wt.ptr(), b);
  } else {
    conv2d(g, in.ptr(), wt.ptr(), b, out.ptr(), ws.ptr());
    expect = ref::conv2d(to_ref(g), in.ptr(), wt.ptr(), b);
  }
  REQUIRE(expect.size() == static_cast<size_t>(out.size()));
  return ref::max_abs_diff(out.ptr(), expect.data(), expect.size());
}

} // namespace

TEST_CASE("conv2d matches the reference on every path and geometry") {
  struct Case {
    ConvGeom g;
    ConvPath path;
  };
  const Case cases[] = {
      {make(2, 3, 9, 11, 4, 3, 1, 1, 1, 1), ConvPath::im2col},
      {make(1, 4, 10, 10, 6, 3, 2, 1, 1, 1), ConvPath::im2col}, // stride 2
      {make(1, 4, 12, 12, 4, 3, 1, 2, 2, 1), ConvPath::im2col}, // dilation 2
      {make(1, 3, 13, 13, 5, 5, 3, 2, 1, 1), ConvPath::im2col}, // stride 3, pad 2
      {make(2, 6, 8, 8, 9, 3, 1, 1, 1, 3), ConvPath::im2col},   // groups 3
      {make(2, 8, 7, 5, 16, 1, 1, 0, 1, 1), ConvPath::direct1x1},
      {make(1, 8, 7, 7, 4, 1, 1, 0, 1, 2), ConvPath::direct1x1}, // grouped 1x1
      {make(1, 8, 9, 9, 8, 1, 2, 0, 1, 1), ConvPath::im2col},    // strided 1x1
      {make(2, 5, 9, 9, 5, 3, 1, 1, 1, 5), ConvPath::depthwise},
      {make(1, 4, 10, 10, 8, 3, 2, 1, 1, 4), ConvPath::depthwise}, // multiplier 2, stride 2
      {make(1, 3, 11, 11, 3, 3, 1, 2, 2, 3), ConvPath::depthwise}, // dilated depthwise
      {make(1, 6, 7, 7, 6, 5, 1, 2, 1, 6), ConvPath::depthwise},   // 5x5 "same": flat taps
      {make(2, 4, 6, 9, 4, 3, 1, 1, 1, 4), ConvPath::depthwise},   // non-square, batch 2
      {make(1, 3, 8, 8, 3, 3, 1, 0, 1, 3), ConvPath::depthwise},   // unpadded: ow < w
  };
  for (int threads : {1, 2}) {
    ThreadCountScope scope(threads);
    for (const auto &c : cases) {
      CAPTURE(threads);
      CAPTURE(c.g.c);
      CAPTURE(c.g.groups);
      CHECK(conv_path(c.g) == c.path);
      CHECK(run_conv(c.g, false, true) < 1e-4);
      CHECK(run_conv(c.g, false, false) < 1e-4);
    }
  }
}

TEST_CASE("conv_transpose2d matches the reference (stride, pad, dilation, groups)") {
  const ConvGeom cases[] = {
      make(1, 4, 5, 5, 3, 3, 1, 0, 1, 1, true),
      make(2, 4, 4, 6, 6, 3, 2, 1, 1, 1, true),
      make(1, 6, 5, 5, 4, 4, 2, 1, 1, 2, true),
      make(1, 3, 6, 6, 2, 3, 2, 2, 2, 1, true),
  };
  for (int threads : {1, 2}) {
    ThreadCountScope scope(threads);
    for (const auto &g : cases) {
      CAPTURE(threads);
      CHECK(run_conv(g, true, true) < 1e-4);
    }
  }
}

TEST_CASE("a large conv split across threads gives the single-thread answer") {
  ThreadCountScope two(2);
  // The product (32 x 400 x 144) splits its columns: 25 blocks of 16, 13 (208 columns) for the
  // first thread, each thread lowering its own columns into a slab of 144 x 208.
  const ConvGeom g = make(1, 16, 20, 20, 32, 3, 1, 1, 1, 1);
  CHECK(run_conv(g, false, true) < 1e-3);
  CHECK(conv_slab(g) == 16 * 9 * 208);
  CHECK(conv_workspace(g, false) == 2 * 16 * 9 * 208);
  // Output rows cut by the column blocks (ow 7), strides, dilation and groups.
  CHECK(run_conv(make(2, 12, 29, 29, 24, 3, 2, 2, 2, 2), false, true) < 1e-3);
  // A product with as many output channels as columns splits its rows: each thread lowers
  // all the columns (128 x 64 x 576).
  const ConvGeom rows = make(1, 64, 8, 8, 128, 3, 1, 1, 1, 1);
  CHECK(run_conv(rows, false, true) < 1e-3);
  CHECK(conv_workspace(rows, false) == 2 * 64 * 9 * 64);
  CHECK(conv_workspace(make(1, 16, 20, 20, 32, 1, 1, 0, 1, 1), false) == 0);
  {
    ThreadCountScope one(1);
    CHECK(conv_workspace(g, false) == 16 * 9 * 20 * 20); // one slab of the whole matrix
    CHECK(run_conv(g, false, true) < 1e-3);
  }
}

TEST_CASE("slabs at a shared stride, or too small for a serial caller, give the same answer") {
  ThreadCountScope two(2);
  const ConvGeom g = make(1, 16, 20, 20, 32, 3, 1, 1, 1, 1);
  Tensor in = random_tensor({1, 16, 20, 20}, 11), wt = random_tensor({32, 16, 3, 3}, 12);
  Tensor bias = random_tensor({32}, 13);
  const auto expect = ref::conv2d(to_ref(g), in.ptr(), wt.ptr(), bias.ptr());
  // Layers sharing one workspace pass the largest slab as the stride.
  const int64_t stride = conv_slab(g) + 1000;
  Tensor ws = zero_tensor({2 * stride}), out = zero_tensor({1, 32, 20, 20});
  conv2d(g, in.ptr(), wt.ptr(), bias.ptr(), out.ptr(), ws.ptr(), stride);
  CHECK(ref::max_abs_diff(out.ptr(), expect.data(), expect.size()) < 1e-3);
  // Called inside a parallel_for job, the split runs serially on one thread: it lowers all 400
  // columns through its 208-column slab in turns.
  Tensor out2 = zero_tensor({1, 32, 20, 20});
  parallel_for(2, 1, [&](int64_t b, int64_t) {
    if (b == 0)
      conv2d(g, in.ptr(), wt.ptr(), bias.ptr(), out2.ptr(), ws.ptr());
  });
  CHECK(ref::max_abs_diff(out2.ptr(), expect.data(), expect.size()) < 1e-3);
}
