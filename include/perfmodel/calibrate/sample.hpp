// One fit sample: a timed kernel call and the counts the efficiency model sees of it.
//
// Every source of timings produces these: the CPU microbenchmarks (microbench_samples.hpp),
// a measurement CSV (io/measurements_csv.hpp) and profiler traces (calibrate --from-trace).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/cost.hpp"
#include "perfmodel/dtype.hpp"
#include "perfmodel/graph.hpp"

namespace perfmodel::calibrate {

struct Sample {
  OpClass op_class = OpClass::gemm;
  DType dtype = DType::fp32;
  KernelPart pass = KernelPart::fwd;
  double flops = 0;                 // boda counting rules (perfmodel::layer_cost)
  double bytes = 0;                 // compulsory traffic
  std::optional<GemmShape> gemm;    // GEMM-like calls, in the orientation of this pass
  double lowered_bytes = 0;         // bytes of an im2col matrix, 0 when there is none
  double reuse_bytes = 0;           // bytes moved since the inputs were written (0 when isolated)
  double cross_core_bytes = 0;      // input bytes one thread read that another wrote (0 isolated)
  double images = 1;                // a convolution's batch (KernelFeatures::images)
  double plane_elements = 0;        // a windowed pool's input plane (KernelFeatures)
  double epilogue_sweeps = 0;       // passes of a fused GEMM epilogue over C (KernelFeatures)
  double weight_bytes = 0;          // a conv's weights, read cold once (KernelFeatures)
  double strided_lowered_bytes = 0; // an im2col matrix gathered with a stride (KernelFeatures)
  std::optional<ConvGeometry> conv; // a conv2d's geometry (KernelFeatures)
  double parallel_units = 0;        // a streaming call's independent work items (KernelFeatures)
  double channel_elements = 0;      // a batch norm's elements per channel (KernelFeatures)
  Layout layout = Layout::nchw;     // the activations' layout it ran in (KernelFeatures)
  double seconds = 0;               // measured time of the call(s) (median of the runs)
  std::string source;               // "microbench:gemm/fp32/256x256x256", "file.csv:12", ...

  /// The inverse of features(): every count the efficiency model sees, taken from `f`.
  void set_features(const KernelFeatures &f) {
    op_class = f.op_class;
    dtype = f.dtype;
    flops = f.flops;
    bytes = f.bytes;
    gemm = f.gemm;
    lowered_bytes = f.lowered_bytes;
    reuse_bytes = f.reuse_bytes;
    cross_core_bytes = f.cross_core_bytes;
    images = f.images;
    plane_elements = f.plane_elements;
    epilogue_sweeps = f.epilogue_sweeps;
    weight_bytes = f.weight_bytes;
    strided_lowered_bytes = f.strided_lowered_bytes;
    pass = f.pass;
    conv = f.conv;
    parallel_units = f.parallel_units;
    channel_elements = f.channel_elements;
    layout = f.layout;
  }

  KernelFeatures features() const {
    return KernelFeatures{op_class,
                          dtype,
                          flops,
                          bytes,
                          gemm,
                          lowered_bytes,
                          reuse_bytes,
                          cross_core_bytes,
                          images,
                          plane_elements,
                          epilogue_sweeps,
                          weight_bytes,
                          strided_lowered_bytes,
                          pass,
                          conv,
                          parallel_units,
                          channel_elements, layout};
  }
};

/// A sample for one pass part of a layer of a shape-inferred graph: the counts come from
/// perfmodel::layer_cost (train pass parts for bwd_data / bwd_weight), so samples and
/// predictions always count the same way. `reuse_bytes`: the layer's input_reuse_bytes when it
/// was timed inside its network (0 when timed alone), `cross_core_bytes` its
/// input_cross_core_bytes, `weights_cached` whether its graph's weights stayed cached between
/// passes (weights_stay_cached).
Sample sample_from_layer(const Graph &g, const Layer &layer, KernelPart pass, double seconds,
                         std::string source, double reuse_bytes = 0, double cross_core_bytes = 0,
                         bool weights_cached = false);

} // namespace perfmodel::calibrate
