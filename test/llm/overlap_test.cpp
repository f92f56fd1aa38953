// The gradient reduction overlapped with the backward pass, against a bucket-by-bucket
// simulation of the same schedule and hand-computed cases, and in the training step.
#include <doctest/doctest.h>

#include <algorithm>

#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/overlap.hpp"
#include "perfmodel/llm/parallel_train.hpp"

using namespace perfmodel;
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

TEST_CASE("overlap: --overlap-grad-reduce takes the hidden dp reduction out of the step") {
  const LlmConfig c = read_llm_config(resolve_llm_config("llama-2-7b"));
  const HwSpec hw = io::load_hw("a100");
  TrainOptions o;
  o.split = ParallelSplit{2, 2, 4, 1, false, 1};
  o.global_batch = 64;
  o.microbatch = 2;
  o.seq = 2048;
  const TrainResult plain = train_parallel(c, hw, o);
  CHECK(plain.comm_overlapped == 0);
  o.overlap_grad_reduce = true;
  const TrainResult over = train_parallel(c, hw, o);
  double reduce = 0; // the dp all-reduce of the gradients, as the step's lines price it
  for (const CommLine &l : plain.comm)
    if (l.kind == "dp")
      reduce += l.seconds;
  REQUIRE(reduce > 0);
  CHECK(over.comm_overlapped > 0);
  CHECK(over.comm_overlapped < reduce); // the last layer's bucket stays exposed
  // the rule, with the last microbatch's backward (twice its forward) and a bucket per layer
  const double fwd = double(c.layers / 2) * plain.times.layer_fwd + plain.times.ends_fwd;
  const double recompute = double(c.layers / 2) * plain.times.attention_core_fwd; // selective
  CHECK(over.comm_overlapped ==
        doctest::Approx(overlap_grad_reduce(reduce, 2 * fwd + recompute, c.layers / 2).hidden));
  CHECK(over.comm_exposed == doctest::Approx(plain.comm_exposed - over.comm_overlapped));
  CHECK(over.step == doctest::Approx(plain.step - over.comm_overlapped));
  // one replica: nothing to reduce, nothing hidden
  o.split = ParallelSplit{2, 2, 1, 1, false, 1};
  CHECK(train_parallel(c, hw, o).comm_overlapped == 0);
}
