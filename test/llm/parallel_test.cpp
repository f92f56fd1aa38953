// Many devices: splits and their errors, sharded configs, group placement, serving
// communication and the training memory of Korthikanti et al. 2022 (docs/parallel.md).
#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/parallel_train.hpp"

using namespace perfmodel;
using namespace perfmodel::llm;

namespace {

LlmConfig model(const std::string &name) { return read_llm_config(resolve_llm_config(name)); }
LlmConfig gpt(const std::string &name) {
  return read_llm_config(PERFMODEL_TEST_DATA "/megatron/" + name + ".json");
}
std::string error_of(const LlmConfig &c, const ParallelSplit &s) {
  try {
    check_split(c, s);
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("parallel: splits the model does not allow name the option") {
  const LlmConfig l7 = model("llama-2-7b"), l70 = model("llama-3-70b"), mx = model("mixtral-8x7b");
  CHECK(error_of(l7, {3, 1, 1, 1, false, 1}) ==
        "perfmodel: error: --tp 3 does not divide the model's 32 attention heads (llama-2-7b)");
  CHECK(error_of(l70, {16, 1, 1, 1, false, 1}).empty()); // 8 KV heads, each on 2 devices
  CHECK(error_of(l7, {1, 3, 1, 1, false, 1}) ==
        "perfmodel: error: --pp 3 does not divide the model's 32 layers (llama-2-7b)");
  CHECK(error_of(l7, {1, 4, 1, 1, false, 3}) == "perfmodel: error: --pp x --interleave 12 does not "
                                                "divide the model's 32 layers (llama-2-7b)");
  CHECK(error_of(l7, {1, 1, 1, 2, false, 1}) ==
        "perfmodel: error: --ep 2: llama-2-7b has no experts (a dense MLP)");
  CHECK(error_of(mx, {1, 1, 1, 8, false, 1}) ==
        "perfmodel: error: --ep 8 leaves 1 of the 8 experts on each device, fewer than the 2 each "
        "token is routed to");
  CHECK(error_of(mx, {1, 1, 1, 4, false, 1}).empty());
  CHECK(error_of(l7, {1, 1, 1, 1, true, 1}).find("needs --tp above 1") != std::string::npos);
}

TEST_CASE("parallel: one tensor-parallel rank's config (Megatron's split)") {
  const LlmConfig d = shard_config(model("llama-3-70b"), {8, 4, 1, 1, false, 1}, 20);
  CHECK(d.heads == 8);
  CHECK(d.kv_heads == 1);
  CHECK(d.intermediate == 3584);
  CHECK(d.vocab == 16128); // 128256 padded to a multiple of 1024, / 8
  CHECK(d.layers == 20);
  CHECK(shard_config(model("llama-3-70b"), {16, 1, 1, 1, false, 1}, 1).kv_heads == 1);
  CHECK(shard_config(model("mixtral-8x7b"), {2, 1, 1, 4, false, 1}, 1).experts == 2);
}

TEST_CASE("parallel: groups sit tp fastest on nodes of 8") {
  CHECK(group_at(8, 1, 8).per_node == 8);
  CHECK(group_at(16, 1, 8).per_node == 8);
  CHECK(group_at(4, 2, 8).per_node == 4);
  CHECK(group_at(4, 8, 8).per_node == 1);
  CHECK(group_at(2, 4, 8).per_node == 2);
  CHECK(group_at(1, 1, 8).size == 1);
}

TEST_CASE("parallel: stage parameters: the layers of a stage and the larger end") {
  const LlmConfig c = gpt("gpt3-175b");
  const int64_t h = c.hidden, v = 51200 / 8;
  // per layer, tp 8: QKV and output (4h^2 / 8 + 3h/8 + h), MLP (8h^2 / 8 + 4h/8 + h), 2 norms
  const int64_t layer = 4 * h * h / 8 + 3 * h / 8 + h + 8 * h * h / 8 + 4 * h / 8 + h + 4 * h;
  const int64_t embed = v * h + 2048 * h;
  CHECK(stage_parameters(c, {8, 8, 1, 1, false, 1}) == 12 * layer + embed);
  // one stage: the embedding (tied head) and the final norm
  CHECK(stage_parameters(c, {8, 1, 1, 1, false, 1}) == 96 * layer + embed + 2 * h);
}

TEST_CASE("parallel: activation memory per layer: Korthikanti et al. 2022 Table 2") {
  const LlmConfig c = gpt("gpt3-175b"); // a = 96, h = 12288, F = 4h
  TrainOptions o;
  o.split = {8, 8, 1, 1, false, 1};
  o.seq = 2048;
  o.microbatch = 1;
  o.global_batch = 64;
  o.attention = Attention::eager;
  const double sbh = 2048.0 * 12288;
  o.recompute = Recompute::none; // sbh (10 + 24/t + 5as/(ht)) = 23 sbh at t = 8
  CHECK(train_memory(c, o, 64).activations_per_layer == rel(23 * sbh));
  o.split.sequence_parallel = true; // sbh/t (34 + 5as/h) = (34 + 80) / 8 sbh
  CHECK(train_memory(c, o, 64).activations_per_layer == rel(114.0 / 8 * sbh));
  o.recompute = Recompute::selective; // 34 sbh / t
  CHECK(train_memory(c, o, 64).activations_per_layer == rel(34.0 / 8 * sbh));
  o.split.sequence_parallel = false; // sbh (10 + 24/t)
  CHECK(train_memory(c, o, 64).activations_per_layer == rel(13 * sbh));
  o.recompute = Recompute::full; // 2 sbh
  CHECK(train_memory(c, o, 64).activations_per_layer == rel(2 * sbh));
  // the first stage keeps p microbatches of L/p layers: L layers, x (1 + (p-1)/(p v)) when
  // interleaved; plus the embedding dropout's sbhp/t
  const TrainMemory m = train_memory(c, o, 64);
  CHECK(m.in_flight == 96);
  CHECK(m.activations == rel(96 * 2 * sbh + sbh * 8 / 8));
  o.split.interleave = 3;
  CHECK(train_memory(c, o, 64).in_flight == rel(96 * (1 + 7.0 / 24)));
  CHECK(train_memory(c, o, 4).in_flight == rel(12 * 4 * (1 + 7.0 / 24))); // 4 microbatches
  // flash attention never stores the scores: the 5as/h term goes
  o.split.interleave = 1;
  o.recompute = Recompute::none;
  o.attention = Attention::flash;
  CHECK(train_memory(c, o, 64).activations_per_layer == rel(13 * sbh));
  // Megatron's 18 bytes per parameter; ZeRO shards them over dp
  const double p = double(stage_parameters(c, o.split));
  CHECK(m.weights + m.gradients + m.optimizer == rel(18 * p));
  o.split.dp = 4;
  o.zero = 1;
  const TrainMemory z1 = train_memory(c, o, 16);
  CHECK(z1.optimizer == rel(12 * p / 4));
  CHECK(z1.gradients == rel(4 * p));
  o.zero = 3;
  CHECK(train_memory(c, o, 16).weights == rel(2 * p / 4));
}

TEST_CASE("parallel serve: two all-reduces per layer over tp, pp hand-offs, memory per device") {
  const LlmConfig c = model("llama-2-7b");
  const HwSpec hw = io::load_hw("h100");
  ParallelServeOptions o;
  o.serve.batch = 1;
  o.serve.prompt = 128;
  o.serve.generate = 4;
  o.split = {2, 2, 1, 1, false, 1};
  const ParallelServeResult r = serve_parallel(c, hw, o);
  CHECK(r.devices == 4);
  REQUIRE(r.prefill_comm.size() == 2);
  const CommLine &tp = r.prefill_comm[0];
  CHECK(tp.kind == "tp");
  CHECK(tp.count == 64);
  CHECK(tp.bytes == 128.0 * 4096 * 2);
  CHECK(tp.level == "nvlink");
  CHECK(tp.seconds == rel(64 * (2 * 1e-6 + 128.0 * 4096 * 2 / 450e9)));
  const CommLine &pp = r.prefill_comm[1];
  CHECK(pp.collective == Collective::send_recv);
  CHECK(pp.count == 1);
  CHECK(pp.seconds == rel(1e-6 + 128.0 * 4096 * 2 / 450e9));
  CHECK(r.ttft == rel(r.device.ttft + tp.seconds + pp.seconds));
  CHECK(r.e2e == rel(r.device.e2e + r.prefill_comm_seconds + 3 * r.decode_comm_seconds));
  CHECK(r.weight_bytes_device == 2 * stage_parameters(c, o.split));
  // the KV cache of 16 layers and 16 KV heads: 2 x 16 x 16 x 128 x 2 B per token
  CHECK(r.kv_cache_bytes_device == (128 + 4) * 2 * 16 * 16 * 128 * 2);
  // a batch the ep ranks do not divide
  ParallelServeOptions e = o;
  e.split = {1, 1, 1, 2, false, 1};
  e.serve.batch = 3;
  CHECK_THROWS_WITH_AS(
      serve_parallel(model("mixtral-8x7b"), hw, e),
      "perfmodel: error: --batch 3 is not divisible by --ep 2 (each expert-parallel rank "
      "serves batch / ep)",
      InputError);
}

TEST_CASE("parallel serve: MoE all-to-all over ep; a split beyond the interconnect fails") {
  const HwSpec hw = io::load_hw("h100");
  ParallelServeOptions o;
  o.serve.batch = 4;
  o.serve.prompt = 64;
  o.serve.generate = 2;
  o.split = {1, 1, 1, 4, false, 1};
  const ParallelServeResult r = serve_parallel(model("mixtral-8x7b"), hw, o);
  REQUIRE(r.prefill_comm.size() == 1);
  CHECK(r.prefill_comm[0].collective == Collective::all_to_all);
  CHECK(r.prefill_comm[0].count == 64);                  // dispatch and combine, 32 layers
  CHECK(r.prefill_comm[0].bytes == 64.0 * 4096 * 2 * 2); // 1 sequence per rank, k = 2
  HwSpec node_only = hw;
  node_only.interconnect.levels.pop_back(); // no network
  o.split = {16, 1, 1, 1, false, 1};
  o.serve.batch = 1;
  CHECK_THROWS_WITH_AS(serve_parallel(model("llama-3-70b"), node_only, o),
                       doctest::Contains("--tp: a group of 16 devices reaches over 16 devices"),
                       InputError);
}

TEST_CASE("parallel train: the step is the sum of its parts; errors name the option") {
  const LlmConfig c = gpt("gpt3-175b");
  const HwSpec hw = io::load_hw("a100");
  TrainOptions o;
  o.split = {8, 8, 2, 1, true, 1};
  o.global_batch = 32;
  o.microbatch = 1;
  o.seq = 2048;
  o.recompute = Recompute::selective;
  o.attention = Attention::eager;
  const TrainResult r = train_parallel(c, hw, o);
  CHECK(r.devices == 128);
  CHECK(r.microbatches == 16);
  CHECK(r.step == rel(r.compute + r.recompute + r.comm_exposed + r.bubble + r.optimizer));
  CHECK(r.tokens_per_second == rel(32 * 2048 / r.step));
  CHECK(r.compute == rel(16 * 3 * (12 * r.times.layer_fwd + r.times.ends_fwd)));
  CHECK(r.recompute == rel(16 * 12 * r.times.attention_core_fwd));
  CHECK(r.mfu > 0);
  CHECK(r.mfu < 1);
  double comm = 0;
  for (const auto &l : r.comm)
    comm += l.seconds;
  CHECK(r.comm_exposed == rel(comm));
  // 2 x 24 x m all-gathers and reduce-scatters over tp per step (4 per layer, 12 layers)
  CHECK(r.comm.at(0).count == 16 * 12 * 4);
  // dp gradients: the stage's parameters in bf16
  bool dp = false;
  for (const auto &l : r.comm)
    if (l.kind == "dp") {
      dp = true;
      CHECK(l.bytes == 2.0 * double(stage_parameters(c, o.split)));
      CHECK(l.group.per_node == 1); // dp ranks are 8 apart: one per node
    }
  CHECK(dp);
  TrainOptions bad = o;
  bad.global_batch = 33;
  CHECK_THROWS_WITH_AS(
      train_parallel(c, hw, bad),
      "perfmodel: error: --global-batch 33 is not divisible by --dp x --microbatch (2)",
      InputError);
  bad = o;
  bad.zero = 4;
  CHECK_THROWS_AS(train_parallel(c, hw, bad), InputError);
}

TEST_CASE("parallel train: pipeline hand-offs send 1/t per rank (Narayanan et al. 2021 4.1)") {
  const LlmConfig c = gpt("gpt3-175b");
  const HwSpec hw = io::load_hw("a100");
  TrainOptions o;
  o.split = {8, 8, 1, 1, false, 3};
  o.global_batch = 16;
  o.microbatch = 1;
  o.seq = 2048;
  o.recompute = Recompute::full;
  const double act = 2048.0 * 12288 * 2, hops = 2 * (3 * 16 + 8 - 1);
  auto pp_lines = [&](const TrainResult &r) {
    std::vector<CommLine> out;
    for (const auto &l : r.comm)
      if (l.kind == "pp")
        out.push_back(l);
    return out;
  };
  // without sequence parallelism: each of the 8 ranks sends its eighth over the network, the
  // receiving stage all-gathers the whole tensor over NVLink
  auto lines = pp_lines(train_parallel(c, hw, o));
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].collective == Collective::send_recv);
  CHECK(lines[0].bytes == act / 8);
  CHECK(lines[0].level == "network");
  CHECK(lines[0].count == int64_t(hops));
  CHECK(lines[1].collective == Collective::all_gather);
  CHECK(lines[1].bytes == act);
  CHECK(lines[1].level == "nvlink");
  CHECK(lines[1].count == int64_t(hops));
  // with it the activations are split along the sequence already: no all-gather
  o.split.sequence_parallel = true;
  o.recompute = Recompute::selective;
  lines = pp_lines(train_parallel(c, hw, o));
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].bytes == act / 8);
}
