// Convolution kernels: im2col + GEMM, direct 1x1, direct depthwise, transposed via col2im.
#include "perfmodel/kernels/cpu/conv.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "perfmodel/kernels/cpu/gemm.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/targets/cpu_eigen/work_split.hpp"

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

// Columns [p0, p1) of the column matrix of one image and group, on the calling thread: row
// r = (ci*kh + i)*kw + j, column p = y*ow + x, stored at col[r * ld + (p - p0)].
void im2col_block(const ConvGeom &g, const float *in, int64_t cg, int64_t p0, int64_t p1,
                  float *col, int64_t ld) {
  const int64_t rows = cg * g.kh * g.kw;
  const int64_t y_first = p0 / g.ow, y_last = (p1 - 1) / g.ow;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t ci = r / (g.kh * g.kw), i = (r / g.kw) % g.kh, j = r % g.kw;
    const float *src = in + ci * g.h * g.w;
    int64_t x0, x1; // the output columns whose input column is inside the row
    valid_range(g.w, g.ow, g.sw, g.pad_left, j * g.dw, x0, x1);
    for (int64_t y = y_first; y <= y_last; ++y) {
      // this output row's columns in [p0, p1): x in [xa, xb), stored from d
      const int64_t xa = std::max<int64_t>(0, p0 - y * g.ow);
      const int64_t xb = std::min<int64_t>(g.ow, p1 - y * g.ow);
      float *d = col + r * ld + (y * g.ow + xa - p0);
      const int64_t iy = y * g.sh - g.pad_top + i * g.dh;
      if (iy < 0 || iy >= g.h) {
        std::fill(d, d + (xb - xa), 0.0f);
        continue;
      }
      const int64_t v0 = std::clamp(x0, xa, xb), v1 = std::clamp(x1, v0, xb);
      std::fill(d, d + (v0 - xa), 0.0f);
      const float *s = src + iy * g.w - g.pad_left + j * g.dw;
      if (g.sw == 1)
        std::memcpy(d + (v0 - xa), s + v0, sizeof(float) * (v1 - v0));
      else
        for (int64_t x = v0; x < v1; ++x)
          d[x - xa] = s[x * g.sw];
      std::fill(d + (v1 - xa), d + (xb - xa), 0.0f);
    }
  }
}

// How the product of a lowered convolution (one image and group) is split over `threads`, as
// gemm() would split it (work_split), and the floats of one thread's slab of the workspace:
// the columns it multiplies (a column split), or all of them (a row split, or one thread).
struct LoweredSplit {
  bool parallel = false, rows = false;
  int64_t column_blocks = 0, slab = 0;
};

LoweredSplit lowered_split(const ConvGeom &g, int threads) {
  const int64_t m = g.oc / g.groups, n = g.oh * g.ow, k = (g.c / g.groups) * g.kh * g.kw;
  const int64_t vec = work_split::kGemmColumnBlock;
  LoweredSplit s;
  s.parallel = work_split::gemm_runs_parallel(m, n, k, threads);
  s.rows = s.parallel && work_split::gemm_splits_rows(m, n, k, threads);
  s.column_blocks = (n + vec - 1) / vec;
  s.slab = k * n;
  if (s.parallel && !s.rows) {
    const int64_t chunks = work_split::chunks(s.column_blocks, 1, threads);
    s.slab = k * std::min(n, (s.column_blocks + chunks - 1) / chunks * vec);
  }
  return s;
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
  return conv_slab(g) * num_threads();
}

int64_t conv_slab(const ConvGeom &g) {
  return conv_path(g) == ConvPath::im2col ? lowered_split(g, num_threads()).slab : 0;
}

void conv2d(const ConvGeom &g, const float *in, const float *weight, const float *bias, float *out,
            float *workspace, int64_t slab_stride) {
  const ConvPath path = conv_path(g);
  if (path == ConvPath::depthwise)
    return depthwise(g, in, weight, bias, out);
  const int64_t cg = g.c / g.groups, ocg = g.oc / g.groups, plane = g.oh * g.ow;
  const int64_t kdim = cg * g.kh * g.kw;
  const int threads = num_threads();
  const LoweredSplit split = lowered_split(g, threads);
  const int64_t stride = std::max(slab_stride, split.slab);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t gr = 0; gr < g.groups; ++gr) {
      const float *src = in + (n * g.c + gr * cg) * g.h * g.w;
      const float *w_g = weight + gr * ocg * kdim;
      const float *bias_g = bias ? bias + gr * ocg : nullptr;
      float *out_g = out + (n * g.oc + gr * ocg) * plane;
      // out_g[ocg x plane] = clamp(W_g[ocg x kdim] * cols[kdim x plane] + bias_g): bias and
      // activation in the GEMM's epilogue, no pass of their own
      if (path == ConvPath::direct1x1) { // the input already is the column matrix
        gemm(ocg, plane, kdim, w_g, kdim, false, src, plane, false, out_g, plane, false,
             GemmEpilogue{bias_g, nullptr, g.clamp_lo, g.clamp_hi});
        continue;
      }
      // Rows [r0, r1) x columns [c0, c1) of the product, on the thread that owns `slot`: it
      // lowers those columns into its own slab of the workspace and multiplies them there
      // (columns beyond the slab's capacity in turn).
      auto lower_and_multiply = [&](int64_t slot, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
        float *slab = workspace + slot * stride;
        const int64_t cap = std::max<int64_t>(1, stride / std::max<int64_t>(kdim, 1));
        for (int64_t b0 = c0; b0 < c1; b0 += cap) {
          const int64_t b1 = std::min(c1, b0 + cap), cols = b1 - b0;
          im2col_block(g, src, cg, b0, b1, slab, cols);
          gemm(r1 - r0, cols, kdim, w_g + r0 * kdim, kdim, false, slab, cols, false,
               out_g + r0 * plane + b0, plane, false,
               GemmEpilogue{bias_g ? bias_g + r0 : nullptr, nullptr, g.clamp_lo, g.clamp_hi});
        }
      };
      using namespace work_split;
      if (!split.parallel) {
        lower_and_multiply(0, 0, ocg, 0, plane);
      } else if (split.rows) {
        // Every thread lowers all the columns for its rows, each into its own slab: the same
        // lowering on every thread. Lowering once into one slab, each thread its share of the
        // matrix's rows, then multiplying in a second parallel_for, was 5-9% slower on the
        // 2-core host with the workspace as the previous call left it (BM_Conv 256/14/256,
        // 512/14/512, 512/7/512; docs/measure.md, "The im2col workspace"): each call then
        // writes lines the other core holds and packs a matrix half of which the other wrote.
        parallel_for(ocg, kGemmRowGrain, [&](int64_t r0, int64_t r1) {
          lower_and_multiply(chunk_of(r0, ocg, kGemmRowGrain, threads), r0, r1, 0, plane);
        });
      } else { // every thread lowers the columns it multiplies
        const int64_t vec = kGemmColumnBlock, blocks = split.column_blocks;
        parallel_for(blocks, 1, [&](int64_t v0, int64_t v1) {
          lower_and_multiply(chunk_of(v0, blocks, 1, threads), 0, ocg, v0 * vec,
                             std::min(plane, v1 * vec));
        });
      }
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
