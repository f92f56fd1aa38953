// The host's cross-core probe as a time series: how long the vCPUs of a shared host stay in one
// placement. `measure` probes once before and once after its passes, and a calibration keeps
// the median of its probes (perfmodel/host_state.hpp); on a host whose placement changes every
// few seconds those figures catch whichever placement held at that moment. This prints, every
// interval, the seconds since the start and the cross-core read probe (GB/s: each thread reads
// the block the other has just written, median of 21 rounds, kernels/cpu/host_probe.hpp).
// Usage: bench_host_probe_series [PROBES (default 80)] [INTERVAL_MS (default 250)]
// docs/measure.md ("Host state") has a run on the 2-core Zen 3 guest.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "perfmodel/kernels/cpu/host_probe.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"

namespace kc = perfmodel::kernels::cpu;

int main(int argc, char **argv) {
  const int probes = argc > 1 ? std::atoi(argv[1]) : 80;
  const int interval_ms = argc > 2 ? std::atoi(argv[2]) : 250;
  if (probes < 1 || interval_ms < 0) {
    std::fprintf(stderr, "usage: bench_host_probe_series [PROBES >= 1] [INTERVAL_MS >= 0]\n");
    return 2;
  }
  if (kc::num_threads() < 2) {
    std::fprintf(stderr, "bench_host_probe_series: the cross-core probe needs two threads\n");
    return 2;
  }
  std::printf("# seconds  cross_core_GB/s  (%d threads)\n", kc::num_threads());
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < probes; ++i) {
    const double rate = kc::cross_core_read_bytes_per_second(21);
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%8.2f %8.1f\n", t, rate / 1e9);
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::milliseconds(interval_ms));
  }
  return 0;
}
