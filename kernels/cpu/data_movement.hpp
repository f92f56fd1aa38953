// Ops that only move data: concat, split, slice, transpose, gather, embedding, plain copy.
#pragma once

#include <cstdint>
#include <vector>

#include "perfmodel/graph.hpp"

namespace perfmodel::kernels::cpu {

/// Copies n floats, split across threads (the generic op and the memcpy microbenchmark).
void parallel_copy(const float *in, float *out, int64_t n);

/// Concatenates inputs along `axis` (all other dims equal) into out.
void concat(const std::vector<const float *> &inputs, const std::vector<Shape> &shapes,
            int64_t axis, float *out);
/// Splits `in` along `axis` into outputs of the given shapes.
void split(const float *in, const Shape &shape, int64_t axis, const std::vector<float *> &outputs,
           const std::vector<Shape> &shapes);

/// out = in[starts[d] : : steps[d]] per dim, out_shape given (steps may be negative).
void slice(const float *in, const Shape &shape, const std::vector<int64_t> &starts,
           const std::vector<int64_t> &steps, const Shape &out_shape, float *out);

/// out = in.permute(perm): out dim d is in dim perm[d].
void transpose(const float *in, const Shape &shape, const std::vector<int64_t> &perm, float *out);

/// numpy take: out = take(in, indices, axis); indices are stored as floats and wrapped into
/// range (negative from the end, then modulo) so random data never reads out of bounds.
void gather(const float *in, const Shape &shape, int64_t axis, const float *indices,
            int64_t num_indices, float *out);

/// out[i, :] = table[indices[i], :], table [rows x dim]; indices wrapped like gather().
void embedding(const float *table, int64_t rows, int64_t dim, const float *indices,
               int64_t num_indices, float *out);

/// An index stored as float, wrapped into [0, size).
int64_t wrap_index(float v, int64_t size);

} // namespace perfmodel::kernels::cpu
