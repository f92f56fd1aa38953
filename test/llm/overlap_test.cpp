// The gradient reduction overlapped with the backward pass, against a bucket-by-bucket
// simulation of the same schedule and hand-computed cases.
#include <doctest/doctest.h>

#include <algorithm>

#include "perfmodel/llm/overlap.hpp"

using namespace perfmodel::llm;

namespace {

// Bucket i (0-based) is ready at (i + 1) backward / k; its reduction starts when it is ready
// and the link is free, and takes comm / k. The step waits from the backward's end to the
// last reduction's end.
double simulated_exposed(double comm, double backward, int k) {
  double link_free = 0;
  for (int i = 0; i < k; ++i)
    link_free = std::max(link_free, (i + 1) * backward / k) + comm / k;
  return link_free - backward;
}

} // namespace

TEST_CASE("overlap: a reduction shorter than the backward hides all but its last bucket") {
  // 32 buckets, 10 ms of reduction behind 100 ms of backward: the last bucket's 10/32 ms shows
  const OverlapSplit s = overlap_grad_reduce(10e-3, 100e-3, 32);
  CHECK(s.exposed == doctest::Approx(10e-3 / 32));
  CHECK(s.hidden == doctest::Approx(10e-3 * 31 / 32));
}

TEST_CASE("overlap: a reduction longer than the backward shows what the backward cannot hide") {
  // 4 buckets, 100 ms of reduction, 40 ms of backward: starts at 10 ms, ends at 110 ms
  const OverlapSplit s = overlap_grad_reduce(100e-3, 40e-3, 4);
  CHECK(s.exposed == doctest::Approx(70e-3));
  CHECK(s.hidden == doctest::Approx(30e-3));
}

TEST_CASE("overlap: the closed form equals the bucket-by-bucket schedule") {
  for (int k : {1, 2, 7, 80})
    for (double comm : {1e-4, 1e-2, 0.3, 2.0})
      for (double backward : {0.0, 1e-3, 0.1, 1.5}) {
        const OverlapSplit s = overlap_grad_reduce(comm, backward, k);
        CHECK(s.exposed + s.hidden == doctest::Approx(comm));
        CHECK(s.exposed == doctest::Approx(simulated_exposed(comm, backward, k)));
      }
  CHECK(overlap_grad_reduce(0, 1, 8).exposed == 0);
}
