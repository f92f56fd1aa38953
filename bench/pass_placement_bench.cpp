// Per forward pass of a network: the placement probes between passes and where the pass's time
// went. Each line: pass, cross-core read probe (GB/s, 7 rounds), core round trip (us, median of
// 21 empty parallel_for calls: kernels/cpu/host_probe.hpp), pass time (ms), then the pass's
// batch norms, convolutions and other layers (ms). On a host whose vCPUs change placement it
// shows whether the layers follow the probes (docs/measure.md, "Passes in the faster
// placement").
// Usage: bench_pass_placement [MODEL (default resnet50)] [PASSES (default 200)]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "perfmodel/kernels/cpu/executor.hpp"
#include "perfmodel/kernels/cpu/host_probe.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"
#include "perfmodel/onnx/load_model.hpp"

using namespace perfmodel;
namespace kc = perfmodel::kernels::cpu;

int main(int argc, char **argv) {
  const std::string model = argc > 1 ? argv[1] : "resnet50";
  const int passes = argc > 2 ? std::atoi(argv[2]) : 200;
  if (passes < 1 || kc::num_threads() < 2) {
    std::fprintf(stderr, "usage: bench_pass_placement [MODEL] [PASSES >= 1] (2+ threads)\n");
    return 2;
  }
  const Graph g = io::load_model(model, {});
  kc::Executor ex(g, 1, kc::BufferPlan::reuse);
  ex.run_all();
  const size_t n = ex.size();
  std::vector<double> st(n + 1);
  std::printf("# pass  cross_core_GB/s  round_trip_us  pass_ms  batch_norm_ms  conv_ms  other_ms"
              "  (%s, %d threads)\n",
              model.c_str(), kc::num_threads());
  for (int p = 0; p < passes; ++p) {
    const double cross = kc::cross_core_read_bytes_per_second(7);
    const double trip = kc::core_round_trip_seconds(21);
    st[0] = kc::now_seconds();
    for (size_t i = 0; i < n; ++i) {
      ex.run_layer(i);
      st[i + 1] = kc::now_seconds();
    }
    double bn = 0, conv = 0, other = 0;
    for (size_t i = 0; i < n; ++i) {
      const double t = st[i + 1] - st[i];
      (g.layers[i].op == OpKind::batch_norm ? bn
       : g.layers[i].op == OpKind::conv2d   ? conv
                                            : other) += t;
    }
    std::printf("%6d %8.1f %8.2f %9.2f %8.2f %9.2f %8.2f\n", p, cross / 1e9, 1e6 * trip,
                1e3 * (st[n] - st[0]), 1e3 * bn, 1e3 * conv, 1e3 * other);
  }
  return 0;
}
