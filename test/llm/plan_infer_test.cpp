// The serving plan search: every split accounted for, each ranked split what serve_parallel
// gives for its microbatch, the ranking and the frontier, threads agree, bad input.
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/plan_infer.hpp"

using namespace perfmodel;
using namespace perfmodel::llm;

namespace {

InferPlanOptions options(int64_t gpus, int64_t batch) {
  InferPlanOptions o;
  o.gpus = gpus;
  o.batch = batch;
  o.prompt = 256;
  o.generate = 4;
  o.dtype = DType::fp16;
  o.threads = 1;
  return o;
}

int64_t dropped_count(const InferPlanResult &r) {
  int64_t n = 0;
  for (const auto &[why, k] : r.dropped)
    n += k;
  return n;
}

} // namespace

TEST_CASE("plan infer: every (tp, pp, dp) of 8 GPUs is tried; a split is serve_parallel's") {
  const LlmConfig c = read_llm_config(resolve_llm_config("llama-3-8b"));
  const HwSpec hw = io::load_hw("h100");
  const InferPlanResult r = plan_inference(c, hw, options(8, 16));
  // tp 1: pp 1, 2, 4, 8; tp 2: pp 1, 2, 4; tp 4: pp 1, 2; tp 8: pp 1
  CHECK(r.enumerated == 10);
  CHECK(dropped_count(r) + int64_t(r.ranked.size()) == r.enumerated);
  REQUIRE(r.ranked.size() == 10); // 16 GB of weights fit an H100 on every split
  // one device pass per (tp, microbatch): tp 1 with micro 2, 4, 8, 16 (pp x dp = 8), ...
  CHECK(r.device_shapes < r.enumerated);
  double lowest = 1e300;
  for (size_t i = 0; i < r.ranked.size(); ++i) {
    const InferCandidate &k = r.ranked[i];
    const ParallelSplit &s = k.split;
    CHECK(s.tp * s.pp * s.ep * s.dp == 8);
    CHECK(k.replica_batch * s.dp == 16);
    CHECK(k.microbatch * s.pp == k.replica_batch);
    if (i > 0)
      CHECK(r.ranked[i - 1].tokens_per_second_per_device >= k.tokens_per_second_per_device);
    CHECK(k.frontier == (k.tpot < lowest));
    lowest = std::min(lowest, k.tpot);
    // the same split served directly: one replica of pp microbatches in flight
    ParallelServeOptions po;
    po.serve.batch = k.microbatch;
    po.serve.prompt = 256;
    po.serve.generate = 4;
    po.serve.dtype = DType::fp16;
    po.split = ParallelSplit{s.tp, s.pp, 1, s.ep, false, 1};
    const ParallelServeResult d = serve_parallel(c, hw, po);
    CHECK(k.ttft == rel(d.ttft));
    CHECK(k.tpot == rel(d.tpot_mean));
    CHECK(k.e2e == rel(d.e2e));
    CHECK(k.tokens_per_second == rel(double(s.dp) * d.tokens_per_second_pipelined));
    CHECK(k.tokens_per_second == rel(16.0 * 4 / d.e2e)); // every sequence of the deployment
    CHECK(k.tokens_per_second_per_device == rel(k.tokens_per_second / 8));
    CHECK(k.memory ==
          rel(double(d.weight_bytes_device) + double(s.pp) * double(d.kv_cache_bytes_device)));
    CHECK(k.comm == doctest::Approx(d.prefill_comm_seconds + 3 * d.decode_comm_seconds));
  }
  CHECK(r.ranked.front().frontier);
  // threads change nothing
  InferPlanOptions two = options(8, 16);
  two.threads = 2;
  const InferPlanResult r2 = plan_inference(c, hw, two);
  REQUIRE(r2.ranked.size() == r.ranked.size());
  for (size_t i = 0; i < r.ranked.size(); ++i)
    CHECK(r2.ranked[i].tokens_per_second == r.ranked[i].tokens_per_second);
}

