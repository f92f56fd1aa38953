// Pooling kernels against the reference: padding, stride, dilation, ceil mode, count_include_pad.
#include <doctest/doctest.h>

#include <utility>

#include "perfmodel/kernels/cpu/pool.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"
#include "reference.hpp"

using namespace perfmodel::kernels::cpu;

namespace {

double check_pool(PoolGeom g, bool max) {
  Tensor in = random_tensor({g.n, g.c, g.h, g.w}, 5);
  Tensor out = zero_tensor({g.n, g.c, g.oh, g.ow});
  max ? max_pool(g, in.ptr(), out.ptr()) : avg_pool(g, in.ptr(), out.ptr());
  ref::Conv r{g.n,  g.c,  g.h,  g.w,       g.c,        g.oh, g.ow, g.kh,
              g.kw, g.sh, g.sw, g.pad_top, g.pad_left, g.dh, g.dw, 1};
  const auto expect = ref::pool(r, in.ptr(), max, g.count_include_pad);
  return ref::max_abs_diff(out.ptr(), expect.data(), expect.size());
}

PoolGeom geom(int64_t h, int64_t k, int64_t s, int64_t p, bool ceil_mode, int64_t d = 1) {
  PoolGeom g;
  g.n = 2, g.c = 3, g.h = g.w = h, g.kh = g.kw = k, g.sh = g.sw = s, g.pad_top = g.pad_left = p;
  g.dh = g.dw = d;
  const int64_t span = h + 2 * p - d * (k - 1) - 1;
  int64_t o = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  if (ceil_mode && (o - 1) * s >= h + p)
    --o;
  g.oh = g.ow = o;
  return g;
}

} // namespace

TEST_CASE("max and average pooling match the reference") {
  for (bool max : {true, false}) {
    CAPTURE(max);
    CHECK(check_pool(geom(8, 2, 2, 0, false), max) < 1e-5);
    CHECK(check_pool(geom(9, 3, 2, 1, false), max) < 1e-5);
    CHECK(check_pool(geom(13, 3, 2, 0, true), max) < 1e-5); // ceil mode: a clipped last window
    CHECK(check_pool(geom(10, 3, 3, 1, true), max) < 1e-5);
    CHECK(check_pool(geom(9, 3, 1, 1, false), max) < 1e-5);  // stride 1: contiguous taps
    CHECK(check_pool(geom(41, 3, 1, 1, false), max) < 1e-5); // rows past one vector width
    CHECK(check_pool(geom(45, 3, 2, 1, true), max) < 1e-5);
    CHECK(check_pool(geom(12, 2, 4, 1, true), max) < 1e-5); // stride > window: gaps
  }
  CHECK(check_pool(geom(11, 3, 1, 1, false, 2), true) < 1e-5);  // dilated max pool
  CHECK(check_pool(geom(11, 3, 1, 1, false, 2), false) < 1e-5); // dilated average: clipped taps
  CHECK(check_pool(geom(7, 1, 1, 0, false), true) == 0.0);      // 1x1 window: a copy
  CHECK(check_pool(geom(7, 1, 1, 0, false), false) == 0.0);
  CHECK(check_pool(geom(7, 1, 2, 0, false), false) < 1e-5); // 1x1 stride 2: not a copy
  PoolGeom inc = geom(9, 3, 2, 1, false);
  inc.count_include_pad = true;
  CHECK(check_pool(inc, false) < 1e-5);
  PoolGeom inc_ceil = geom(10, 3, 3, 1, true);
  inc_ceil.count_include_pad = true;
  CHECK(check_pool(inc_ceil, false) < 1e-5);
}

TEST_CASE("pools with unequal windows, strides and pads per axis match the reference") {
  PoolGeom g;
  g.n = 3, g.c = 5, g.h = 10, g.w = 17, g.kh = 3, g.kw = 2, g.sh = 1, g.sw = 2;
  g.pad_top = 1, g.pad_left = 0;
  g.oh = (g.h + 2 * g.pad_top - g.kh) / g.sh + 1, g.ow = (g.w - g.kw) / g.sw + 1;
  for (bool max : {true, false}) {
    CAPTURE(max);
    CHECK(check_pool(g, max) < 1e-5); // vertical pass over flat rows, horizontal in 2 phases
    PoolGeom t = g;
    std::swap(t.sh, t.sw), std::swap(t.kh, t.kw), std::swap(t.pad_top, t.pad_left);
    t.oh = (t.h - t.kh) / t.sh + 1, t.ow = (t.w + 2 * t.pad_left - t.kw) / t.sw + 1;
    CHECK(check_pool(t, max) < 1e-5); // vertical pass row by row (stride 2)
  }
}

