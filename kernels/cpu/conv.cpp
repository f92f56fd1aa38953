// Convolution kernels: im2col + GEMM, direct 1x1, direct depthwise, transposed via col2im.
#include "kernels/cpu/conv.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "kernels/cpu/gemm.hpp"
#include "kernels/cpu/parallel.hpp"
#include "perfmodel/work_split.hpp"

namespace perfmodel::kernels::cpu {

namespace {

// Range of output columns x with 0 <= x*s - p + off < w (off = kernel tap offset).
inline void valid_range(int64_t w, int64_t ow, int64_t s, int64_t p, int64_t off, int64_t &x0,
                        int64_t &x1) {
  // smallest x with x*s >= p - off; largest x with x*s <= w - 1 + p - off
  const int64_t lo = p - off, hi = w - 1 + p - off;
  x0 = lo <= 0 ? 0 : (lo + s - 1) / s;
  x1 = hi < 0 ? 0 : std::min(ow, hi / s + 1);
  if (x1 < x0)
    x1 = x0;
}

// Columns of one image and one group: col[(ci*kh + i)*kw + j][y*ow + x].
void im2col(const ConvGeom &g, const float *in, int64_t cg, float *col) {
  const int64_t rows = cg * g.kh * g.kw, plane = g.oh * g.ow;
  parallel_for(rows, work_split::kIm2colGrain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t ci = r / (g.kh * g.kw), i = (r / g.kw) % g.kh, j = r % g.kw;
      const float *src = in + ci * g.h * g.w;
      float *dst = col + r * plane;
      int64_t x0, x1;
      valid_range(g.w, g.ow, g.sw, g.pad_left, j * g.dw, x0, x1);
      for (int64_t y = 0; y < g.oh; ++y) {
        float *d = dst + y * g.ow;
        const int64_t iy = y * g.sh - g.pad_top + i * g.dh;
        if (iy < 0 || iy >= g.h) {
          std::memset(d, 0, sizeof(float) * g.ow);
          continue;
        }
        const float *s = src + iy * g.w - g.pad_left + j * g.dw;
        std::fill(d, d + x0, 0.0f);
        if (g.sw == 1)
          std::memcpy(d + x0, s + x0, sizeof(float) * (x1 - x0));
        else
          for (int64_t x = x0; x < x1; ++x)
            d[x] = s[x * g.sw];
        std::fill(d + x1, d + g.ow, 0.0f);
      }
    }
  });
}

void add_bias(const ConvGeom &g, const float *bias, float *out) {
  if (!bias)
    return;
  const int64_t plane = g.oh * g.ow;
  parallel_for(g.n * g.oc, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const float b = bias[p % g.oc];
      float *o = out + p * plane;
      for (int64_t i = 0; i < plane; ++i)
        o[i] += b;
    }
  });
}

// One tap of a stride-1 depthwise plane whose rows are as wide as the input's (ow == w): the
// valid outputs of all rows form one flat range, so the tap is a single long vectorised loop
// dst[q] += wv * src[q + dy*w + dx]. The loop also touches the |dx| outputs per row whose input
// column falls outside the row (it wraps into the neighbouring row); their contribution is
// taken back afterwards, |dx| elements per row.
void depthwise_tap_flat(const ConvGeom &g, const float *src, float wv, int64_t dy, int64_t dx,
                        float *dst) {
  const int64_t w = g.w;
  const int64_t y0 = std::max<int64_t>(0, -dy), y1 = std::min<int64_t>(g.oh, g.h - dy);
  if (y1 <= y0 || std::abs(dx) >= w)
    return;
  const int64_t off = dy * w + dx;
  const int64_t q0 = y0 * w + std::max<int64_t>(0, -dx);
  const int64_t q1 = (y1 - 1) * w + w - std::max<int64_t>(0, dx);
  for (int64_t q = q0; q < q1; ++q)
    dst[q] += wv * src[q + off];
  // Wrapped outputs: columns [w - dx, w) of rows y0..y1-2 (dx > 0), [0, -dx) of rows
  // y0+1..y1-1 (dx < 0).
  if (dx > 0)
    for (int64_t y = y0; y + 1 < y1; ++y)
      for (int64_t x = w - dx; x < w; ++x)
        dst[y * w + x] -= wv * src[y * w + x + off];
  else if (dx < 0)
    for (int64_t y = y0 + 1; y < y1; ++y)
      for (int64_t x = 0; x < -dx; ++x)
        dst[y * w + x] -= wv * src[y * w + x + off];
}

// One output plane, row by row (any stride): dst = bias + sum_{i,j} w[i, j] * src shifted.
void depthwise_plane_rows(const ConvGeom &g, const float *src, const float *wt, float *dst) {
  for (int64_t j = 0; j < g.kw; ++j) {
    int64_t x0, x1;
    valid_range(g.w, g.ow, g.sw, g.pad_left, j * g.dw, x0, x1);
    for (int64_t i = 0; i < g.kh; ++i) {
      const float wv = wt[i * g.kw + j];
      for (int64_t y = 0; y < g.oh; ++y) {
        const int64_t iy = y * g.sh - g.pad_top + i * g.dh;
        if (iy < 0 || iy >= g.h)
          continue;
        const float *s = src + iy * g.w - g.pad_left + j * g.dw;
        float *d = dst + y * g.ow;
        if (g.sw == 1)
          for (int64_t x = x0; x < x1; ++x)
            d[x] += wv * s[x];
        else
          for (int64_t x = x0; x < x1; ++x)
            d[x] += wv * s[x * g.sw];
      }
    }
  }
}

