// A pass on one block of each kind, and decode steps moved from one KV length to the next, give
// the whole graph's figures bit for bit (==, not approximately): every shipped config, both
// attention modes, a KV cache and weights in other types.
#include <doctest/doctest.h>

#include <tuple>
#include <vector>

#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/pass_eval.hpp"
#include "perfmodel/llm/serve.hpp"

using namespace perfmodel;
using namespace perfmodel::llm;

namespace {

// The whole graph of pass `s`, built anew and predicted as `llm` did before passes were reduced.
Totals whole_totals(const LlmConfig &c, const HwSpec &hw, const ServeOptions &o,
                    const PassShape &s) {
  const Graph g = build_graph(c, s, o.dtype, o.kv_dtype);
  std::vector<LayerCost> costs = pass_costs(g, c, s, o.attention);
  if (o.weights)
    apply_weight_format(g, o.dtype, *o.weights, costs);
  return predict(g, hw, PredictOptions{}, costs).totals;
}

void check_equal(const Totals &a, const Totals &b) {
  CHECK(a.predicted_seconds == b.predicted_seconds);
  CHECK(a.energy_joules == b.energy_joules);
  CHECK(a.energy_power_time_joules == b.energy_power_time_joules);
  CHECK(a.seconds_compute_bound == b.seconds_compute_bound);
  CHECK(a.seconds_memory_bound == b.seconds_memory_bound);
  CHECK(a.seconds_overhead_bound == b.seconds_overhead_bound);
  CHECK(a.cost.flops == b.cost.flops);
  CHECK(a.cost.macs == b.cost.macs);
  CHECK(a.cost.bytes() == b.cost.bytes());
  CHECK(a.cost.bytes_weights == b.cost.bytes_weights);
  CHECK(a.params == b.params);
  CHECK(a.layers == b.layers);
}

const char *const kShipped[] = {"llama-2-7b",  "llama-2-13b",     "llama-2-70b",  "llama-3-8b",
                                "llama-3-70b", "mistral-7b-v0.1", "mixtral-8x7b", "qwen2.5-7b",
                                "deepseek-v3", "gpt-j-6b",        "opt-13b",      "gpt2"};

} // namespace

TEST_CASE("llm pass_eval: the blocks kept, and the whole model's order over them") {
  const LlmConfig dense = read_llm_config(resolve_llm_config("llama-3-8b"));
  CHECK(reduced_layers(dense) == 1);
  const LlmConfig mixtral = read_llm_config(resolve_llm_config("mixtral-8x7b"));
  CHECK(reduced_layers(mixtral) == 1);
  const LlmConfig deepseek = read_llm_config(resolve_llm_config("deepseek-v3"));
  REQUIRE(deepseek.first_dense_layers == 3);
  CHECK(reduced_layers(deepseek) == 4); // three dense blocks, then the first MoE block
  LlmConfig every_other = mixtral;
  every_other.moe_layer_freq = 2; // MoE in the even blocks, dense in the odd ones
  CHECK(reduced_layers(every_other) == 2);

  // the order covers the whole graph's layers, with the same names but for the block number
  LlmConfig r = deepseek;
  r.layers = reduced_layers(deepseek);
  const PassShape s{Phase::prefill, 1, 4, 0};
  const Graph reduced = build_graph(r, s, DType::fp16);
  const Graph whole = build_graph(deepseek, s, DType::fp16);
  const std::vector<uint32_t> order = whole_order(reduced, deepseek);
  REQUIRE(order.size() == whole.layers.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const std::string &w = whole.layers[i].name, &k = reduced.layers[order[i]].name;
    const auto tail = [](const std::string &n) {
      return n.rfind("layers.", 0) == 0 ? n.substr(n.find('.', 7)) : n;
    };
    CHECK(tail(w) == tail(k));
    CHECK(whole.layers[i].op == reduced.layers[order[i]].op);
  }
}

TEST_CASE("llm pass_eval: every shipped config's passes equal the whole graph's, bit for bit") {
  const HwSpec hw = io::load_hw("h100");
  for (const char *name : kShipped) {
    CAPTURE(name);
    const LlmConfig c = read_llm_config(resolve_llm_config(name));
    for (int variant = 0; variant < 4; ++variant) {
      CAPTURE(variant);
      ServeOptions o;
      if (variant == 1)
        o.attention = Attention::eager;
      if (variant == 2)
        o.kv_dtype = DType::fp8;
      if (variant == 3)
        o.weights = WeightFormat{WeightType::int4, 64};
      const int64_t batch = 3, prompt = 37;
      const PassShape prefill{Phase::prefill, batch, prompt, 0};
      PassEval p(c, hw, o, prefill, false);
      check_equal(p.totals(), whole_totals(c, hw, o, prefill));
      CHECK(p.seconds() == p.totals().predicted_seconds);
      if (o.weights) {
        const Graph g = build_graph(c, prefill, o.dtype);
        CHECK(p.weight_bytes(o.dtype, *o.weights) == weight_bytes(g, o.dtype, *o.weights));
      }
      // a decode pass built at one KV length and moved up, back down and up again
      PassEval d(c, hw, o, PassShape{Phase::decode, batch, 1, prompt}, false);
      for (int64_t context : {prompt, prompt + 1, prompt + 70, int64_t(5), prompt + 2}) {
        CAPTURE(context);
        d.set_context(context);
        check_equal(d.totals(),
                    whole_totals(c, hw, o, PassShape{Phase::decode, batch, 1, context}));
      }
    }
  }
}

