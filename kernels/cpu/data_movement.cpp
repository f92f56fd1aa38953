// Data movement kernels: blocked copies split across threads.
#include "kernels/cpu/data_movement.hpp"

#include <cmath>
#include <cstring>

#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"

namespace perfmodel::kernels::cpu {

namespace {

constexpr int64_t kCopyGrain = 1 << 15;

// outer = product of dims before axis, inner = product after it.
void outer_inner(const Shape &s, int64_t axis, int64_t &outer, int64_t &inner) {
  outer = 1;
  inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d) {
    if (d < axis)
      outer *= s[d];
    if (d > axis)
      inner *= s[d];
  }
}

} // namespace

int64_t wrap_index(float v, int64_t size) {
  if (size <= 0)
    return 0;
  int64_t i = static_cast<int64_t>(std::floor(v));
  i %= size;
  return i < 0 ? i + size : i;
}

void parallel_copy(const float *in, float *out, int64_t n) {
  parallel_for(n, kCopyGrain, [&](int64_t b, int64_t e) {
    std::memcpy(out + b, in + b, sizeof(float) * (e - b));
  });
}

void concat(const std::vector<const float *> &inputs, const std::vector<Shape> &shapes,
            int64_t axis, float *out) {
  int64_t outer, inner, total_axis = 0;
  outer_inner(shapes.at(0), axis, outer, inner);
  for (const auto &s : shapes)
    total_axis += s.at(axis);
  parallel_for(outer, 1, [&](int64_t o0, int64_t o1) {
    for (int64_t o = o0; o < o1; ++o) {
      float *dst = out + o * total_axis * inner;
      for (size_t i = 0; i < inputs.size(); ++i) {
        const int64_t len = shapes[i][axis] * inner;
        std::memcpy(dst, inputs[i] + o * len, sizeof(float) * len);
        dst += len;
      }
    }
  });
}

void split(const float *in, const Shape &shape, int64_t axis, const std::vector<float *> &outputs,
           const std::vector<Shape> &shapes) {
  int64_t outer, inner;
  outer_inner(shape, axis, outer, inner);
  parallel_for(outer, 1, [&](int64_t o0, int64_t o1) {
    for (int64_t o = o0; o < o1; ++o) {
      const float *src = in + o * shape[axis] * inner;
      for (size_t i = 0; i < outputs.size(); ++i) {
        const int64_t len = shapes[i][axis] * inner;
        std::memcpy(outputs[i] + o * len, src, sizeof(float) * len);
        src += len;
      }
    }
  });
}

void slice(const float *in, const Shape &shape, const std::vector<int64_t> &starts,
           const std::vector<int64_t> &steps, const Shape &out_shape, float *out) {
  const auto ist = strides_of(shape), ost = strides_of(out_shape);
  const size_t rank = shape.size();
  const int64_t n = numel(out_shape);
  parallel_for(n, kCopyGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      int64_t off = 0;
      for (size_t d = 0; d < rank; ++d)
        off += (starts[d] + (i / ost[d]) % out_shape[d] * steps[d]) * ist[d];
      out[i] = in[off];
    }
  });
}

void transpose(const float *in, const Shape &shape, const std::vector<int64_t> &perm, float *out) {
  const size_t rank = shape.size();
  const auto ist = strides_of(shape);
  Shape oshape(rank);
  std::vector<int64_t> src_st(rank); // input stride of each output dim
  for (size_t d = 0; d < rank; ++d) {
    oshape[d] = shape[perm[d]];
    src_st[d] = ist[perm[d]];
  }
  const auto ost = strides_of(oshape);
  const int64_t n = numel(shape);
  parallel_for(n, kCopyGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      int64_t off = 0;
      for (size_t d = 0; d < rank; ++d)
        off += (i / ost[d]) % oshape[d] * src_st[d];
      out[i] = in[off];
    }
  });
}

void gather(const float *in, const Shape &shape, int64_t axis, const float *indices,
            int64_t num_indices, float *out) {
  int64_t outer, inner;
  outer_inner(shape, axis, outer, inner);
  const int64_t dim = shape.at(axis);
  parallel_for(outer * num_indices, 1, [&](int64_t q0, int64_t q1) {
    for (int64_t q = q0; q < q1; ++q) {
      const int64_t o = q / num_indices, j = q % num_indices;
      const int64_t idx = wrap_index(indices[j], dim);
      std::memcpy(out + q * inner, in + (o * dim + idx) * inner, sizeof(float) * inner);
    }
  });
}

void embedding(const float *table, int64_t rows, int64_t dim, const float *indices,
               int64_t num_indices, float *out) {
  gather(table, Shape{rows, dim}, 0, indices, num_indices, out);
}

} // namespace perfmodel::kernels::cpu
