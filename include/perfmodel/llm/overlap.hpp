// How much of the data-parallel gradient reduction a training step hides behind the backward
// pass, as Megatron-LM's --overlap-grad-reduce runs it (docs/parallel.md, "Overlap").
#pragma once

#include <cstdint>

namespace perfmodel::llm {

/// The exposed and hidden parts of a gradient reduction overlapped with a backward pass.
struct OverlapSplit {
  double exposed = 0; // seconds the step waits for the reduction after the backward pass ends
  double hidden = 0;  // seconds of it that run during the backward pass
};

/// The gradient reduction of `comm` seconds in `buckets` equal buckets (one per layer of the
/// stage), each started as soon as the backward pass of the last microbatch (`backward`
/// seconds, the layers' gradients ready one after another at equal intervals, the last bucket
/// at its end) has produced it and the previous bucket's reduction has finished, on one link:
/// it ends at max(backward + comm / buckets, backward / buckets + comm) after that backward
/// pass starts, so exposed = max(comm / buckets, comm - backward (buckets - 1) / buckets) and
/// hidden = comm - exposed. With buckets <= 1, or no backward, nothing is hidden. Contention
/// between the reduction and the backward kernels for the device is not modelled.
OverlapSplit overlap_grad_reduce(double comm, double backward, int64_t buckets);

} // namespace perfmodel::llm
