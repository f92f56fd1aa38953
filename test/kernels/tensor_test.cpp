// Tensor allocation: random fill in range and reproducible, zero fill, strides, alignment.
#include <doctest/doctest.h>

#include <cstdint>

#include "perfmodel/kernels/cpu/tensor.hpp"

using namespace perfmodel::kernels::cpu;

TEST_CASE("random tensors are reproducible, in range and aligned") {
  const Tensor a = random_tensor({3, 4, 5}, 42, -2.0f, 3.0f),
               b = random_tensor({3, 4, 5}, 42, -2.0f, 3.0f);
  CHECK(a.size() == 60);
  CHECK(std::equal(a.ptr(), a.ptr() + 60, b.ptr()));
  for (int64_t i = 0; i < 60; ++i) {
    CHECK(a.ptr()[i] >= -2.0f);
    CHECK(a.ptr()[i] < 3.0f);
  }
  CHECK(reinterpret_cast<uintptr_t>(a.ptr()) % 16 == 0);
  const Tensor z = zero_tensor({7});
  for (int64_t i = 0; i < 7; ++i)
    CHECK(z.ptr()[i] == 0.0f);
  CHECK(zero_tensor({0}).data->size() == 1); // empty tensors still own a valid pointer
}

TEST_CASE("row-major strides") {
  CHECK(strides_of({2, 3, 4}) == std::vector<int64_t>{12, 4, 1});
  CHECK(strides_of({5}) == std::vector<int64_t>{1});
  CHECK(strides_of({}).empty());
}
