// Relative comparison of doubles for tests. doctest's default Approx compares with
// |a - b| < epsilon * (scale + max(|a|, |b|)) where scale is 1: any two values below about
// 1e-5 (seconds of small kernels, joules) compare equal, so a CHECK on them cannot fail.
// rel() drops the absolute part: only the relative tolerance remains.
#pragma once

#include <doctest/doctest.h>

#include <limits>

/// Approx(v) with scale 0: equal when |a - v| < eps * max(|a|, |v|). Never equal to 0 for
/// v = 0: compare zero exactly instead.
inline doctest::Approx rel(double v, double eps = std::numeric_limits<float>::epsilon() * 100) {
  return doctest::Approx(v).scale(0).epsilon(eps);
}
