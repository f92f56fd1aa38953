// Attainment rows -> calibration samples (counts from the core via calibrate::sample_from_layer).
#include "perfmodel/calibrate/trace_samples.hpp"

#include <algorithm>

#include "perfmodel/cost.hpp"

namespace perfmodel::calibrate {

using trace::AttainmentRow;
using trace::AttainmentView;
using trace::OpPart;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

std::vector<Sample> samples_from_attainment(const AttainmentView &v, const std::string &file) {
  std::vector<Sample> out;
  for (const AttainmentRow &r : v.rows) {
    if (r.call_seconds.empty())
      continue;
    const Graph &g = r.model.graph;
    const Layer &l = g.layers.at(0);
    KernelPart kp = KernelPart::fwd;
    switch (r.model.part) {
    case OpPart::fwd:
      kp = KernelPart::fwd;
      break;
    case OpPart::bwd_data:
      kp = KernelPart::bwd_data;
      break;
    case OpPart::bwd_weight:
      kp = KernelPart::bwd_weight;
      break;
    case OpPart::bwd: {
      const LayerCost c = layer_cost(g, l, Pass::train);
      if (c.bwd_weight.flops > 0 || c.bwd_weight.bytes() > 0)
        continue;
      kp = KernelPart::bwd_data;
      break;
    }
    }
    const double t = median(r.call_seconds);
    if (t <= 0)
      continue;
    out.push_back(
        calibrate::sample_from_layer(g, l, kp, t, "trace:" + file + ":" + r.name + " " + r.shapes));
  }
  return out;
}

} // namespace perfmodel::calibrate
