// Samples from layers of a graph: the counts always come from the core's layer_cost.
#include "perfmodel/calibrate/sample.hpp"

namespace perfmodel::calibrate {

Sample sample_from_layer(const Graph &g, const Layer &layer, KernelPart pass, double seconds,
                         std::string source, double reuse_bytes, double cross_core_bytes,
                         bool weights_cached) {
  const LayerCost cost = layer_cost(g, layer, pass == KernelPart::fwd ? Pass::fwd : Pass::train);
  const KernelFeatures f =
      layer_features(g, layer, cost, pass, reuse_bytes, cross_core_bytes, weights_cached);
  Sample s;
  s.set_features(f);
  s.pass = pass;
  s.seconds = seconds;
  s.source = std::move(source);
  return s;
}

} // namespace perfmodel::calibrate
