// The plan search: every split accounted for, the ranking and the frontier, threads agree.
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/plan.hpp"

using namespace perfmodel;
using namespace perfmodel::llm;

TEST_CASE("plan: every split is ranked or dropped; ranking, frontier; threads agree") {
  const LlmConfig c = read_llm_config(resolve_llm_config("llama-2-7b"));
  const HwSpec hw = io::load_hw("h100");
  PlanOptions o;
  o.gpus = 16;
  o.global_batch = 32;
  o.seq = 4096;
  o.threads = 1;
  const PlanResult one = plan_training(c, hw, o);
  int64_t dropped = 0;
  for (const auto &[why, n] : one.dropped)
    dropped += n;
  CHECK(dropped + int64_t(one.ranked.size()) == one.enumerated);
  REQUIRE(one.ranked.size() > 10);
  double least = 1e300;
  for (size_t i = 0; i < one.ranked.size(); ++i) {
    const PlanCandidate &p = one.ranked[i];
    CHECK(p.fits);
    CHECK(p.memory <= hw.dram().capacity_bytes);
    CHECK(p.options.split.tp * p.options.split.pp * p.options.split.dp == 16);
    if (i > 0)
      CHECK(one.ranked[i - 1].step <= p.step);
    CHECK(p.frontier == (p.memory < least));
    least = std::min(least, p.memory);
  }
  CHECK(one.ranked.front().frontier);
  // the first split is what train_parallel gives for it
  TrainOptions t = one.ranked.front().options;
  CHECK(train_parallel(c, hw, t).step == rel(one.ranked.front().step));
  o.threads = 2;
  const PlanResult two = plan_training(c, hw, o);
  REQUIRE(two.ranked.size() == one.ranked.size());
  for (size_t i = 0; i < one.ranked.size(); ++i)
    CHECK(two.ranked[i].step == one.ranked[i].step);
  // a model that fits nowhere: all dropped for memory, none ranked
  o.gpus = 1;
  o.global_batch = 1;
  const PlanResult none = plan_training(read_llm_config(resolve_llm_config("llama-3-70b")), hw, o);
  CHECK(none.ranked.empty());
  CHECK(none.dropped.at("does not fit in memory") == none.enumerated);
  o.global_batch = 0;
  CHECK_THROWS_AS(plan_training(c, hw, o), InputError);
}