TEST_CASE(
    "windows inside a plane whose width is not a multiple of the stride match the reference") {
  // Read in place (no padded copy): v's rows are wider than the input's (NIN's pool0 and pool3,
  // 3x3 at stride 2 over 55- and 13-wide planes), row by row also at vertical stride 1.
  for (bool max : {true, false}) {
    CAPTURE(max);
    CHECK(check_pool(geom(55, 3, 2, 0, true), max) < 1e-5);
    CHECK(check_pool(geom(14, 3, 3, 0, false), max) < 1e-5);
    PoolGeom g;
    g.n = 2, g.c = 3, g.h = 9, g.w = 15, g.kh = 3, g.kw = 3, g.sh = 1, g.sw = 2;
    g.oh = (g.h - g.kh) / g.sh + 1, g.ow = (g.w - g.kw) / g.sw + 1;
    CHECK(check_pool(g, max) < 1e-5);
  }
}

TEST_CASE("a window over the whole plane without padding runs as a global pool") {
  const PoolGeom whole = geom(7, 7, 1, 0, true); // NIN's last pool: 7x7 on 7x7 planes
  REQUIRE(whole.oh == 1);
  CHECK(pool_covers_plane(whole));
  CHECK(check_pool(whole, true) == 0.0);
  CHECK(check_pool(whole, false) < 1e-5);
  const PoolGeom padded = geom(5, 7, 1, 1, false); // one window, but over padding
  REQUIRE(padded.oh == 1);
  CHECK_FALSE(pool_covers_plane(padded));
  CHECK(check_pool(padded, false) < 1e-5);
  CHECK_FALSE(pool_covers_plane(geom(8, 2, 2, 0, false)));
  // A window past the plane's bottom/right (a bottom/right pad): the windowed kernel, which
  // knows how an average that counts pads divides; perfmodel::op_class_of says `pool` too.
  PoolGeom over = whole;
  over.kh = over.kw = 8, over.sh = over.sw = 2;
  over.count_include_pad = true;
  CHECK_FALSE(pool_covers_plane(over));
  CHECK(check_pool(over, false) < 1e-5);
}

TEST_CASE("a 1x1 window at stride 1 over the whole plane copies its input") {
  const PoolGeom same = geom(7, 1, 1, 0, false); // VGG-16's adaptive pool, 7x7 -> 7x7
  REQUIRE(same.oh == 7);
  CHECK(pool_is_identity(same));
  CHECK(check_pool(same, true) == 0.0);
  CHECK(check_pool(same, false) == 0.0);
  CHECK_FALSE(pool_is_identity(geom(7, 1, 2, 0, false))); // strided: a subsample
  CHECK_FALSE(pool_is_identity(geom(7, 1, 1, 1, false))); // padded: a larger output
  CHECK_FALSE(pool_is_identity(geom(7, 2, 1, 0, false)));
}

TEST_CASE("ceil mode yields the extra window and it holds the max of its clipped part") {
  PoolGeom g = geom(5, 2, 2, 0, true);
  REQUIRE(g.oh == 3);
  Tensor in = zero_tensor({2, 3, 5, 5});
  for (int64_t i = 0; i < in.size(); ++i)
    in.ptr()[i] = float(i % 25);
  Tensor out = zero_tensor({2, 3, 3, 3});
  max_pool(g, in.ptr(), out.ptr());
  CHECK(out.ptr()[8] == 24.0f); // bottom-right window covers only input (4, 4)
}

TEST_CASE("global pooling averages and maxes each plane") {
  std::vector<float> in{1, 2, 3, 4, -1, -2, -3, -4};
  std::vector<float> out(2);
  global_pool(2, 4, false, in.data(), out.data());
  CHECK(out[0] == doctest::Approx(2.5));
  CHECK(out[1] == doctest::Approx(-2.5));
  global_pool(2, 4, true, in.data(), out.data());
  CHECK(out[0] == 4.0f);
  CHECK(out[1] == -1.0f);
}

TEST_CASE("global pooling over planes longer than a vector, and empty planes") {
  const int64_t planes = 3, size = 1001; // 62 vectors of 16 and a remainder of 9
  Tensor in = random_tensor({planes, size}, 11);
  std::vector<float> avg(planes), mx(planes);
  global_pool(planes, size, false, in.ptr(), avg.data());
  global_pool(planes, size, true, in.ptr(), mx.data());
  for (int64_t p = 0; p < planes; ++p) {
    double sum = 0;
    float m = -1e30f;
    for (int64_t i = 0; i < size; ++i) {
      sum += in.ptr()[p * size + i];
      m = std::max(m, in.ptr()[p * size + i]);
    }
    CHECK(avg[p] == doctest::Approx(sum / size).epsilon(1e-5));
    CHECK(mx[p] == m);
  }
  global_pool(planes, 0, false, in.ptr(), avg.data());
  CHECK(avg[0] == 0.0f);
}
