// Pooling kernels, parallel over (n, c) planes.
#include "kernels/cpu/pool.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/parallel.hpp"

namespace perfmodel::kernels::cpu {

namespace {

template <bool Max> void pool(const PoolGeom &g, const float *in, float *out) {
  // Clipped window bounds per output column, computed once per call (undilated windows):
  // the inner loops then run without bounds checks.
  const bool plain = g.dh == 1 && g.dw == 1;
  std::vector<int64_t> xb(static_cast<size_t>(g.ow)), xe(static_cast<size_t>(g.ow));
  for (int64_t x = 0; x < g.ow; ++x) {
    const int64_t x0 = x * g.sw - g.pad_left;
    xb[x] = std::max<int64_t>(x0, 0);
    xe[x] = std::min<int64_t>(x0 + g.kw, g.w);
  }
  parallel_for(g.n * g.c, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const float *src = in + p * g.h * g.w;
      float *dst = out + p * g.oh * g.ow;
      for (int64_t y = 0; y < g.oh; ++y) {
        const int64_t y0 = y * g.sh - g.pad_top;
        if (plain) {
          const int64_t yb = std::max<int64_t>(y0, 0), ye = std::min<int64_t>(y0 + g.kh, g.h);
          for (int64_t x = 0; x < g.ow; ++x) {
            float acc = Max ? -std::numeric_limits<float>::infinity() : 0.0f;
            for (int64_t iy = yb; iy < ye; ++iy) {
              const float *row = src + iy * g.w;
              for (int64_t ix = xb[x]; ix < xe[x]; ++ix)
                acc = Max ? std::max(acc, row[ix]) : acc + row[ix];
            }
            if constexpr (!Max) {
              int64_t div = (ye - yb) * (xe[x] - xb[x]);
              if (g.count_include_pad) { // the window clipped to the padded input (PyTorch)
                const int64_t x0 = x * g.sw - g.pad_left;
                div = (std::min(y0 + g.kh, g.h + g.pad_top) - y0) *
                      (std::min(x0 + g.kw, g.w + g.pad_left) - x0);
              }
              acc = div > 0 ? acc / float(div) : 0.0f;
            }
            dst[y * g.ow + x] = acc;
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
  parallel_for(planes, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const float *s = in + p * plane_size;
      if (max) {
        float m = -std::numeric_limits<float>::infinity();
        for (int64_t i = 0; i < plane_size; ++i)
          m = std::max(m, s[i]);
        out[p] = m;
      } else {
        float acc = 0;
        for (int64_t i = 0; i < plane_size; ++i)
          acc += s[i];
        out[p] = plane_size ? acc / float(plane_size) : 0.0f;
      }
    }
  });
}

} // namespace perfmodel::kernels::cpu
