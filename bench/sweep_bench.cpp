// Benchmark of run_sweep: a 1,024-point sweep over resnet50 (vgg16 until the zoo has it),
// model and hardware loaded once outside the timed loop. Target: under 100 ms per sweep.
#include <benchmark/benchmark.h>

#include <cstdio>

#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/resources.hpp"
#include "perfmodel/onnx/load_model.hpp"
#include "perfmodel/sweep.hpp"

namespace {

using namespace perfmodel;

/// The first model of the list that is shipped (resnet50 arrives with the ONNX zoo).
Graph load_bench_model() {
  for (const char *name : {"resnet50", "vgg16", "nin"}) {
    try {
      return io::load_model(name, {});
    } catch (const InputError &) {
    }
  }
  throw InputError("no benchmark model (resnet50, vgg16, nin) found in models/");
}

/// hw x {fp32, fp16} x {fwd, train} x batches 1, 2, 3, ...: as many batches as make 1,024.
SweepSpec bench_spec() {
  SweepSpec spec;
  for (const char *hw : {"v100", "a100", "h100", "t4"}) {
    try {
      spec.hardware.push_back(io::load_hw(hw));
    } catch (const InputError &) {
    }
  }
  spec.dtypes = {DType::fp32, DType::fp16};
  spec.passes = {Pass::fwd, Pass::train};
  size_t per_batch = spec.hardware.size() * spec.dtypes.size() * spec.passes.size();
  for (size_t b = 1; b * per_batch <= 1024; ++b)
    spec.batches.push_back(int64_t(b));
  return spec;
}

void BM_Sweep1024(benchmark::State &state) {
  static const Graph model = load_bench_model();
  static const SweepSpec spec = bench_spec();
  size_t points = 0, evaluated = 0;
  for (auto _ : state) {
    SweepResult r = run_sweep(model, spec);
    points = r.points.size();
    evaluated = size_t(r.evaluated());
    benchmark::DoNotOptimize(r.points.data());
  }
  state.SetLabel(model.name + ", " + std::to_string(spec.hardware.size()) + " hw");
  state.counters["points"] = double(points);
  state.counters["evaluated"] = double(evaluated);
  state.counters["layers"] = double(model.layers.size());
}
BENCHMARK(BM_Sweep1024)->Unit(benchmark::kMillisecond)->MinTime(2.0);

/// Points along one batch only (no re-inference): the cost of predict + footprint per point.
void BM_SweepFixedBatch(benchmark::State &state) {
  static const Graph model = load_bench_model();
  SweepSpec spec = bench_spec();
  spec.batches = {model.batch()};
  for (auto _ : state) {
    SweepResult r = run_sweep(model, spec);
    benchmark::DoNotOptimize(r.points.data());
  }
  state.counters["points"] = double(spec.hardware.size() * 4);
}
BENCHMARK(BM_SweepFixedBatch)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
