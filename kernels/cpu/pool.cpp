// Pooling kernels, parallel over (n, c) planes.
#include "kernels/cpu/pool.hpp"

#include <algorithm>
#include <limits>

#include "kernels/cpu/parallel.hpp"

namespace perfmodel::kernels::cpu {

namespace {

template <bool Max>
void pool(const PoolGeom& g, const float* in, float* out) {
  parallel_for(g.n * g.c, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const float* src = in + p * g.h * g.w;
      float* dst = out + p * g.oh * g.ow;
      for (int64_t y = 0; y < g.oh; ++y) {
        const int64_t y0 = y * g.sh - g.pad_top;
        for (int64_t x = 0; x < g.ow; ++x) {
          const int64_t x0 = x * g.sw - g.pad_left;
          float acc = Max ? -std::numeric_limits<float>::infinity() : 0.0f;
          int64_t count = 0;
          for (int64_t i = 0; i < g.kh; ++i) {
            const int64_t iy = y0 + i * g.dh;
            if (iy < 0 || iy >= g.h) continue;
            for (int64_t j = 0; j < g.kw; ++j) {
              const int64_t ix = x0 + j * g.dw;
              if (ix < 0 || ix >= g.w) continue;
              const float v = src[iy * g.w + ix];
              acc = Max ? std::max(acc, v) : acc + v;
              ++count;
            }
          }
          if constexpr (!Max) {
            // count_include_pad divides by the window clipped to the padded input (PyTorch).
            int64_t div = count;
            if (g.count_include_pad) {
              const int64_t ye = std::min(y0 + (g.kh - 1) * g.dh + 1, g.h + g.pad_top);
              const int64_t xe = std::min(x0 + (g.kw - 1) * g.dw + 1, g.w + g.pad_left);
              div = ((ye - y0 + g.dh - 1) / g.dh) * ((xe - x0 + g.dw - 1) / g.dw);
            }
            acc = div > 0 ? acc / float(div) : 0.0f;
          }
          dst[y * g.ow + x] = acc;
        }
      }
    }
  });
}

}  // namespace

void max_pool(const PoolGeom& g, const float* in, float* out) { pool<true>(g, in, out); }
void avg_pool(const PoolGeom& g, const float* in, float* out) { pool<false>(g, in, out); }

void global_pool(int64_t planes, int64_t plane_size, bool max, const float* in, float* out) {
  parallel_for(planes, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const float* s = in + p * plane_size;
      if (max) {
        float m = -std::numeric_limits<float>::infinity();
        for (int64_t i = 0; i < plane_size; ++i) m = std::max(m, s[i]);
        out[p] = m;
      } else {
        float acc = 0;
        for (int64_t i = 0; i < plane_size; ++i) acc += s[i];
        out[p] = plane_size ? acc / float(plane_size) : 0.0f;
      }
    }
  });
}

}  // namespace perfmodel::kernels::cpu
