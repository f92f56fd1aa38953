// The shared relative comparison (test/test_approx.hpp) against doctest's default Approx.
#include <doctest/doctest.h>

#include "../test_approx.hpp"

TEST_CASE("rel compares small values relatively, where the default Approx cannot fail") {
  // The trap: with scale 1, anything below about 1e-5 equals anything else that small.
  CHECK(3e-10 == doctest::Approx(5e-6));
  CHECK_FALSE(3e-10 == rel(5e-6));
  CHECK_FALSE(5.1e-6 == rel(5e-6));
  CHECK(5e-6 * (1 + 1e-7) == rel(5e-6));
  CHECK(-2e-9 == rel(-2e-9));
  CHECK_FALSE(2e-9 == rel(-2e-9));
  // An explicit tolerance.
  CHECK(1.004e-6 == rel(1e-6, 0.01));
  CHECK_FALSE(1.02e-6 == rel(1e-6, 0.01));
  // Zero is never relatively equal to anything: compare zero exactly.
  CHECK_FALSE(0.0 == rel(0.0));
}
