// Pooling kernels, parallel over (n, c) planes.
#include "kernels/cpu/pool.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <limits>
#include <vector>

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/parallel.hpp"

namespace perfmodel::kernels::cpu {

namespace {

// One window tap over an output row: d[x] = op(d[x], r[x * S]) for x in [lo, hi). The stride is
// a template argument for the common 1 and 2 (0: read it from `stride`), so that the loop
// vectorises at the full vector width.
template <bool Max, int S>
void tap(float *__restrict d, const float *__restrict r, int64_t lo, int64_t hi, int64_t stride) {
  const int64_t s = S > 0 ? S : stride;
  for (int64_t x = lo; x < hi; ++x)
    d[x] = Max ? std::max(d[x], r[x * s]) : d[x] + r[x * s];
}

template <bool Max> void pool(const PoolGeom &g, const float *in, float *out) {
  // Clipped window bounds per output column, computed once per call (undilated windows): the
  // average pool's divisor.
  const bool plain = g.dh == 1 && g.dw == 1;
  std::vector<int64_t> xb(static_cast<size_t>(g.ow)), xe(static_cast<size_t>(g.ow));
  for (int64_t x = 0; x < g.ow; ++x) {
    const int64_t x0 = x * g.sw - g.pad_left;
    xb[x] = std::max<int64_t>(x0, 0);
    xe[x] = std::min<int64_t>(x0 + g.kw, g.w);
  }
  // Output columns [tap_lo[j], tap_hi[j]) whose window column j falls inside the input.
  std::vector<int64_t> tap_lo(static_cast<size_t>(g.kw)), tap_hi(static_cast<size_t>(g.kw));
  for (int64_t j = 0; j < g.kw; ++j) {
    int64_t lo = 0, hi = g.ow;
    while (lo < hi && lo * g.sw - g.pad_left + j < 0)
      ++lo;
    while (hi > lo && (hi - 1) * g.sw - g.pad_left + j >= g.w)
      --hi;
    tap_lo[j] = lo;
    tap_hi[j] = hi;
  }
  parallel_for(g.n * g.c, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const float *src = in + p * g.h * g.w;
      float *dst = out + p * g.oh * g.ow;
      for (int64_t y = 0; y < g.oh; ++y) {
        const int64_t y0 = y * g.sh - g.pad_top;
        if (plain) {
          // Window row by window row, tap by tap, over the whole output row: each tap is one
          // loop over the output columns whose input column it reaches (vectorised; stride 1
          // loads are contiguous), instead of a short dependent chain per output. Each output
          // still sums its taps in the same order (rows, then columns), so the values are the
          // per-output loop's to the bit.
          const int64_t yb = std::max<int64_t>(y0, 0), ye = std::min<int64_t>(y0 + g.kh, g.h);
          float *d = dst + y * g.ow;
          std::fill(d, d + g.ow, Max ? -std::numeric_limits<float>::infinity() : 0.0f);
          for (int64_t iy = yb; iy < ye; ++iy) {
            const float *row = src + iy * g.w;
            for (int64_t j = 0; j < g.kw; ++j) {
              const float *r = row + (j - g.pad_left); // r[x * sw] is the tap of output x
              if (g.sw == 1)
                tap<Max, 1>(d, r, tap_lo[j], tap_hi[j], 1);
              else if (g.sw == 2)
                tap<Max, 2>(d, r, tap_lo[j], tap_hi[j], 2);
              else
                tap<Max, 0>(d, r, tap_lo[j], tap_hi[j], g.sw);
            }
          }
          if constexpr (!Max) {
            for (int64_t x = 0; x < g.ow; ++x) {
              int64_t div = (ye - yb) * (xe[x] - xb[x]);
              if (g.count_include_pad) { // the window clipped to the padded input (PyTorch)
                const int64_t x0 = x * g.sw - g.pad_left;
                div = (std::min(y0 + g.kh, g.h + g.pad_top) - y0) *
                      (std::min(x0 + g.kw, g.w + g.pad_left) - x0);
              }
              d[x] = div > 0 ? d[x] / float(div) : 0.0f;
            }
          }
          continue;
        }
        for (int64_t x = 0; x < g.ow; ++x) {
          const int64_t x0 = x * g.sw - g.pad_left;
          float acc = Max ? -std::numeric_limits<float>::infinity() : 0.0f;
          int64_t count = 0;
          for (int64_t i = 0; i < g.kh; ++i) {
            const int64_t iy = y0 + i * g.dh;
            if (iy < 0 || iy >= g.h)
              continue;
            for (int64_t j = 0; j < g.kw; ++j) {
              const int64_t ix = x0 + j * g.dw;
              if (ix < 0 || ix >= g.w)
                continue;
              const float v = src[iy * g.w + ix];
              acc = Max ? std::max(acc, v) : acc + v;
              ++count;
            }
          }
          if constexpr (!Max) {
            int64_t div = count;
            if (g.count_include_pad) {
              const int64_t ye = std::min(y0 + (g.kh - 1) * g.dh + 1, g.h + g.pad_top);
              const int64_t xe2 = std::min(x0 + (g.kw - 1) * g.dw + 1, g.w + g.pad_left);
              div = ((ye - y0 + g.dh - 1) / g.dh) * ((xe2 - x0 + g.dw - 1) / g.dw);
            }
            acc = div > 0 ? acc / float(div) : 0.0f;
          }
          dst[y * g.ow + x] = acc;
        }
      }
    }
  });
}

} // namespace

// A 1x1 window at stride 1 without padding maps every element to itself (PyTorch's adaptive
// pools to the input's own size export this way, e.g. VGG-16's 7x7 -> 7x7): a copy.
static bool is_identity(const PoolGeom &g) {
  return g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.pad_top == 0 &&
         g.pad_left == 0 && g.oh == g.h && g.ow == g.w;
}

void max_pool(const PoolGeom &g, const float *in, float *out) {
  if (is_identity(g))
    return parallel_copy(in, out, g.n * g.c * g.h * g.w);
  pool<true>(g, in, out);
}

void avg_pool(const PoolGeom &g, const float *in, float *out) {
  if (is_identity(g))
    return parallel_copy(in, out, g.n * g.c * g.h * g.w);
  pool<false>(g, in, out);
}

void global_pool(int64_t planes, int64_t plane_size, bool max, const float *in, float *out) {
  // Eigen's reductions: vectorised with several partial results (a different summation order
  // from a serial loop, within float rounding).
  parallel_for(planes, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      if (plane_size <= 0) {
        out[p] = max ? -std::numeric_limits<float>::infinity() : 0.0f;
        continue;
      }
      const Eigen::Map<const Eigen::VectorXf> s(in + p * plane_size, plane_size);
      out[p] = max ? s.maxCoeff() : s.sum() / float(plane_size);
    }
  });
}

} // namespace perfmodel::kernels::cpu
