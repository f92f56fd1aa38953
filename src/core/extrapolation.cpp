// Calls priced far outside their class's fitted sizes (perfmodel/extrapolation.hpp).
#include "perfmodel/extrapolation.hpp"

#include <cstdio>
#include <map>
#include <set>
#include <utility>

namespace perfmodel {

namespace {

// Whether `v` lies more than `factor` outside [lo, hi]; judged only where both have some.
bool far_outside(double v, double lo, double hi, double factor) {
  if (!(v > 0) || !(hi > 0))
    return false;
  return v > hi * factor || (lo > 0 && v < lo / factor);
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

} // namespace

std::vector<ExtrapolatedCall> extrapolated_calls(const Calibration &cal, const Graph &g,
                                                 const std::vector<LayerCost> &costs, Pass pass,
                                                 double factor) {
  std::vector<ExtrapolatedCall> out;
  for (size_t i = 0; i < g.layers.size() && i < costs.size(); ++i) {
    const Layer &l = g.layers[i];
    std::vector<KernelPart> parts{KernelPart::fwd};
    if (pass == Pass::train)
      parts.insert(parts.end(), {KernelPart::bwd_data, KernelPart::bwd_weight});
    for (KernelPart kp : parts) {
      const KernelFeatures all = layer_features(g, l, costs[i], kp);
      if (!(all.flops > 0) && !(all.bytes > 0))
        continue; // no call (a view, or a pass part the layer has not)
      const ClassCalibration *cc = cal.find_or_fallback(all.op_class, all.dtype);
      if (!cc || !cc->fitted_range)
        continue;
      double calls = 1;
      const KernelFeatures f = one_call(cal, all, &calls);
      const FittedRange &r = *cc->fitted_range;
      if (far_outside(f.flops, r.flops_min, r.flops_max, factor) ||
          far_outside(f.bytes, r.bytes_min, r.bytes_max, factor))
        out.push_back({l.name, kp, cc->op_class, cc->dtype, f.flops, f.bytes, r});
    }
  }
  return out;
}

std::vector<std::string> extrapolation_warnings(const std::vector<ExtrapolatedCall> &calls,
                                                size_t names, double factor) {
  // Per class x dtype, in the order first met: its range and its layers, each once.
  std::vector<std::pair<int, int>> order;
  std::map<std::pair<int, int>, std::pair<FittedRange, std::vector<std::string>>> by_class;
  std::set<std::pair<std::pair<int, int>, std::string>> seen;
  for (const ExtrapolatedCall &c : calls) {
    const std::pair<int, int> key{int(c.op_class), int(c.dtype)};
    if (!by_class.count(key)) {
      order.push_back(key);
      by_class[key].first = c.range;
    }
    if (seen.insert({key, c.layer}).second)
      by_class[key].second.push_back(c.layer);
  }
  std::vector<std::string> lines;
  for (const auto &key : order) {
    const auto &[r, layers] = by_class[key];
    std::string line =
        std::string(to_string(OpClass(key.first))) + "/" +
        std::string(to_string(DType(key.second))) + ": " + std::to_string(layers.size()) +
        (layers.size() == 1 ? " layer lies" : " layers lie") + " more than " + num(factor) +
        "x outside the sizes the calibration fitted this class on (per call: FLOPs " +
        num(r.flops_min) + " to " + num(r.flops_max) + ", bytes " + num(r.bytes_min) + " to " +
        num(r.bytes_max) + "): ";
    for (size_t i = 0; i < layers.size() && i < names; ++i)
      line += (i ? ", " : "") + layers[i];
    if (layers.size() > names)
      line += " and " + std::to_string(layers.size() - names) + " more";
    lines.push_back(line);
  }
  return lines;
}

} // namespace perfmodel
