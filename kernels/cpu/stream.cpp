// Stream and FMA kernels with explicit intrinsics: the build is ISO C++ (-ffp-contract=off), so
// the FMAs are written out rather than left to the compiler.
#include "perfmodel/kernels/cpu/stream.hpp"

#include <immintrin.h>

#include <cmath>
#include <cstring>

namespace perfmodel::kernels::cpu {

namespace {

// The sum of a vector's lanes (T: float or double). Not _mm512_reduce_add_ps/_pd: GCC 12's own
// header trips its -Wuninitialized inside those intrinsics (a false positive of avx512fintrin.h).
template <class T, class V> T lane_sum(V v) {
  T lanes[sizeof(V) / sizeof(T)];
  std::memcpy(lanes, &v, sizeof v);
  T total = 0;
  for (T x : lanes)
    total += x;
  return total;
}

} // namespace

float stream_read(const float *a, int64_t n) {
  int64_t i = 0;
#if defined(__AVX512F__)
  __m512 s[8];
  for (auto &v : s)
    v = _mm512_setzero_ps();
  for (; i + 128 <= n; i += 128)
    for (int j = 0; j < 8; ++j)
      s[j] = _mm512_add_ps(s[j], _mm512_loadu_ps(a + i + 16 * j));
  for (int j = 1; j < 8; ++j)
    s[0] = _mm512_add_ps(s[0], s[j]);
  float total = lane_sum<float>(s[0]);
#elif defined(__AVX2__)
  __m256 s[8];
  for (auto &v : s)
    v = _mm256_setzero_ps();
  for (; i + 64 <= n; i += 64)
    for (int j = 0; j < 8; ++j)
      s[j] = _mm256_add_ps(s[j], _mm256_loadu_ps(a + i + 8 * j));
  for (int j = 1; j < 8; ++j)
    s[0] = _mm256_add_ps(s[0], s[j]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, s[0]);
  float total = 0;
  for (float v : lanes)
    total += v;
#else
  float total = 0;
#endif
  for (; i < n; ++i)
    total += a[i];
  return total;
}

void stream_copy(const float *a, float *b, int64_t n) { std::memcpy(b, a, sizeof(float) * n); }

void stream_triad(float *a, const float *b, const float *c, float s, int64_t n) {
  int64_t i = 0;
#if defined(__AVX512F__)
  const __m512 vs = _mm512_set1_ps(s);
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(a + i, _mm512_fmadd_ps(vs, _mm512_loadu_ps(c + i), _mm512_loadu_ps(b + i)));
#elif defined(__AVX2__)
  const __m256 vs = _mm256_set1_ps(s);
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(a + i, _mm256_fmadd_ps(vs, _mm256_loadu_ps(c + i), _mm256_loadu_ps(b + i)));
#endif
  for (; i < n; ++i)
    a[i] = b[i] + s * c[i];
}

namespace {

#if defined(__AVX512F__)
constexpr int kLanes32 = 16, kLanes64 = 8;
#elif defined(__AVX2__)
constexpr int kLanes32 = 8, kLanes64 = 4;
#else
constexpr int kLanes32 = 1, kLanes64 = 1;
#endif

} // namespace

double fma_flops(int64_t iters, bool fp64) {
  return 2.0 * double(iters) * kFmaChains * (fp64 ? kLanes64 : kLanes32);
}

float fma_chains_fp32(int64_t iters) {
#if defined(__AVX512F__)
  __m512 acc[kFmaChains];
  for (int j = 0; j < kFmaChains; ++j)
    acc[j] = _mm512_set1_ps(float(j) * 1e-3f);
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  for (int64_t i = 0; i < iters; ++i)
    for (int j = 0; j < kFmaChains; ++j)
      acc[j] = _mm512_fmadd_ps(acc[j], a, b);
  for (int j = 1; j < kFmaChains; ++j)
    acc[0] = _mm512_add_ps(acc[0], acc[j]);
  return lane_sum<float>(acc[0]);
#elif defined(__AVX2__)
  __m256 acc[kFmaChains];
  for (int j = 0; j < kFmaChains; ++j)
    acc[j] = _mm256_set1_ps(float(j) * 1e-3f);
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  for (int64_t i = 0; i < iters; ++i)
    for (int j = 0; j < kFmaChains; ++j)
      acc[j] = _mm256_fmadd_ps(acc[j], a, b);
  for (int j = 1; j < kFmaChains; ++j)
    acc[0] = _mm256_add_ps(acc[0], acc[j]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, acc[0]);
  return lanes[0];
#else
  float acc[kFmaChains];
  for (int j = 0; j < kFmaChains; ++j)
    acc[j] = float(j) * 1e-3f;
  for (int64_t i = 0; i < iters; ++i)
    for (int j = 0; j < kFmaChains; ++j)
      acc[j] = std::fma(acc[j], 0.999999f, 1e-7f);
  return acc[0];
#endif
}

double fma_chains_fp64(int64_t iters) {
#if defined(__AVX512F__)
  __m512d acc[kFmaChains];
  for (int j = 0; j < kFmaChains; ++j)
    acc[j] = _mm512_set1_pd(double(j) * 1e-3);
  const __m512d a = _mm512_set1_pd(0.999999), b = _mm512_set1_pd(1e-7);
  for (int64_t i = 0; i < iters; ++i)
    for (int j = 0; j < kFmaChains; ++j)
      acc[j] = _mm512_fmadd_pd(acc[j], a, b);
  for (int j = 1; j < kFmaChains; ++j)
    acc[0] = _mm512_add_pd(acc[0], acc[j]);
  return lane_sum<double>(acc[0]);
#elif defined(__AVX2__)
  __m256d acc[kFmaChains];
  for (int j = 0; j < kFmaChains; ++j)
    acc[j] = _mm256_set1_pd(double(j) * 1e-3);
  const __m256d a = _mm256_set1_pd(0.999999), b = _mm256_set1_pd(1e-7);
  for (int64_t i = 0; i < iters; ++i)
    for (int j = 0; j < kFmaChains; ++j)
      acc[j] = _mm256_fmadd_pd(acc[j], a, b);
  for (int j = 1; j < kFmaChains; ++j)
    acc[0] = _mm256_add_pd(acc[0], acc[j]);
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, acc[0]);
  return lanes[0];
#else
  double acc[kFmaChains];
  for (int j = 0; j < kFmaChains; ++j)
    acc[j] = double(j) * 1e-3;
  for (int64_t i = 0; i < iters; ++i)
    for (int j = 0; j < kFmaChains; ++j)
      acc[j] = std::fma(acc[j], 0.999999, 1e-7);
  return acc[0];
#endif
}

} // namespace perfmodel::kernels::cpu
