#include "cli/measured_samples.hpp"

#include "calibrate/calibration_networks.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel::cli {

namespace {

double seconds_of(const kernels::cpu::TimingStats &t, TimeStatistic stat) {
  return pick(stat, t.median_seconds, t.p20_seconds, t.min_seconds);
}

} // namespace

std::vector<calibrate::Sample> measured_layer_samples(const Graph &g,
                                                      const kernels::cpu::GraphMeasurement &m,
                                                      TimeStatistic stat, const std::string &prefix) {
  std::vector<calibrate::LayerTime> times;
  for (const auto &l : m.layers)
    times.push_back({l.name, seconds_of(l.time, stat)});
  return calibrate::samples_from_layer_times(g, times, prefix);
}

calibrate::PassSample measured_pass_sample(const Graph &g, const kernels::cpu::GraphMeasurement &m,
                                           TimeStatistic stat) {
  calibrate::PassSample s;
  s.network = g.name;
  s.layers = kernel_layer_count(g);
  for (const auto &l : m.layers)
    s.layer_sum_seconds += seconds_of(l.time, stat);
  s.pass_seconds = seconds_of(m.network, stat);
  return s;
}

} // namespace perfmodel::cli
