// Google Benchmark: `perfmodel llm`'s evaluation (llm::serve: the prefill and every decode step
// predicted) of an 80-layer model (Llama-2-70B), as `llm` runs it (the figures) and with
// --per-layer (the whole graphs' layer tables too), and the cost of one point of an LLM sweep
// (llm::serve of Llama-3-8B at a short generate count), the figures docs/llm.md quotes.
#include <benchmark/benchmark.h>

#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/serve.hpp"
#include "perfmodel/llm/sweep.hpp"

namespace {

using namespace perfmodel;

void serve_bench(benchmark::State &state, const char *model, bool layer_tables = false) {
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config(model));
  const HwSpec hw = io::load_hw("h100");
  llm::ServeOptions o;
  o.batch = 8;
  o.prompt = 2048;
  o.generate = state.range(0);
  o.layer_tables = layer_tables;
  for (auto _ : state) {
    const llm::ServeResult r = llm::serve(c, hw, o);
    benchmark::DoNotOptimize(r.e2e);
  }
  state.counters["layers"] = double(c.layers);
  state.counters["decode_steps"] = double(o.generate - 1);
}

// one `llm` evaluation of an 80-layer model: prefill and G - 1 decode steps
void BM_LlmServe80Layers(benchmark::State &state) { serve_bench(state, "llama-2-70b"); }
BENCHMARK(BM_LlmServe80Layers)->Arg(2)->Arg(16)->Arg(256)->Unit(benchmark::kMillisecond);

// the same with --per-layer: the whole prefill and last decode graphs built and predicted too
void BM_LlmServe80LayersPerLayer(benchmark::State &state) {
  serve_bench(state, "llama-2-70b", true);
}
BENCHMARK(BM_LlmServe80LayersPerLayer)->Arg(2)->Arg(256)->Unit(benchmark::kMillisecond);

// one point of a sweep over batch and lengths (a 32-layer model)
void BM_LlmServe32Layers(benchmark::State &state) { serve_bench(state, "llama-3-8b"); }
BENCHMARK(BM_LlmServe32Layers)->Arg(2)->Arg(16)->Unit(benchmark::kMillisecond);

// a 10,000-point LLM sweep: batch 1 ... 100 x 100 prompts (16 ... 1600), generate 4, one device
void BM_LlmSweep10000(benchmark::State &state) {
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config("llama-3-8b"));
  llm::LlmSweepSpec s;
  s.hardware.push_back(io::load_hw("h100"));
  for (int64_t b = 1; b <= 100; ++b)
    s.batches.push_back(b);
  for (int64_t p = 16; p <= 1600; p += 16)
    s.prompts.push_back(p);
  s.generates = {4};
  size_t points = 0;
  for (auto _ : state) {
    const llm::LlmSweepResult r = llm::run_llm_sweep(c, s);
    points = size_t(r.evaluated());
    benchmark::DoNotOptimize(r.points.data());
  }
  state.counters["points"] = double(points);
}
BENCHMARK(BM_LlmSweep10000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