TEST_CASE("llm pass_eval: a whole decode pass moved between KV lengths predicts each anew") {
  const HwSpec hw = io::load_hw("h100");
  const LlmConfig c = read_llm_config(resolve_llm_config("mistral-7b-v0.1")); // a window
  ServeOptions o;
  PassEval d(c, hw, o, PassShape{Phase::decode, 2, 1, 4000}, true);
  for (int64_t context : {int64_t(4000), int64_t(4095), int64_t(4096), int64_t(9000)}) {
    d.set_context(context);
    check_equal(d.totals(), whole_totals(c, hw, o, PassShape{Phase::decode, 2, 1, context}));
  }
  const PassPrediction last = d.release();
  REQUIRE(last.graph);
  check_equal(last.prediction.totals, whole_totals(c, hw, o, PassShape{Phase::decode, 2, 1, 9000}));
  CHECK_THROWS_AS(PassEval(c, hw, o, PassShape{Phase::prefill, 1, 3, 0}, true).set_context(3),
                  std::logic_error);
}

TEST_CASE("llm serve: each step equals its own whole graph's; figures do not depend on the "
          "layer tables or on the requests served before") {
  const HwSpec hw = io::load_hw("h100");
  for (const char *name : {"mistral-7b-v0.1", "deepseek-v3", "gpt2"}) {
    CAPTURE(name);
    const LlmConfig c = read_llm_config(resolve_llm_config(name));
    ServeOptions o;
    o.batch = 4;
    o.prompt = 1000;
    o.generate = 6;
    o.layer_tables = false;
    const ServeResult r = serve(c, hw, o);
    REQUIRE(r.step_seconds.size() == 5);
    for (int64_t j = 1; j < o.generate; ++j)
      CHECK(r.step_seconds[size_t(j - 1)] ==
            whole_totals(c, hw, o, PassShape{Phase::decode, o.batch, 1, o.prompt + j - 1})
                .predicted_seconds);
    CHECK(
        r.ttft ==
        whole_totals(c, hw, o, PassShape{Phase::prefill, o.batch, o.prompt, 0}).predicted_seconds);
    CHECK(!r.prefill.graph);
    CHECK(!r.last_decode.graph);

    o.layer_tables = true;
    const ServeResult t = serve(c, hw, o);
    CHECK(t.step_seconds == r.step_seconds);
    CHECK(t.ttft == r.ttft);
    CHECK(t.e2e == r.e2e);
    CHECK(t.energy_joules_request == r.energy_joules_request);
    REQUIRE(t.prefill.graph);
    REQUIRE(t.last_decode.graph);
    check_equal(t.prefill.prediction.totals, r.prefill_totals);
    CHECK(t.last_decode.prediction.pass_seconds() == r.step_seconds.back());

    // one server for requests of several batches and lengths, in an order that moves the decode
    // pass down as well as up
    o.layer_tables = false;
    Server server(c, hw, o);
    using Request = std::tuple<int64_t, int64_t, int64_t>;
    for (const Request &req : std::vector<Request>{
             {4, 1000, 6}, {4, 10, 3}, {4, 1000, 6}, {1, 7, 1}, {1, 300, 2}, {4, 1000, 6}}) {
      // named copies, not a structured binding: clang 14 cannot capture one in CAPTURE's lambda
      const int64_t b = std::get<0>(req), p = std::get<1>(req), g = std::get<2>(req);
      CAPTURE(b);
      CAPTURE(p);
      ServeOptions one = o;
      one.batch = b;
      one.prompt = p;
      one.generate = g;
      const ServeResult a = server.serve(b, p, g), e = serve(c, hw, one);
      CHECK(a.step_seconds == e.step_seconds);
      CHECK(a.ttft == e.ttft);
      CHECK(a.e2e == e.e2e);
      CHECK(a.tokens_per_second_batch == e.tokens_per_second_batch);
      CHECK(a.energy_joules_per_token == e.energy_joules_per_token);
      CHECK(a.decode_bound == e.decode_bound);
      CHECK(a.weight_bytes == e.weight_bytes);
    }
  }
}
