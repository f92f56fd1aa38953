#include "cli/measured_samples.hpp"

#include "calibrate/calibration_networks.hpp"
#include "calibrate/fit.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel::cli {

std::vector<calibrate::Sample> measured_layer_samples(const Graph &g,
                                                      const kernels::cpu::GraphMeasurement &m,
                                                      TimeStatistic stat, const std::string &prefix,
                                                      const HwSpec &hw) {
  std::vector<calibrate::LayerTime> times;
  for (const auto &l : m.layers)
    times.push_back({l.name, kernels::cpu::pick(stat, l.time)});
  return calibrate::samples_from_layer_times(g, times, prefix, m.threads,
                                             calibrate::cache_bytes_for(hw));
}

calibrate::PassSample measured_pass_sample(const Graph &g, const kernels::cpu::GraphMeasurement &m,
                                           TimeStatistic stat) {
  calibrate::PassSample s;
  s.network = g.name;
  s.layers = kernel_layer_count(g);
  for (const auto &l : m.layers)
    s.layer_sum_seconds += kernels::cpu::pick(stat, l.time);
  s.pass_seconds = kernels::cpu::pick(stat, m.network);
  return s;
}

} // namespace perfmodel::cli
