// Load + analyze time of large ONNX files (resnet50 ~100 MB, vgg16 ~550 MB with weights):
// import (mmap, weight payloads skipped, ONNX shape inference, mapping) and per-layer costs.
// The files are generated, never committed: scripts/bench_onnx_python.py --export writes them
// to /tmp/perfmodel-zoo (or $PERFMODEL_BENCH_ONNX_DIR) and times the Python path on them.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "perfmodel/cost.hpp"
#include "perfmodel/onnx/onnx_import.hpp"

namespace {

std::string model_path(const std::string &name) {
  const char *dir = std::getenv("PERFMODEL_BENCH_ONNX_DIR");
  return std::string(dir ? dir : "/tmp/perfmodel-zoo") + "/" + name + ".onnx";
}

void BM_OnnxLoadAnalyze(benchmark::State &st, const std::string &name) {
  const std::string path = model_path(name);
  if (!std::filesystem::exists(path)) {
    st.SkipWithError(("missing " + path + ": run scripts/bench_onnx_python.py --export").c_str());
    return;
  }
  perfmodel::io::OnnxImportOptions o;
  o.warnings = nullptr;
  int64_t flops = 0;
  for (auto _ : st) {
    const perfmodel::Graph g = perfmodel::io::import_onnx(path, {}, o);
    flops = 0;
    for (const auto &c : perfmodel::graph_cost(g, perfmodel::Pass::fwd))
      flops += c.fwd.flops;
    benchmark::DoNotOptimize(flops);
  }
  st.counters["file_MB"] = double(std::filesystem::file_size(path)) / 1e6;
  st.counters["GFLOP"] = double(flops) / 1e9;
}

BENCHMARK_CAPTURE(BM_OnnxLoadAnalyze, resnet50, std::string("resnet50"))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_OnnxLoadAnalyze, vgg16, std::string("vgg16"))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