TEST_CASE("plan infer: drops splits by reason: the batch, memory, the model's shape") {
  const HwSpec hw = io::load_hw("h100");
  const LlmConfig c = read_llm_config(resolve_llm_config("llama-3-70b"));
  // 141 GB of weights: tp 1 with pp 1 (8 replicas) does not fit an 80 GB H100
  const InferPlanResult r = plan_inference(c, hw, options(8, 8));
  CHECK(r.dropped.at("does not fit in memory") == 1);
  CHECK(dropped_count(r) + int64_t(r.ranked.size()) == r.enumerated);
  for (const InferCandidate &k : r.ranked)
    CHECK(k.memory <= hw.dram().capacity_bytes);
  // a batch of 2 leaves only the splits with dp x pp of 1 or 2
  const InferPlanResult b = plan_inference(c, hw, options(8, 2));
  CHECK(b.dropped.at("dp x pp x ep does not divide the batch") == 7);
  CHECK(b.ranked.size() == 3); // tp 8; tp 4 with pp 2; tp 4 with dp 2
  for (const InferCandidate &k : b.ranked)
    CHECK(2 % (k.split.dp * k.split.pp) == 0);
  // Mixtral: ep is searched; 8 experts with 2 per token allow ep 1, 2, 4 (not 8)
  const LlmConfig m = read_llm_config(resolve_llm_config("mixtral-8x7b"));
  const InferPlanResult e = plan_inference(m, hw, options(8, 16));
  CHECK(e.enumerated == 20); // (tp, pp) pairs with ep among the divisors of what is left
  CHECK(e.dropped.at("ep does not divide the experts") == 1);
  bool some_ep = false;
  for (const InferCandidate &k : e.ranked)
    some_ep = some_ep || k.split.ep > 1;
  CHECK(some_ep);
}

TEST_CASE("plan infer: bad input names the option") {
  const LlmConfig c = read_llm_config(resolve_llm_config("llama-3-8b"));
  const HwSpec hw = io::load_hw("h100");
  InferPlanOptions o = options(8, 16);
  o.batch = 0;
  CHECK_THROWS_WITH_AS(plan_inference(c, hw, o), doctest::Contains("--batch"), InputError);
  o = options(0, 16);
  CHECK_THROWS_WITH_AS(plan_inference(c, hw, o), doctest::Contains("--gpus"), InputError);
  o = options(8, 16);
  o.prompt = 8192;
  CHECK_THROWS_WITH_AS(plan_inference(c, hw, o),
                       doctest::Contains("max_position_embeddings (8192)"), InputError);
}

TEST_CASE("serve_parallel_from: the device's times give what serve_parallel gives") {
  const LlmConfig c = read_llm_config(resolve_llm_config("llama-3-8b"));
  const HwSpec hw = io::load_hw("h100");
  ParallelServeOptions o;
  o.serve.batch = 8;
  o.serve.prompt = 128;
  o.serve.generate = 8;
  o.split = ParallelSplit{4, 2, 1, 1, false, 1};
  const ParallelServeResult whole = serve_parallel(c, hw, o);
  ServeResult times; // only the times: the plan search keeps no graphs per split
  times.ttft = whole.device.ttft;
  times.tpot_mean = whole.device.tpot_mean;
  times.e2e = whole.device.e2e;
  const ParallelServeResult from = serve_parallel_from(c, hw, o, times);
  CHECK(from.ttft == whole.ttft);
  CHECK(from.tpot_mean == whole.tpot_mean);
  CHECK(from.e2e == whole.e2e);
  CHECK(from.total_bytes_device == whole.total_bytes_device);
  CHECK(from.max_batch == whole.max_batch);
  CHECK(from.tokens_per_second_pipelined == whole.tokens_per_second_pipelined);
  o.split.tp = 3; // the same checks as serve_parallel
  CHECK_THROWS_AS(serve_parallel_from(c, hw, o, times), InputError);
}
