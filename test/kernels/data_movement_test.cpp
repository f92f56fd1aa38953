// Concat, split, slice, transpose, gather and embedding against index arithmetic.
#include <doctest/doctest.h>

#include "kernels/cpu/data_movement.hpp"
#include "perfmodel/kernels/cpu/tensor.hpp"

using namespace perfmodel::kernels::cpu;

namespace {

std::vector<float> iota(size_t n, float start = 0) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = start + float(i);
  return v;
}

} // namespace

TEST_CASE("concat along axis 1 and split back") {
  auto a = iota(2 * 2 * 3), b = iota(2 * 1 * 3, 100);
  std::vector<float> out(2 * 3 * 3);
  concat({a.data(), b.data()}, {{2, 2, 3}, {2, 1, 3}}, 1, out.data());
  CHECK(out[0] == 0);
  CHECK(out[6] == 100); // first row of b after a's two rows
  CHECK(out[9] == 6);   // second batch starts with a's batch 1
  std::vector<float> a2(a.size()), b2(b.size());
  split(out.data(), {2, 3, 3}, 1, {a2.data(), b2.data()}, {{2, 2, 3}, {2, 1, 3}});
  CHECK(a2 == a);
  CHECK(b2 == b);
}

TEST_CASE("slice with steps, including negative ones") {
  auto x = iota(4 * 5); // [4, 5]
  std::vector<float> out(2 * 2);
  slice(x.data(), {4, 5}, {1, 0}, {2, 3}, {2, 2}, out.data()); // rows 1,3 cols 0,3
  CHECK(out == std::vector<float>{5, 8, 15, 18});
  std::vector<float> rev(5);
  slice(x.data(), {4, 5}, {0, 4}, {1, -1}, {1, 5}, rev.data());
  CHECK(rev == std::vector<float>{4, 3, 2, 1, 0});
}

TEST_CASE("transpose by a permutation") {
  auto x = iota(2 * 3 * 4); // [2, 3, 4]
  std::vector<float> out(24);
  transpose(x.data(), {2, 3, 4}, {2, 0, 1}, out.data()); // -> [4, 2, 3]
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k)
        CHECK(out[(i * 2 + j) * 3 + k] == x[(j * 3 + k) * 4 + i]);
}

TEST_CASE("gather and embedding wrap indices into range") {
  auto table = iota(5 * 3); // [5, 3]
  std::vector<float> idx{4, 0, -1, 7}, out(4 * 3);
  embedding(table.data(), 5, 3, idx.data(), 4, out.data());
  CHECK(out[0] == 12); // row 4
  CHECK(out[3] == 0);  // row 0
  CHECK(out[6] == 12); // -1 -> row 4
  CHECK(out[9] == 6);  // 7 -> row 2
  std::vector<float> cols(5 * 2), ci{2, 0};
  gather(table.data(), {5, 3}, 1, ci.data(), 2, cols.data()); // columns 2 and 0
  CHECK(cols[0] == 2);
  CHECK(cols[1] == 0);
  CHECK(cols[2] == 5);
  CHECK(wrap_index(-6.0f, 5) == 4);
}

TEST_CASE("parallel_copy copies everything") {
  Tensor a = random_tensor({300000}, 9), b = zero_tensor({300000});
  parallel_copy(a.ptr(), b.ptr(), a.size());
  CHECK(std::equal(a.ptr(), a.ptr() + a.size(), b.ptr()));
}
