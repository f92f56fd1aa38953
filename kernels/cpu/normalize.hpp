// Batch norm (inference), layer norm, softmax and reductions, fp32, split across threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfmodel/graph.hpp"

namespace perfmodel::kernels::cpu {

/// y = x * scale[c] + shift[c] over [n, c, inner]: inference batch norm with
/// scale = gamma / sqrt(var + eps), shift = beta - mean * scale folded beforehand.
void batch_norm(int64_t n, int64_t c, int64_t inner, const float *in, const float *scale,
                const float *shift, float *out);
/// Folds gamma, beta, running mean and variance into scale and shift (done once, not timed).
void fold_batch_norm(int64_t c, const float *gamma, const float *beta, const float *mean,
                     const float *var, float eps, float *scale, float *shift);

/// Normalises each of `rows` rows of `cols` values: (x - mean) / sqrt(var + eps) * g + b
/// (g, b may be null: no affine).
void layer_norm(int64_t rows, int64_t cols, const float *in, const float *gamma, const float *beta,
                float eps, float *out);

/// Softmax over the middle dim of [outer, dim, inner].
void softmax(int64_t outer, int64_t dim, int64_t inner, const float *in, float *out);

/// Reduces `in` of `shape` over `axes` (sorted, non-negative) with mean, sum or max; the output
/// holds the kept dims in order (keepdims only changes the shape, not the data).
void reduce(const std::string &function, const Shape &shape, const std::vector<int64_t> &axes,
            const float *in, float *out);

} // namespace perfmodel::kernels::cpu
