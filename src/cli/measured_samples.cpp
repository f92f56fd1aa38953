#include "cli/measured_samples.hpp"

#include "calibrate/calibration_networks.hpp"

namespace perfmodel::cli {

std::vector<calibrate::Sample> measured_layer_samples(const Graph &g,
                                                      const kernels::cpu::GraphMeasurement &m,
                                                      TimeStatistic stat, const std::string &prefix) {
  std::vector<calibrate::LayerTime> times;
  for (const auto &l : m.layers)
    times.push_back(
        {l.name, pick(stat, l.time.median_seconds, l.time.p20_seconds, l.time.min_seconds)});
  return calibrate::samples_from_layer_times(g, times, prefix);
}

} // namespace perfmodel::cli
