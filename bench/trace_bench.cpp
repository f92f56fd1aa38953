// Benchmarks of `perfmodel trace`: reading (gunzip + JSON) and analysing a ResNet-50 training
// trace (~1 MB gzip, ~15 MB JSON, 73k events). The target: both together under one second.
#include <benchmark/benchmark.h>

#include "perfmodel/io/files.hpp"
#include "perfmodel/trace/attainment.hpp"
#include "perfmodel/trace/gzip.hpp"
#include "perfmodel/trace/op_table.hpp"
#include "perfmodel/trace/overview.hpp"
#include "perfmodel/trace/read_trace.hpp"

namespace {

using namespace perfmodel;

std::string trace_path() {
  return std::string(PERFMODEL_SOURCE_DIR) +
         "/test/data/trace/resnet50_v100_num_workers_0.pt.trace.json.gz";
}

HwSpec v100() {
  HwSpec hw;
  hw.name = "v100";
  hw.compute = {ComputeUnit{"simt", DType::fp32, 15.7e12, false, 0}};
  hw.memory = {MemoryLevel{"dram", 900e9, 32e9, 0}};
  hw.launch_overhead_seconds = 5e-6;
  return hw;
}

void analyse(const trace::Trace &t, const HwSpec &hw) {
  trace::Links l = trace::link_events(t);
  benchmark::DoNotOptimize(trace::compute_overview(t, l));
  trace::OpTree tree = trace::build_op_tree(t, l);
  benchmark::DoNotOptimize(trace::operator_table(t, tree));
  benchmark::DoNotOptimize(trace::kernel_table(t));
  benchmark::DoNotOptimize(trace::attainment_view(t, l, tree, hw));
}

void BM_Gunzip(benchmark::State &st) {
  const std::string gz = io::read_file(trace_path());
  for (auto _ : st)
    benchmark::DoNotOptimize(io::gunzip(gz, "trace"));
  st.SetBytesProcessed(st.iterations() * static_cast<int64_t>(gz.size()));
}
BENCHMARK(BM_Gunzip)->Unit(benchmark::kMillisecond);

void BM_ReadTrace(benchmark::State &st) {
  const std::string gz = io::read_file(trace_path());
  for (auto _ : st)
    benchmark::DoNotOptimize(io::parse_trace(gz, "trace"));
}
BENCHMARK(BM_ReadTrace)->Unit(benchmark::kMillisecond);

void BM_AnalyseTrace(benchmark::State &st) {
  const trace::Trace t = io::read_trace(trace_path());
  const HwSpec hw = v100();
  for (auto _ : st)
    analyse(t, hw);
}
BENCHMARK(BM_AnalyseTrace)->Unit(benchmark::kMillisecond);

void BM_ReadAndAnalyse(benchmark::State &st) {
  const HwSpec hw = v100();
  for (auto _ : st)
    analyse(io::read_trace(trace_path()), hw);
}
BENCHMARK(BM_ReadAndAnalyse)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
