#include "kernels/cpu/host_probe.hpp"

#include "kernels/cpu/microbench.hpp"

namespace perfmodel::kernels::cpu {

HostState probe_host(int runs) {
  MicrobenchOptions o;
  o.warmup = 1;
  o.iters = runs;
  BenchCase fma;
  fma.name = "probe/fma/fp32";
  fma.kind = BenchKind::fma;
  BenchCase read;
  read.name = "probe/read";
  read.kind = BenchKind::bandwidth;
  read.variant = "read";
  read.working_set_bytes = kHostProbeDramBytes;
  HostState s;
  s.fp32_flops_per_second = run_bench(fma, o).flops_per_second();
  s.dram_bytes_per_second = run_bench(read, o).bytes_per_second();
  return s;
}

} // namespace perfmodel::kernels::cpu
