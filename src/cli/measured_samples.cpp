#include "cli/measured_samples.hpp"

#include "perfmodel/calibrate/calibration_networks.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel::cli {

report::MeasuredStats measured_stats(const kernels::cpu::TimingStats &t) {
  report::MeasuredStats s;
  s.warmup = t.warmup;
  s.iters = t.iters;
  s.median_seconds = t.median_seconds;
  s.mean_seconds = t.mean_seconds;
  s.sd_seconds = t.sd_seconds;
  s.min_seconds = t.min_seconds;
  s.p20_seconds = t.p20_seconds;
  s.max_seconds = t.max_seconds;
  s.cache_state = t.cache_state;
  s.noisy = t.noisy;
  return s;
}


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

report::PassPlacement pass_placement_view(const kernels::cpu::GraphMeasurement::Placement &p,
                                          const policy::PlacementPolicy &rule) {
  const policy::PassSelection &sel = p.selection;
  report::PassPlacement pp;
  pp.passes_timed = p.passes_timed;
  pp.passes_kept = int(sel.kept.size());
  pp.reference_round_trip_seconds = sel.reference_seconds;
  pp.round_trip_factor = rule.round_trip_factor;
  pp.all_kept_for_too_few = sel.all_kept_for_too_few;
  pp.kept_long_round_trip = sel.kept_long_round_trip;
  pp.short_passes = int(sel.short_passes);
  pp.long_passes = int(sel.long_passes);
  pp.short_median_seconds = sel.short_median_seconds;
  pp.long_median_seconds = sel.long_median_seconds;
  return pp;
}

report::QuietPasses quiet_passes_view(const kernels::cpu::GraphMeasurement::Quiet &q,
                                      const policy::QuietPassPolicy &rule) {
  const policy::QuietSelection &sel = q.selection;
  report::QuietPasses v;
  v.passes_timed = q.passes_timed;
  v.candidates = int(sel.quiet_passes + sel.spell_passes);
  if (v.candidates == 0) // not judged (no enclosing probes): every candidate kept
    v.candidates = int(sel.kept.size());
  v.passes_kept = int(sel.kept.size());
  v.interval_seconds = q.interval_seconds;
  v.reference_flops_per_second = sel.reference_flops_per_second;
  v.calibration_flops_per_second = q.outside_reference_flops_per_second;
  v.tolerance = rule.conv_tolerance;
  v.quiet_passes = int(sel.quiet_passes);
  v.spell_passes = int(sel.spell_passes);
  v.quiet_median_seconds = sel.quiet_median_seconds;
  v.spell_median_seconds = sel.spell_median_seconds;
  v.all_kept_for_too_few = sel.all_kept_for_too_few;
  for (const auto &p : q.probes) {
    v.probe_before_pass.push_back(p.before_pass);
    v.probe_flops_per_second.push_back(p.conv_flops_per_second);
  }
  v.pass_seconds = q.pass_seconds;
  return v;
}

} // namespace perfmodel::cli
