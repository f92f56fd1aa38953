// Naive reference implementations (plain loops, double accumulation) the kernel tests compare to.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace ref {

struct Conv {
  int64_t n, c, h, w, oc, oh, ow, kh, kw, sh, sw, pt, pl, dh, dw, groups;
};

// out[n][o][y][x] = b[o] + sum in[n][g*cg+ci][y*sh-pt+i*dh][x*sw-pl+j*dw] * w[o][ci][i][j]
inline std::vector<float> conv2d(const Conv &g, const float *in, const float *wt,
                                 const float *bias) {
  std::vector<float> out(g.n * g.oc * g.oh * g.ow);
  const int64_t cg = g.c / g.groups, ocg = g.oc / g.groups;
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t o = 0; o < g.oc; ++o)
      for (int64_t y = 0; y < g.oh; ++y)
        for (int64_t x = 0; x < g.ow; ++x) {
          double acc = bias ? bias[o] : 0.0;
          const int64_t gr = o / ocg;
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t i = 0; i < g.kh; ++i)
              for (int64_t j = 0; j < g.kw; ++j) {
                const int64_t iy = y * g.sh - g.pt + i * g.dh, ix = x * g.sw - g.pl + j * g.dw;
                if (iy < 0 || iy >= g.h || ix < 0 || ix >= g.w)
                  continue;
                acc += double(in[((n * g.c + gr * cg + ci) * g.h + iy) * g.w + ix]) *
                       wt[((o * cg + ci) * g.kh + i) * g.kw + j];
              }
          out[((n * g.oc + o) * g.oh + y) * g.ow + x] = float(acc);
        }
  return out;
}

// Transposed conv: scatter in[n][ci][y][x] * w[ci][oo][i][j] to out[n][g*ocg+oo][y*sh-pt+i*dh][...]
inline std::vector<float> conv_transpose2d(const Conv &g, const float *in, const float *wt,
                                           const float *bias) {
  std::vector<double> acc(g.n * g.oc * g.oh * g.ow, 0.0);
  const int64_t cg = g.c / g.groups, ocg = g.oc / g.groups;
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t ci = 0; ci < g.c; ++ci)
      for (int64_t y = 0; y < g.h; ++y)
        for (int64_t x = 0; x < g.w; ++x)
          for (int64_t oo = 0; oo < ocg; ++oo)
            for (int64_t i = 0; i < g.kh; ++i)
              for (int64_t j = 0; j < g.kw; ++j) {
                const int64_t oy = y * g.sh - g.pt + i * g.dh, ox = x * g.sw - g.pl + j * g.dw;
                if (oy < 0 || oy >= g.oh || ox < 0 || ox >= g.ow)
                  continue;
                const int64_t o = (ci / cg) * ocg + oo;
                acc[((n * g.oc + o) * g.oh + oy) * g.ow + ox] +=
                    double(in[((n * g.c + ci) * g.h + y) * g.w + x]) *
                    wt[((ci * ocg + oo) * g.kh + i) * g.kw + j];
              }
  std::vector<float> out(acc.size());
  for (size_t i = 0; i < acc.size(); ++i)
    out[i] = float(acc[i] + (bias ? bias[(i / (g.oh * g.ow)) % g.oc] : 0.0));
  return out;
}

// C = A[m x k] * B[k x n]
inline std::vector<float> matmul(int64_t m, int64_t n, int64_t k, const float *a, const float *b) {
  std::vector<float> c(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc += double(a[i * k + p]) * b[p * n + j];
      c[i * n + j] = float(acc);
    }
  return c;
}

// Pooling with PyTorch semantics (pads are -inf for max; avg divides by the clipped or padded
// window).
inline std::vector<float> pool(const Conv &g, const float *in, bool max, bool include_pad) {
  std::vector<float> out(g.n * g.c * g.oh * g.ow);
  for (int64_t p = 0; p < g.n * g.c; ++p)
    for (int64_t y = 0; y < g.oh; ++y)
      for (int64_t x = 0; x < g.ow; ++x) {
        double acc = max ? -std::numeric_limits<double>::infinity() : 0.0;
        int64_t cnt = 0, padded = 0;
        for (int64_t i = 0; i < g.kh; ++i)
          for (int64_t j = 0; j < g.kw; ++j) {
            const int64_t iy = y * g.sh - g.pt + i * g.dh, ix = x * g.sw - g.pl + j * g.dw;
            if (iy < g.h + g.pt && ix < g.w + g.pl)
              ++padded;
            if (iy < 0 || iy >= g.h || ix < 0 || ix >= g.w)
              continue;
            const double v = in[(p * g.h + iy) * g.w + ix];
            acc = max ? std::max(acc, v) : acc + v;
            ++cnt;
          }
        if (!max)
          acc /= double(include_pad ? padded : cnt);
        out[(p * g.oh + y) * g.ow + x] = float(acc);
      }
  return out;
}

inline double max_abs_diff(const float *a, const float *b, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; ++i)
    m = std::max(m, std::fabs(double(a[i]) - double(b[i])));
  return m;
}

} // namespace ref
