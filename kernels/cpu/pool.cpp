// Pooling kernels, parallel over (n, c) planes.
#include "perfmodel/kernels/cpu/pool.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <limits>
#include <vector>

#include "kernels/cpu/data_movement.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"

namespace perfmodel::kernels::cpu {

namespace {

constexpr float kMaxIdentity = -std::numeric_limits<float>::infinity();

template <bool Max> inline float combine(float a, float b) { return Max ? std::max(a, b) : a + b; }

// Taps i in [0, k) of a window starting at o0 with dilation d that land inside [0, n).
int64_t taps_inside(int64_t o0, int64_t k, int64_t d, int64_t n) {
  const int64_t first = o0 >= 0 ? 0 : (-o0 + d - 1) / d;
  const int64_t end = std::min(k, o0 >= n ? 0 : (n - o0 + d - 1) / d);
  return std::max<int64_t>(end - first, 0);
}

// What an average pool divides the window at (y0, x0) by: its taps inside the input, or with
// count_include_pad its taps inside the padded input (PyTorch).
int64_t window_divisor(const PoolGeom &g, int64_t y0, int64_t x0) {
  if (!g.count_include_pad)
    return taps_inside(y0, g.kh, g.dh, g.h) * taps_inside(x0, g.kw, g.dw, g.w);
  const int64_t ye = std::min(y0 + (g.kh - 1) * g.dh + 1, g.h + g.pad_top);
  const int64_t xe = std::min(x0 + (g.kw - 1) * g.dw + 1, g.w + g.pad_left);
  return ((ye - y0 + g.dh - 1) / g.dh) * ((xe - x0 + g.dw - 1) / g.dw);
}

// d[q] = op(d[q], r[q]) for q in [0, n): one window tap over a flat run of outputs
// (vectorised).
template <bool Max> void tap(float *__restrict d, const float *__restrict r, int64_t n) {
  for (int64_t q = 0; q < n; ++q)
    d[q] = combine<Max>(d[q], r[q]);
}

// Undilated windows, separably: a vertical pass (each output row's window rows combined over
// the whole padded row) then a horizontal pass (the window columns combined at the stride).
// Both passes run over flat runs of rows, so short rows (NIN's 21-wide planes, 7x7 planes)
// cost no per-row loop overhead, and a 3x3 window is 6 taps instead of 9. Padding and ceil-mode
// overhang are a border of the identity (-inf, or 0 for sums) in a per-thread scratch plane,
// skipped when the windows never leave the input (then the vertical pass reads the input
// itself, row by row where its width is not a multiple of the stride: NIN's 55- and 13-wide
// planes at stride 2). Averages divide by the per-output count (clipped window, or the window
// clipped to the padded input with count_include_pad).
template <bool Max> void pool_separable(const PoolGeom &g, const float *in, float *out) {
  const float ident = Max ? kMaxIdentity : 0.0f;
  const bool inside = g.pad_top == 0 && g.pad_left == 0 && (g.oh - 1) * g.sh + g.kh <= g.h &&
                      (g.ow - 1) * g.sw + g.kw <= g.w;
  const int64_t hp = std::max((g.oh - 1) * g.sh + g.kh, g.pad_top + g.h);
  const int64_t wp = std::max((g.ow - 1) * g.sw + g.kw, g.pad_left + g.w);
  // pitch: v's rows, a multiple of sw (the phase split); src_pitch: the rows the vertical pass
  // reads, the input's own or the padded copy's (as long as v's).
  const int64_t pitch = ((inside ? g.w : wp) + g.sw - 1) / g.sw * g.sw;
  const int64_t src_pitch = inside ? g.w : pitch;
  const int64_t hq = pitch / g.sw; // horizontal results per row: ow and some past the last
  std::vector<float> inv;          // 1 / divisor per output (average pools)
  if constexpr (!Max) {
    inv.resize(static_cast<size_t>(g.oh * g.ow));
    for (int64_t y = 0; y < g.oh; ++y)
      for (int64_t x = 0; x < g.ow; ++x) {
        const int64_t div = window_divisor(g, y * g.sh - g.pad_top, x * g.sw - g.pad_left);
        inv[y * g.ow + x] = div > 0 ? 1.0f / float(div) : 0.0f;
      }
  }
  parallel_for(g.n * g.c, 1, [&](int64_t p0, int64_t p1) {
    std::vector<float> padded(inside ? 0 : static_cast<size_t>(hp * pitch));
    // v: the window rows combined, then a tail of the identity that the last row's horizontal
    // taps may reach past the row. phases: v's sw phases, plen each (sw > 1 only).
    const int64_t plen = g.oh * hq + (g.kw - 1) / g.sw + 1;
    std::vector<float> v(static_cast<size_t>(plen * g.sw), ident);
    std::vector<float> phases(g.sw > 1 ? static_cast<size_t>(plen * g.sw) : 0);
    std::vector<float> hz(static_cast<size_t>(g.oh * hq));
    for (int64_t p = p0; p < p1; ++p) {
      const float *src = in + p * g.h * g.w;
      if (!inside) {
        std::fill(padded.begin(), padded.end(), ident);
        for (int64_t iy = 0; iy < g.h; ++iy)
          std::copy(src + iy * g.w, src + (iy + 1) * g.w,
                    padded.data() + (iy + g.pad_top) * pitch + g.pad_left);
        src = padded.data();
      }
      // Vertical: v[y * pitch + x] = op over i of src[(y * sh + i) * src_pitch + x], x < src_pitch
      // (v's columns past src_pitch keep the identity they were filled with).
      if (g.sh == 1 && src_pitch == pitch) {
        std::copy(src, src + g.oh * pitch, v.data());
        for (int64_t i = 1; i < g.kh; ++i)
          tap<Max>(v.data(), src + i * pitch, g.oh * pitch);
      } else {
        for (int64_t y = 0; y < g.oh; ++y) {
          const float *rows = src + y * g.sh * src_pitch;
          std::copy(rows, rows + src_pitch, v.data() + y * pitch);
          for (int64_t i = 1; i < g.kh; ++i)
            tap<Max>(v.data() + y * pitch, rows + i * src_pitch, src_pitch);
        }
      }
      // Horizontal: hz[q] = op over j of v[q * sw + j]; row y's outputs are hz[y * hq + x].
      // With a stride, v is first split into its sw phases (ph[r][q] = v[q * sw + r]), so that
      // every tap is a contiguous run: tap j reads phase j % sw from q + j / sw.
      if (g.sw == 1) {
        std::copy(v.data(), v.data() + g.oh * hq, hz.data());
        for (int64_t j = 1; j < g.kw; ++j)
          tap<Max>(hz.data(), v.data() + j, g.oh * hq);
      } else {
        for (int64_t r = 0; r < g.sw; ++r) {
          float *d = phases.data() + r * plen;
          const float *sv = v.data() + r;
          if (g.sw == 2)
            for (int64_t q = 0; q < plen; ++q)
              d[q] = sv[2 * q];
          else
            for (int64_t q = 0; q < plen; ++q)
              d[q] = sv[q * g.sw];
        }
        std::copy(phases.data(), phases.data() + g.oh * hq, hz.data());
        for (int64_t j = 1; j < g.kw; ++j)
          tap<Max>(hz.data(), phases.data() + (j % g.sw) * plen + j / g.sw, g.oh * hq);
      }
      float *dst = out + p * g.oh * g.ow;
      for (int64_t y = 0; y < g.oh; ++y) {
        const float *r = hz.data() + y * hq;
        float *d = dst + y * g.ow;
        if constexpr (Max) {
          std::copy(r, r + g.ow, d);
        } else {
          const float *f = inv.data() + y * g.ow;
          for (int64_t x = 0; x < g.ow; ++x)
            d[x] = r[x] * f[x];
        }
      }
    }
  });
}

// Dilated windows: one output at a time.
template <bool Max> void pool_dilated(const PoolGeom &g, const float *in, float *out) {
  parallel_for(g.n * g.c, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const float *src = in + p * g.h * g.w;
      float *dst = out + p * g.oh * g.ow;
      for (int64_t y = 0; y < g.oh; ++y)
        for (int64_t x = 0; x < g.ow; ++x) {
          const int64_t y0 = y * g.sh - g.pad_top, x0 = x * g.sw - g.pad_left;
          float acc = Max ? kMaxIdentity : 0.0f;
          for (int64_t i = 0; i < g.kh; ++i) {
            const int64_t iy = y0 + i * g.dh;
            if (iy < 0 || iy >= g.h)
              continue;
            for (int64_t j = 0; j < g.kw; ++j) {
              const int64_t ix = x0 + j * g.dw;
              if (ix < 0 || ix >= g.w)
                continue;
              acc = combine<Max>(acc, src[iy * g.w + ix]);
            }
          }
          if constexpr (!Max) {
            const int64_t div = window_divisor(g, y0, x0);
            acc = div > 0 ? acc / float(div) : 0.0f;
          }
          dst[y * g.ow + x] = acc;
        }
    }
  });
}

template <bool Max> void pool(const PoolGeom &g, const float *in, float *out) {
  if (g.n * g.c <= 0 || g.oh <= 0 || g.ow <= 0)
    return;
  if (pool_covers_plane(g))
    return global_pool(g.n * g.c, g.h * g.w, Max, in, out);
  if (g.dh == 1 && g.dw == 1)
    pool_separable<Max>(g, in, out);
  else
    pool_dilated<Max>(g, in, out);
}

} // namespace

void max_pool(const PoolGeom &g, const float *in, float *out) {
  if (pool_is_identity(g))
    return parallel_copy(in, out, g.n * g.c * g.h * g.w);
  pool<true>(g, in, out);
}

void avg_pool(const PoolGeom &g, const float *in, float *out) {
  if (pool_is_identity(g))
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
