// Benchmark of the plan search: Llama 3 70B on 3840 H100s, global batch 46080 x 4096 tokens,
// microbatches up to 1024 and interleaving up to 16: 102,845 candidate splits, on 1 and 2
// threads. Target (issue 42): 100,000 splits under 2 s on 2 cores.
// The serving search (plan --pass infer): Llama 3 70B on 8 and on 64 H100s, 2048 prompt + 256
// generated tokens, 32 and 256 sequences in flight; its cost is one llm::serve (every decode
// step) per device shape (tp, ep, microbatch), reported as splits and shapes per second.
#include <benchmark/benchmark.h>

#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/plan.hpp"
#include "perfmodel/llm/plan_infer.hpp"

namespace {

using namespace perfmodel;

void BM_PlanTraining(benchmark::State &state) {
  const HwSpec hw = io::load_hw("h100");
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config("llama-3-70b"));
  llm::PlanOptions o;
  o.gpus = 3840;
  o.global_batch = 46080;
  o.seq = 4096;
  o.max_microbatch = 1024;
  o.max_interleave = 16;
  o.threads = int(state.range(0));
  int64_t n = 0;
  for (auto _ : state) {
    const llm::PlanResult r = llm::plan_training(c, hw, o);
    n = r.enumerated;
    benchmark::DoNotOptimize(r.ranked.data());
  }
  state.counters["splits"] = double(n);
  state.counters["splits_per_s"] =
      benchmark::Counter(double(n) * double(state.iterations()), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_PlanTraining)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Args: GPUs, sequences in flight, threads.
void BM_PlanInference(benchmark::State &state) {
  const HwSpec hw = io::load_hw("h100");
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config("llama-3-70b"));
  llm::InferPlanOptions o;
  o.gpus = state.range(0);
  o.batch = state.range(1);
  o.prompt = 2048;
  o.generate = 256;
  o.threads = int(state.range(2));
  int64_t n = 0, shapes = 0;
  for (auto _ : state) {
    const llm::InferPlanResult r = llm::plan_inference(c, hw, o);
    n = r.enumerated;
    shapes = r.device_shapes;
    benchmark::DoNotOptimize(r.ranked.data());
  }
  state.counters["splits"] = double(n);
  state.counters["shapes"] = double(shapes);
  state.counters["splits_per_s"] =
      benchmark::Counter(double(n) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["shapes_per_s"] =
      benchmark::Counter(double(shapes) * double(state.iterations()), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_PlanInference)
    ->Args({8, 32, 1})
    ->Args({8, 32, 2})
    ->Args({64, 256, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
