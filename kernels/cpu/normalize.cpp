// Normalisation, softmax and reduction kernels.
#include "kernels/cpu/normalize.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"
#include "perfmodel/targets/cpu_eigen/work_split.hpp"

namespace perfmodel::kernels::cpu {

void fold_batch_norm(int64_t c, const float *gamma, const float *beta, const float *mean,
                     const float *var, float eps, float *scale, float *shift) {
  for (int64_t i = 0; i < c; ++i) {
    scale[i] = gamma[i] / std::sqrt(var[i] + eps);
    shift[i] = beta[i] - mean[i] * scale[i];
  }
}

void batch_norm(int64_t n, int64_t c, int64_t inner, const float *in, const float *scale,
                const float *shift, float *out) {
  const int64_t grain = work_split::batch_norm_grain(inner);
  parallel_for(n * c, grain, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const float s = scale[p % c], t = shift[p % c];
      const float *x = in + p * inner;
      float *y = out + p * inner;
      for (int64_t i = 0; i < inner; ++i)
        y[i] = x[i] * s + t;
    }
  });
}

void layer_norm(int64_t rows, int64_t cols, const float *in, const float *gamma, const float *beta,
                float eps, float *out) {
  const int64_t grain = std::max<int64_t>(1, (1 << 14) / std::max<int64_t>(cols, 1));
  parallel_for(rows, grain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const float *x = in + r * cols;
      float *y = out + r * cols;
      double sum = 0, sq = 0;
      for (int64_t i = 0; i < cols; ++i)
        sum += x[i];
      const float mean = cols ? float(sum / double(cols)) : 0.0f;
      for (int64_t i = 0; i < cols; ++i)
        sq += double(x[i] - mean) * double(x[i] - mean);
      const float inv = 1.0f / std::sqrt(float(cols ? sq / double(cols) : 0.0) + eps);
      for (int64_t i = 0; i < cols; ++i) {
        const float v = (x[i] - mean) * inv;
        y[i] = gamma ? v * gamma[i] + (beta ? beta[i] : 0.0f) : v;
      }
    }
  });
}

void softmax(int64_t outer, int64_t dim, int64_t inner, const float *in, float *out) {
  parallel_for(outer * inner, 1, [&](int64_t q0, int64_t q1) {
    for (int64_t q = q0; q < q1; ++q) {
      const int64_t o = q / inner, i = q % inner;
      const float *x = in + o * dim * inner + i;
      float *y = out + o * dim * inner + i;
      float m = -std::numeric_limits<float>::infinity();
      for (int64_t d = 0; d < dim; ++d)
        m = std::max(m, x[d * inner]);
      float sum = 0;
      for (int64_t d = 0; d < dim; ++d)
        sum += (y[d * inner] = std::exp(x[d * inner] - m));
      const float inv = 1.0f / sum;
      for (int64_t d = 0; d < dim; ++d)
        y[d * inner] *= inv;
    }
  });
}

void reduce(const std::string &function, const Shape &shape, const std::vector<int64_t> &axes,
            const float *in, float *out) {
  const size_t rank = shape.size();
  std::vector<bool> reduced(rank, false);
  for (int64_t a : axes)
    reduced.at(static_cast<size_t>(a)) = true;
  // Output index strides over the input dims (0 on reduced dims).
  Shape kept;
  for (size_t d = 0; d < rank; ++d)
    if (!reduced[d])
      kept.push_back(shape[d]);
  const auto kst = strides_of(kept);
  std::vector<int64_t> ost(rank, 0);
  for (size_t d = 0, k = 0; d < rank; ++d)
    if (!reduced[d])
      ost[d] = kst[k++];
  const int64_t nout = numel(kept), nin = numel(shape);
  const int64_t count = nout ? nin / nout : 0;
  const bool is_max = function == "max";
  std::fill(out, out + nout, is_max ? -std::numeric_limits<float>::infinity() : 0.0f);
  const auto ist = strides_of(shape);
  // Serial over the input (reductions of inference graphs are small); exact and simple.
  for (int64_t i = 0; i < nin; ++i) {
    int64_t o = 0;
    for (size_t d = 0; d < rank; ++d)
      o += (i / ist[d]) % shape[d] * ost[d];
    out[o] = is_max ? std::max(out[o], in[i]) : out[o] + in[i];
  }
  if (function == "mean" && count > 0)
    for (int64_t i = 0; i < nout; ++i)
      out[i] /= float(count);
}

} // namespace perfmodel::kernels::cpu