// One output plane per task: out[n, oc] = sum_{i,j} w[oc, i, j] * in[n, oc / mult] shifted.
// Stride 1 with rows as wide as the input's takes the flat per-tap loops (1.5-1.8x faster on
// MobileNetV2's 7..56-wide planes: a row loop of 7..28 floats is mostly its overhead).
void depthwise(const ConvGeom &g, const float *in, const float *weight, const float *bias,
               float *out) {
  const int64_t mult = g.oc / g.c, plane = g.oh * g.ow;
  const bool flat = g.sh == 1 && g.sw == 1 && g.ow == g.w;
  const bool clamped = clamps(g.clamp_lo, g.clamp_hi);
  parallel_for(g.n * g.oc, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t n = p / g.oc, o = p % g.oc;
      const float *src = in + (n * g.c + o / mult) * g.h * g.w;
      const float *wt = weight + o * g.kh * g.kw;
      float *dst = out + p * plane;
      std::fill(dst, dst + plane, bias ? bias[o] : 0.0f);
      if (!flat) {
        depthwise_plane_rows(g, src, wt, dst);
      } else {
        for (int64_t i = 0; i < g.kh; ++i)
          for (int64_t j = 0; j < g.kw; ++j)
            depthwise_tap_flat(g, src, wt[i * g.kw + j], i * g.dh - g.pad_top,
                               j * g.dw - g.pad_left, dst);
      }
      if (clamped) // the fused activation, while this thread's plane is in its cache
        for (int64_t i = 0; i < plane; ++i)
          dst[i] = std::min(std::max(dst[i], g.clamp_lo), g.clamp_hi);
    }
  });
}

} // namespace

ConvPath conv_path(const ConvGeom &g) {
  if (g.groups == g.c && g.groups > 1 && g.oc % g.c == 0)
    return ConvPath::depthwise;
  if (g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.pad_top == 0 && g.pad_left == 0 &&
      g.oh == g.h && g.ow == g.w)
    return ConvPath::direct1x1;
  return ConvPath::im2col;
}

std::string_view to_string(ConvPath p) {
  switch (p) {
  case ConvPath::im2col:
    return "im2col";
  case ConvPath::direct1x1:
    return "direct1x1";
  case ConvPath::depthwise:
    return "depthwise";
  }
  return "?";
}

int64_t conv_workspace(const ConvGeom &g, bool transposed) {
  if (transposed)
    return (g.oc / g.groups) * g.kh * g.kw * g.h * g.w;
  if (conv_path(g) != ConvPath::im2col)
    return 0;
  return (g.c / g.groups) * g.kh * g.kw * g.oh * g.ow;
}

void conv2d(const ConvGeom &g, const float *in, const float *weight, const float *bias, float *out,
            float *workspace) {
  const ConvPath path = conv_path(g);
  if (path == ConvPath::depthwise)
    return depthwise(g, in, weight, bias, out);
  const int64_t cg = g.c / g.groups, ocg = g.oc / g.groups, plane = g.oh * g.ow;
  const int64_t kdim = cg * g.kh * g.kw;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t gr = 0; gr < g.groups; ++gr) {
      const float *src = in + (n * g.c + gr * cg) * g.h * g.w;
      const float *cols = src; // 1x1 stride 1: the input already is the column matrix
      if (path == ConvPath::im2col) {
        im2col(g, src, cg, workspace);
        cols = workspace;
      }
      // out_g[ocg x plane] = clamp(W_g[ocg x kdim] * cols[kdim x plane] + bias_g): bias and
      // activation in the GEMM's epilogue, no pass of their own
      gemm(ocg, plane, kdim, weight + gr * ocg * kdim, kdim, false, cols, plane, false,
           out + (n * g.oc + gr * ocg) * plane, plane, false,
           GemmEpilogue{bias ? bias + gr * ocg : nullptr, nullptr, g.clamp_lo, g.clamp_hi});
    }
  }
}

void conv_transpose2d(const ConvGeom &g, const float *in, const float *weight, const float *bias,
                      float *out, float *col) {
  const int64_t cg = g.c / g.groups, ocg = g.oc / g.groups, in_plane = g.h * g.w;
  const int64_t out_plane = g.oh * g.ow, rows = ocg * g.kh * g.kw;
  std::memset(out, 0, sizeof(float) * g.n * g.oc * out_plane);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t gr = 0; gr < g.groups; ++gr) {
      // col[rows x in_plane] = W_g^T[rows x cg] * in_g[cg x in_plane]; W_g is [cg x rows]
      gemm(rows, in_plane, cg, weight + gr * cg * rows, rows, true,
           in + (n * g.c + gr * cg) * in_plane, in_plane, false, col, in_plane);
      float *dst = out + (n * g.oc + gr * ocg) * out_plane;
      // col2im: each thread owns whole output channels, so the scatter-adds never race.
      parallel_for(ocg, 1, [&](int64_t o0, int64_t o1) {
        for (int64_t o = o0; o < o1; ++o)
          for (int64_t i = 0; i < g.kh; ++i)
            for (int64_t j = 0; j < g.kw; ++j) {
              const float *c = col + ((o * g.kh + i) * g.kw + j) * in_plane;
              for (int64_t y = 0; y < g.h; ++y) {
                const int64_t oy = y * g.sh - g.pad_top + i * g.dh;
                if (oy < 0 || oy >= g.oh)
                  continue;
                for (int64_t x = 0; x < g.w; ++x) {
                  const int64_t ox = x * g.sw - g.pad_left + j * g.dw;
                  if (ox >= 0 && ox < g.ow)
                    dst[o * out_plane + oy * g.ow + ox] += c[y * g.w + x];
                }
              }
            }
      });
    }
  }
  add_bias(g, bias, out);
}

} // namespace perfmodel::kernels::cpu
