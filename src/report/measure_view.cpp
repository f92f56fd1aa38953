// Renders measured-vs-predicted layers and microbenchmark results: numbers computed once in
// make_measurement_view(), printed four ways.
#include "report/measure_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "perfmodel/error.hpp"
#include "report/text_table.hpp"

namespace perfmodel::report {

namespace {

using json = nlohmann::ordered_json;

std::string signed_pct(double f) { return pct(f, 1, true); }

std::string pct_abs(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * f);
  return buf;
}

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

json stats_json(const MeasuredStats &s) {
  return json{{"median_seconds", s.median_seconds},
              {"mean_seconds", s.mean_seconds},
              {"sd_seconds", s.sd_seconds},
              {"min_seconds", s.min_seconds},
              {"p20_seconds", s.p20_seconds},
              {"max_seconds", s.max_seconds},
              {"warmup", s.warmup},
              {"iters", s.iters},
              {"cache_state", s.cache_state},
              {"noisy", s.noisy}};
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string probe_text(const HostState &h) {
  std::string t = si(h.fp32_flops_per_second, "FLOP/s") + ", " + si(h.dram_bytes_per_second, "B/s");
  if (h.cross_core_bytes_per_second > 0)
    t += ", " + si(h.cross_core_bytes_per_second, "B/s");
  if (h.conv_flops_per_second > 0)
    t += ", conv " + si(h.conv_flops_per_second, "FLOP/s");
  if (h.core_round_trip_seconds > 0)
    t += ", round trip " + si(h.core_round_trip_seconds, "s");
  return t;
}

std::string host_lines(const HostCheck &h) {
  if (!h.before && !h.after)
    return "";
  std::ostringstream o;
  o << "host probes (fp32 FMA, DRAM read, cross-core read, conv, core round trip):";
  if (h.before)
    o << " before " << probe_text(*h.before) << ";";
  if (h.after)
    o << " after " << probe_text(*h.after) << ";";
  if (!h.reference) {
    o << " the calibration has none to compare with\n";
    return o.str();
  }
  o << " calibration's " << probe_text(*h.reference) << "\n";
  using policy::HostDrift;
  auto drift = [](const std::optional<HostDrift> &d, double HostDrift::*part) {
    return d ? signed_pct(*d.*part) : std::string("-");
  };
  o << "host drift from the calibration (before / after): compute "
    << drift(h.drift_before, &HostDrift::compute) << " / " << drift(h.drift_after, &HostDrift::compute)
    << ", memory " << drift(h.drift_before, &HostDrift::memory) << " / "
    << drift(h.drift_after, &HostDrift::memory);
  if (h.reference->cross_core_bytes_per_second > 0) // a calibration with the cross-core probe
    o << ", cross-core " << drift(h.drift_before, &HostDrift::cross_core) << " / "
      << drift(h.drift_after, &HostDrift::cross_core);
  if (h.reference->conv_flops_per_second > 0) // a calibration with the convolution probe
    o << ", conv " << drift(h.drift_before, &HostDrift::conv) << " / "
      << drift(h.drift_after, &HostDrift::conv);
  const bool by_round_trip = h.reference->core_round_trip_seconds > 0;
  if (by_round_trip) // a calibration with the round-trip probe
    o << ", round trip " << drift(h.drift_before, &HostDrift::round_trip) << " / "
      << drift(h.drift_after, &HostDrift::round_trip);
  o << "\n";
  char factor[32];
  std::snprintf(factor, sizeof factor, "%gx", h.policy.round_trip_factor);
  if (h.drifted)
    o << "the host was not in its calibrated state (compute drift beyond "
      << pct_abs(h.policy.compute_tolerance) << ", "
      << (by_round_trip ? std::string("the core round trip beyond ") + factor + " either way"
                        : "cross-core beyond " + pct_abs(h.policy.cross_core_tolerance))
      << ", or the faster conv probe beyond "
      << pct_abs(h.policy.conv_tolerance) << "): these errors measure the host as much as the model\n";
  return o.str();
}

json state_json(const std::optional<HostState> &h) {
  if (!h)
    return nullptr;
  return json{{"fp32_flops_per_second", h->fp32_flops_per_second},
              {"dram_bytes_per_second", h->dram_bytes_per_second},
              {"cross_core_bytes_per_second", h->cross_core_bytes_per_second},
              {"conv_flops_per_second", h->conv_flops_per_second},
              {"core_round_trip_seconds", h->core_round_trip_seconds}};
}

json drift_json(const std::optional<policy::HostDrift> &d) {
  if (!d)
    return nullptr;
  return json{{"compute", d->compute},
              {"memory", d->memory},
              {"cross_core", d->cross_core},
              {"conv", d->conv},
              {"round_trip", d->round_trip},
              {"placement_by_round_trip", d->placement_by_round_trip}};
}

std::string summary_lines(const MeasurementView &v) {
  const auto &s = v.summary;
  std::ostringstream o;
  o << "per-layer MAPE " << pct_abs(s.mape) << " (median |error| " << pct_abs(s.median_abs_error)
    << ") over " << s.layers_in_summary
    << " layers measured at >= " << si(v.run.min_layer_seconds, "s") << "\n";
  o << "errors against the " << to_string(v.run.statistic) << " of the timed runs\n";
  o << "end to end: measured " << si(s.measured_total_seconds, "s") << " (sum of layers "
    << si(s.measured_layer_sum_seconds, "s") << "), predicted "
    << si(s.predicted_total_seconds, "s");
  if (s.predicted_pass_excess_seconds > 0)
    o << " (sum of layers " << si(s.predicted_layer_sum_seconds, "s") << " + pass excess "
      << si(s.predicted_pass_excess_seconds, "s") << ")";
  o << ", error " << signed_pct(s.end_to_end_error) << "\n";
  if (s.noisy_layers > 0)
    o << s.noisy_layers << " noisy layer(s): (max-min)/median > "
      << pct_abs(v.run.noisy_range_fraction) << " or sd/mean > " << pct_abs(v.run.noisy_sd_fraction)
      << " (reported, not dropped)\n";
  o << host_lines(v.host);
  if (v.host.passes_in_spell && v.run.quiet)
    o << "the passes ran in a slow spell of the host: " << v.run.quiet->quiet_passes << " of "
      << v.run.quiet->candidates << " ran between convolution probes within "
      << pct_abs(v.run.quiet->tolerance) << " of the calibration's "
      << si(v.run.quiet->calibration_flops_per_second, "FLOP/s")
      << ": these errors measure the host as much as the model\n";
  return o.str();
}

} // namespace

namespace {

// "10 passes, median 40.1 ms", "1 pass, median 45.3 ms" or "no pass"
std::string passes_and_median(int n, double median_seconds) {
  char b[64];
  if (n > 0)
    std::snprintf(b, sizeof b, "%d pass%s, median %.4g ms", n, n == 1 ? "" : "es",
                  1e3 * median_seconds);
  else
    std::snprintf(b, sizeof b, "no pass");
  return b;
}

} // namespace

// "statistics over 68 of 80 timed passes, those in the faster placement of the threads (core
// round trip between passes within 2x of 0.35 us: 68 passes, median 40.1 ms; beyond: 10
// passes, median 45.3 ms)"
std::string placement_line(const PassPlacement &p) {
  char rule[240];
  const auto side = [&](bool long_side) {
    return long_side ? passes_and_median(p.long_passes, p.long_median_seconds)
                     : passes_and_median(p.short_passes, p.short_median_seconds);
  };
  const bool first_long = p.kept_long_round_trip && !p.all_kept_for_too_few;
  std::snprintf(rule, sizeof rule,
                "core round trip between passes %s %.3gx of %.3g us: %s; %s: %s",
                first_long ? "beyond" : "within", p.round_trip_factor,
                1e6 * p.reference_round_trip_seconds, side(first_long).c_str(),
                first_long ? "within" : "beyond", side(!first_long).c_str());
  if (p.all_kept_for_too_few)
    return "statistics over all " + std::to_string(p.passes_timed) +
           " timed passes: too few ran in either placement of the threads (" + rule +
           ") to keep one alone";
  return "statistics over " + std::to_string(p.passes_kept) + " of " +
         std::to_string(p.passes_timed) +
         " timed passes, those in the faster placement of the threads (" + rule + ")";
}

// "of those, 40 between convolution probes within 10% of the fastest (188 GFLOP/s; 17 probes,
// every 0.25 s): 40 passes, median 46.9 ms; in a spell: 20 passes, median 62.1 ms"
std::string quiet_line(const QuietPasses &q) {
  const auto side = passes_and_median;
  char rule[240];
  std::snprintf(rule, sizeof rule,
                "convolution probes within %.0f%% of %s, %.3g GFLOP/s; %zu probes every %.3g s",
                100 * q.tolerance,
                q.calibration_flops_per_second > 0
                    ? "the fastest probe or the calibration's, the faster"
                    : "the fastest",
                1e-9 * q.reference_flops_per_second, q.probe_flops_per_second.size(),
                q.interval_seconds);
  const std::string of = q.candidates == q.passes_timed
                             ? "of the " + std::to_string(q.passes_timed) + " timed passes"
                             : "of those " + std::to_string(q.candidates);
  if (q.all_kept_for_too_few)
    return of + ", all kept: too few ran between quiet probes (" + rule + "; quiet: " +
           side(q.quiet_passes, q.quiet_median_seconds) +
           "; in a spell: " + side(q.spell_passes, q.spell_median_seconds) + ")";
  return of + ", " + std::to_string(q.passes_kept) + " ran between quiet probes (" + rule +
         "): " + side(q.quiet_passes, q.quiet_median_seconds) +
         "; in a spell: " + side(q.spell_passes, q.spell_median_seconds);
}

MeasurementView make_measurement_view(const Prediction &p, const MeasurementRun &run) {
  if (p.layers.size() != run.layers.size())
    throw InputError("measure: " + std::to_string(run.layers.size()) + " measured layers for " +
                     std::to_string(p.layers.size()) + " predicted ones");
  MeasurementView v;
  v.model = p.model;
  v.hardware = p.hardware;
  v.batch = p.batch;
  v.dtype = std::string(to_string(p.dtype));
  v.calibrated = p.calibrated;
  v.run = run;
  auto stat = [&run](const MeasuredStats &m) {
    return pick(run.statistic, m.median_seconds, m.p20_seconds, m.min_seconds);
  };
  std::vector<double> abs_errors;
  for (size_t i = 0; i < p.layers.size(); ++i) {
    const LayerPrediction &lp = p.layers[i];
    const MeasuredLayer &ml = run.layers[i];
    if (lp.layer->name != ml.name)
      throw InputError("measure: layer " + std::to_string(i) + " is '" + ml.name +
                       "' measured but '" + lp.layer->name + "' predicted");
    MeasurementRow r;
    r.name = ml.name;
    r.op = lp.layer->op_name;
    r.path = ml.path;
    r.bound = std::string(to_string(lp.timing.bound));
    r.flops = double(lp.cost.total.flops);
    r.bytes = double(lp.cost.total.bytes());
    r.predicted_seconds = lp.timing.seconds;
    r.measured = ml.stats;
    r.measured_seconds = stat(ml.stats);
    if (r.measured_seconds > 0)
      r.error = r.predicted_seconds / r.measured_seconds - 1.0;
    r.in_summary = r.error && r.measured_seconds >= run.min_layer_seconds;
    if (r.in_summary)
      abs_errors.push_back(std::fabs(*r.error));
    v.summary.measured_layer_sum_seconds += r.measured_seconds;
    v.summary.noisy_layers += ml.stats.noisy ? 1 : 0;
    v.rows.push_back(std::move(r));
  }
  auto &s = v.summary;
  s.layers_in_summary = static_cast<int>(abs_errors.size());
  for (double e : abs_errors)
    s.mape += e;
  if (!abs_errors.empty())
    s.mape /= double(abs_errors.size());
  s.median_abs_error = median(abs_errors);
  s.predicted_layer_sum_seconds = p.totals.predicted_seconds;
  s.predicted_pass_excess_seconds = p.pass_excess_seconds;
  s.predicted_total_seconds = p.pass_seconds();
  s.measured_total_seconds = stat(run.network);
  if (s.measured_total_seconds > 0)
    s.end_to_end_error = s.predicted_total_seconds / s.measured_total_seconds - 1.0;
  v.host = policy::check_host(run);
  return v;
}

std::string render_measurement(const MeasurementView &v, Format f) {
  const auto &s = v.summary;
  if (f == Format::json) {
    json j;
    j["schema"] = "perfmodel.measurement/1";
    j["model"] = v.model;
    j["hardware"] = v.hardware;
    j["device"] = v.run.device;
    j["batch"] = v.batch;
    j["dtype"] = v.dtype;
    j["executed_dtype"] = v.run.executed_dtype;
    j["threads"] = v.run.threads;
    j["buffers"] = {{"plan", v.run.buffers},
                    {"activation_bytes", v.run.activation_bytes},
                    {"workspace_bytes", v.run.workspace_bytes}};
    j["calibrated"] = v.calibrated;
    j["calibration"] = v.run.calibration;
    j["calibration_candidates"] = v.run.calibration_candidates;
    j["calibration_mismatch"] = v.run.calibration_mismatch.empty()
                                    ? json(nullptr)
                                    : json(v.run.calibration_mismatch);
    j["min_layer_seconds"] = v.run.min_layer_seconds;
    j["noisy_thresholds"] = {{"range_fraction", v.run.noisy_range_fraction},
                             {"sd_fraction", v.run.noisy_sd_fraction}};
    json layers = json::array();
    for (const auto &r : v.rows) {
      json l{{"name", r.name},
             {"op", r.op},
             {"path", r.path},
             {"flops", r.flops},
             {"bytes", r.bytes},
             {"predicted_seconds", r.predicted_seconds},
             {"bound", r.bound},
             {"measured_seconds", r.measured_seconds},
             {"stats", stats_json(r.measured)}};
      l["error"] = r.error ? json(*r.error) : json(nullptr);
      l["in_summary"] = r.in_summary;
      layers.push_back(std::move(l));
    }
    j["layers"] = std::move(layers);
    j["network"] = stats_json(v.run.network);
    if (const auto &pp = v.run.placement)
      j["passes"] = {{"filter", v.run.quiet ? "quiet" : "faster-placement"},
                     {"timed", pp->passes_timed},
                     {"kept", pp->passes_kept},
                     {"reference_round_trip_seconds", pp->reference_round_trip_seconds},
                     {"round_trip_factor", pp->round_trip_factor},
                     {"kept_placement", pp->all_kept_for_too_few ? "both"
                                        : pp->kept_long_round_trip ? "long_round_trip"
                                                                   : "short_round_trip"},
                     {"short_round_trip", {{"passes", pp->short_passes},
                                           {"median_pass_seconds", pp->short_median_seconds}}},
                     {"long_round_trip", {{"passes", pp->long_passes},
                                          {"median_pass_seconds", pp->long_median_seconds}}},
                     {"all_kept_for_too_few", pp->all_kept_for_too_few}};
    else
      j["passes"] = {{"filter", v.run.quiet ? "quiet" : "all"}};
    if (const auto &q = v.run.quiet) {
      json probes = json::array();
      for (size_t i = 0; i < q->probe_before_pass.size(); ++i)
        probes.push_back({{"before_pass", q->probe_before_pass[i]},
                          {"conv_flops_per_second", q->probe_flops_per_second[i]}});
      j["passes"]["timed"] = q->passes_timed;
      j["passes"]["kept"] = q->passes_kept;
      j["passes"]["quiet"] = {{"candidates", q->candidates},
                              {"kept", q->passes_kept},
                              {"interval_seconds", q->interval_seconds},
                              {"reference_conv_flops_per_second", q->reference_flops_per_second},
                              {"tolerance", q->tolerance},
                              {"quiet_passes", q->quiet_passes},
                              {"quiet_median_pass_seconds", q->quiet_median_seconds},
                              {"spell_passes", q->spell_passes},
                              {"spell_median_pass_seconds", q->spell_median_seconds},
                              {"all_kept_for_too_few", q->all_kept_for_too_few},
                              {"probes", std::move(probes)},
                              {"pass_seconds", q->pass_seconds}};
    }
    j["statistic"] = std::string(to_string(v.run.statistic));
    j["summary"] = {{"mape", s.mape},
                    {"median_abs_error", s.median_abs_error},
                    {"end_to_end_error", s.end_to_end_error},
                    {"measured_total_seconds", s.measured_total_seconds},
                    {"measured_layer_sum_seconds", s.measured_layer_sum_seconds},
                    {"predicted_total_seconds", s.predicted_total_seconds},
                    {"predicted_layer_sum_seconds", s.predicted_layer_sum_seconds},
                    {"predicted_pass_excess_seconds", s.predicted_pass_excess_seconds},
                    {"layers_in_summary", s.layers_in_summary},
                    {"noisy_layers", s.noisy_layers}};
    j["host_state"] = {{"compute_tolerance", v.host.policy.compute_tolerance},
                       {"cross_core_tolerance", v.host.policy.cross_core_tolerance},
                       {"round_trip_factor", v.host.policy.round_trip_factor},
                       {"conv_tolerance", v.host.policy.conv_tolerance},
                       {"reference", state_json(v.host.reference)},
                       {"before", state_json(v.host.before)},
                       {"after", state_json(v.host.after)},
                       {"drift_before", drift_json(v.host.drift_before)},
                       {"drift_after", drift_json(v.host.drift_after)},
                       {"drifted", v.host.drifted},
                       {"passes_in_spell", v.host.passes_in_spell},
                       {"changed", v.host.changed}};
    return j.dump(2) + "\n";
  }
  if (f == Format::csv) {
    std::ostringstream o;
    o << "layer,op,path,flops,bytes,predicted (s),measured " << to_string(v.run.statistic)
      << " (s),median (s),mean (s),sd (s),min (s),p20 (s),max (s),error,bound,noisy,in_summary\n";
    for (const auto &r : v.rows)
      o << csv_field(r.name) << ',' << csv_field(r.op) << ',' << csv_field(r.path) << ','
        << num(r.flops) << ',' << num(r.bytes) << ',' << num(r.predicted_seconds) << ','
        << num(r.measured_seconds) << ',' << num(r.measured.median_seconds) << ','
        << num(r.measured.mean_seconds) << ',' << num(r.measured.sd_seconds) << ','
        << num(r.measured.min_seconds) << ',' << num(r.measured.p20_seconds) << ','
        << num(r.measured.max_seconds) << ',' << (r.error ? num(*r.error) : "") << ',' << r.bound
        << ',' << (r.measured.noisy ? "yes" : "no") << ',' << (r.in_summary ? "yes" : "no") << "\n";
    return o.str();
  }
  const bool md = f == Format::md;
  std::vector<std::string> header{"layer", "op",  "path",      "measured " + std::string(to_string(v.run.statistic)),
                                  "sd",    "min", "max",       "predicted",
                                  "error", "bound", "noisy"};
  std::vector<std::vector<std::string>> rows;
  for (const auto &r : v.rows)
    rows.push_back({r.name, r.op, r.path, si(r.measured_seconds, "s"),
                    si(r.measured.sd_seconds, "s"), si(r.measured.min_seconds, "s"),
                    si(r.measured.max_seconds, "s"), si(r.predicted_seconds, "s"),
                    r.error ? signed_pct(*r.error) + (r.in_summary ? "" : "*") : "", r.bound,
                    r.measured.noisy ? "noisy" : ""});
  std::ostringstream o;
  o << "measured on " << v.run.device << " (" << v.run.executed_dtype << "), predicted for "
    << v.hardware << " ("
    << (v.calibrated ? "calibrated: " + v.run.calibration : std::string("roofline"))
    << (v.run.calibration_candidates.size() > 1
            ? ", the nearest host state of " + std::to_string(v.run.calibration_candidates.size()) +
                  " calibrations"
            : "")
    << "), model " << v.model << " batch " << v.batch << "; " << v.run.network.warmup
    << " warm-up + " << (v.run.placement ? v.run.placement->passes_timed : v.run.network.iters)
    << (v.run.network.cache_state == "in-network" ? " timed passes, every layer timed inside them"
                                                  : " timed runs per layer")
    << ", caches " << v.run.network.cache_state << ", buffers " << v.run.buffers << " ("
    << si(v.run.activation_bytes, "B") << " of activations, " << si(v.run.workspace_bytes, "B")
    << " of workspace)\n";
  if (const auto &pp = v.run.placement)
    o << placement_line(*pp) << "\n";
  if (const auto &q = v.run.quiet)
    o << quiet_line(*q) << "\n";
  if (!v.run.calibration_mismatch.empty())
    o << "calibration taken on another machine: " << v.run.calibration_mismatch << "\n";
  o << "\n";
  if (md) {
    o << md_table(header, rows);
  } else {
    TextTable t(header);
    for (auto &r : rows)
      t.add(r);
    o << t.str();
  }
  o << "\n* not in the MAPE (measured below " << si(v.run.min_layer_seconds, "s") << ")\n";
  o << summary_lines(v);
  return o.str();
}

std::string render_microbench(const std::vector<BenchRow> &rows, const std::string &device,
                              Format f) {
  auto rate = [](double work, const MeasuredStats &s) {
    return s.median_seconds > 0 ? work / s.median_seconds : 0.0;
  };
  if (f == Format::json) {
    json j;
    j["schema"] = "perfmodel.microbench/1";
    j["device"] = device;
    json arr = json::array();
    for (const auto &r : rows)
      arr.push_back({{"name", r.name},
                     {"kind", r.kind},
                     {"variant", r.variant},
                     {"dtype", r.dtype},
                     {"threads", r.threads},
                     {"working_set_bytes", r.working_set_bytes},
                     {"flops", r.flops},
                     {"bytes", r.bytes},
                     {"flops_per_second", rate(r.flops, r.stats)},
                     {"bytes_per_second", rate(r.bytes, r.stats)},
                     {"stats", stats_json(r.stats)}});
    j["results"] = std::move(arr);
    return j.dump(2) + "\n";
  }
  if (f == Format::csv) {
    std::ostringstream o;
    o << "name,kind,variant,dtype,threads,working set (B),flops,bytes,median (s),mean (s),sd (s),"
         "min (s),max (s),rate (FLOP/s),bandwidth (B/s),noisy\n";
    for (const auto &r : rows)
      o << csv_field(r.name) << ',' << r.kind << ',' << csv_field(r.variant) << ',' << r.dtype
        << ',' << r.threads << ',' << num(r.working_set_bytes) << ',' << num(r.flops) << ','
        << num(r.bytes) << ',' << num(r.stats.median_seconds) << ',' << num(r.stats.mean_seconds)
        << ',' << num(r.stats.sd_seconds) << ',' << num(r.stats.min_seconds) << ','
        << num(r.stats.max_seconds) << ',' << num(rate(r.flops, r.stats)) << ','
        << num(rate(r.bytes, r.stats)) << ',' << (r.stats.noisy ? "yes" : "no") << "\n";
    return o.str();
  }
  std::vector<std::string> header{"benchmark", "threads", "median", "sd",   "min",
                                  "max",       "FLOP/s",  "B/s",    "noisy"};
  std::vector<std::vector<std::string>> cells;
  for (const auto &r : rows)
    cells.push_back(
        {r.name, std::to_string(r.threads), si(r.stats.median_seconds, "s"),
         si(r.stats.sd_seconds, "s"), si(r.stats.min_seconds, "s"), si(r.stats.max_seconds, "s"),
         r.flops > 0 ? si(rate(r.flops, r.stats), "F/s") : "",
         r.bytes > 0 ? si(rate(r.bytes, r.stats), "B/s") : "", r.stats.noisy ? "noisy" : ""});
  std::ostringstream o;
  o << "microbenchmarks on " << device << "\n\n";
  if (f == Format::md) {
    o << md_table(header, cells);
  } else {
    TextTable t(header);
    for (auto &r : cells)
      t.add(r);
    o << t.str();
  }
  return o.str();
}

} // namespace perfmodel::report
