// The one reader of a pool's window (src/core/pool_window.cpp).
#include <doctest/doctest.h>

#include <vector>

#include "perfmodel/error.hpp"
#include "perfmodel/pool_window.hpp"

using namespace perfmodel;

TEST_CASE("pool_window reads a pool's attributes as shape inference does") {
  Attributes a;
  a.set("kernel", int64_t(3));
  a.set("pad", std::vector<int64_t>{1, 0});
  a.set("dilation", int64_t(2));
  const PoolWindow p = pool_window({1, 8, 20, 30}, {1, 8, 8, 13}, a);
  CHECK(p.h == 20);
  CHECK(p.w == 30);
  CHECK(p.oh == 8);
  CHECK(p.ow == 13);
  CHECK(p.kh == 3);
  CHECK(p.kw == 3);
  CHECK(p.sh == 3); // the stride defaults to the kernel
  CHECK(p.sw == 3);
  CHECK(p.pad_top == 1);
  CHECK(p.pad_left == 0);
  CHECK(p.dh == 2);
  CHECK(p.dw == 2);
  a.set("stride", std::vector<int64_t>{1, 2});
  CHECK(pool_window({1, 8, 20, 30}, {1, 8, 16, 13}, a).sw == 2);
  a.set("kernel", int64_t(0));
  CHECK_THROWS_AS(pool_window({1, 8, 20, 30}, {1, 8, 8, 13}, a), InputError);
  a.set("kernel", int64_t(3));
  CHECK_THROWS_AS(pool_window({8, 20, 30}, {8, 8, 13}, a), InputError); // not NCHW
}
