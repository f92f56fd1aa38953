// Serving metrics: the mean TPOT over every step, memory and the largest batch.
#include <doctest/doctest.h>

#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/serve.hpp"

using namespace perfmodel;
using namespace perfmodel::llm;

TEST_CASE("llm serve: TPOT is the mean of every decode step, each predicted on its own") {
  // a window of P + 2 keys: the steps grow, then stop growing, so the mean of the steps is not
  // the mean of the first and the last
  const LlmConfig c = parse_llm_config(R"({"model_type": "mistral", "hidden_size": 64,
      "intermediate_size": 160, "num_hidden_layers": 2, "num_attention_heads": 4,
      "num_key_value_heads": 2, "vocab_size": 256, "max_position_embeddings": 4096,
      "sliding_window": 1026})",
                                       "tiny.json");
  const HwSpec hw = io::load_hw("h100");
  ServeOptions o;
  o.batch = 64;
  o.prompt = 1024;
  o.generate = 5;
  const ServeResult r = serve(c, hw, o);
  REQUIRE(r.step_seconds.size() == 4);
  double sum = 0;
  for (int64_t j = 1; j < o.generate; ++j) {
    const PassShape s{Phase::decode, o.batch, 1, o.prompt + j - 1};
    const Graph g = build_graph(c, s, o.dtype);
    const double t =
        predict(g, hw, PredictOptions{}, pass_costs(g, c, s, o.attention)).pass_seconds();
    CHECK(r.step_seconds[size_t(j - 1)] == doctest::Approx(t).epsilon(1e-12));
    sum += t;
  }
  CHECK(r.tpot_mean == doctest::Approx(sum / 4).epsilon(1e-12));
  CHECK(r.tpot_first < r.tpot_last);
  CHECK(r.step_seconds[1] == r.step_seconds[3]); // the window reached
  CHECK(r.tpot_mean != doctest::Approx((r.tpot_first + r.tpot_last) / 2).epsilon(1e-9));
  CHECK(r.e2e == doctest::Approx(r.ttft + sum).epsilon(1e-12));
  CHECK(r.tokens_per_second_batch == doctest::Approx(64 * 5 / r.e2e));
}

TEST_CASE("llm serve: memory, fits and the largest batch") {
  const LlmConfig c = read_llm_config(resolve_llm_config("llama-3-8b"));
  const HwSpec hw = io::load_hw("h100"); // 80 GB
  ServeOptions o;
  o.batch = 8;
  o.prompt = 2048;
  o.generate = 2;
  const ServeResult r = serve(c, hw, o);
  CHECK(r.weight_bytes == 2 * 8030261248);
  CHECK(r.kv_cache_bytes == int64_t(8) * 2050 * 131072);
  CHECK(r.total_bytes == r.weight_bytes + r.kv_cache_bytes);
  CHECK(r.fits);
  // (80e9 - 16,060,522,496) / (2050 x 131,072) = 237.96...
  CHECK(r.max_batch == 237);
  o.generate = 1;
  const ServeResult one = serve(c, hw, o);
  CHECK(one.step_seconds.empty());
  CHECK(one.tpot_mean == 0);
  CHECK(one.e2e == one.ttft);
  o.prompt = 8192; // 8192 positions: the limit
  CHECK_NOTHROW(serve(c, hw, o));
  o.generate = 2;
  CHECK_THROWS_WITH_AS(serve(c, hw, o),
                       doctest::Contains("exceeds the model's max_position_embeddings (8192"),
                       InputError);
}
