// Tests of the event kinds' category table.
#include "perfmodel/trace/trace.hpp"

#include <doctest/doctest.h>

using namespace perfmodel::trace;

TEST_CASE("categories map to the plugin's event kinds, case-insensitively") {
  CHECK(kind_of_category("Operator") == EventKind::op);
  CHECK(kind_of_category("cpu_op") == EventKind::op);
  CHECK(kind_of_category("cuda_runtime") == EventKind::runtime);
  CHECK(kind_of_category("Kernel") == EventKind::kernel);
  CHECK(kind_of_category("gpu_memcpy") == EventKind::memcpy);
  CHECK(kind_of_category("Memset") == EventKind::memset);
  CHECK(kind_of_category("user_annotation") == EventKind::user_annotation);
  CHECK(kind_of_category("gpu_user_annotation") == EventKind::other);
  CHECK(kind_of_category("async") == EventKind::other);
  CHECK(to_string(EventKind::kernel) == "kernel");
}
