// Renders measured-vs-predicted layers and microbenchmark results: numbers computed once in
// make_measurement_view(), printed four ways.
#include "perfmodel/report/measure_view.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sstream>

#include "perfmodel/error.hpp"
#include "perfmodel/report/json_text.hpp"
#include "report/columns.hpp"
#include "report/measure_energy.hpp"

namespace perfmodel::report {

namespace {

using json = nlohmann::ordered_json;

std::string signed_pct(double f) { return pct(f, 1, true); }

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
    << drift(h.drift_before, &HostDrift::compute) << " / "
    << drift(h.drift_after, &HostDrift::compute) << ", memory "
    << drift(h.drift_before, &HostDrift::memory) << " / "
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
  const std::string factor = fmt::format("{:g}x", h.policy.round_trip_factor);
  if (h.drifted)
    o << "the host was not in its calibrated state (compute drift beyond "
      << pct(h.policy.compute_tolerance) << ", "
      << (by_round_trip ? std::string("the core round trip beyond ") + factor + " either way"
                        : "cross-core beyond " + pct(h.policy.cross_core_tolerance))
      << ", or the faster conv probe beyond " << pct(h.policy.conv_tolerance)
      << "): these errors measure the host as much as the model\n";
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
  return json{
      {"compute", d->compute},       {"memory", d->memory},
      {"cross_core", d->cross_core}, {"conv", d->conv},
      {"round_trip", d->round_trip}, {"placement_by_round_trip", d->placement_by_round_trip}};
}

std::string summary_lines(const MeasurementView &v) {
  const auto &s = v.summary;
  std::ostringstream o;
  o << "per-layer MAPE " << pct(s.mape) << " (median |error| " << pct(s.median_abs_error)
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
    o << s.noisy_layers << " noisy layer(s): (max-min)/median > " << pct(v.run.noisy_range_fraction)
      << " or sd/mean > " << pct(v.run.noisy_sd_fraction) << " (reported, not dropped)\n";
  o << host_lines(v.host);
  if (v.host.passes_in_spell && v.run.quiet)
    o << "the passes ran in a slow spell of the host: " << v.run.quiet->quiet_passes << " of "
      << v.run.quiet->candidates << " ran between convolution probes within "
      << pct(v.run.quiet->tolerance) << " of the calibration's "
      << si(v.run.quiet->calibration_flops_per_second, "FLOP/s")
      << ": these errors measure the host as much as the model\n";
  return o.str();
}

// The per-layer columns; the measured column is named by the run's statistic.
std::vector<Column<MeasurementRow>> layer_columns(const MeasurementRun &run) {
  using R = MeasurementRow;
  using C = Column<R>;
  const std::string stat(to_string(run.statistic));
  auto m = [](double MeasuredStats::*f) { return [f](const R &r) { return r.measured.*f; }; };
  return {
      {"name", "layer", hint::text(), &R::name},
      {"op", "op", hint::text(), &R::op},
      {"path", "path", hint::text(), &R::path},
      C("flops", "flops", hint::si("F"), &R::flops, kData).csv_as("flops"),
      C("bytes", "bytes", hint::si("B"), &R::bytes, kData).csv_as("bytes"),
      {"predicted_seconds", "predicted", hint::si("s"), &R::predicted_seconds, kData},
      {"bound", "bound", hint::text(), &R::bound, kJson},
      {"measured_seconds", "measured " + stat, hint::si("s"), &R::measured_seconds},
      {"median_seconds", "median", hint::si("s"), m(&MeasuredStats::median_seconds), kCsv},
      {"mean_seconds", "mean", hint::si("s"), m(&MeasuredStats::mean_seconds), kCsv},
      {"sd_seconds", "sd", hint::si("s"), m(&MeasuredStats::sd_seconds), kText | kCsv},
      {"min_seconds", "min", hint::si("s"), m(&MeasuredStats::min_seconds), kText | kCsv},
      {"p20_seconds", "p20", hint::si("s"), m(&MeasuredStats::p20_seconds), kCsv},
      {"max_seconds", "max", hint::si("s"), m(&MeasuredStats::max_seconds), kText | kCsv},
      {"stats", "stats", hint::text(), [](const R &r) { return stats_json(r.measured); }, kJson},
      {"predicted_seconds", "predicted", hint::si("s"), &R::predicted_seconds, kText},
      // The text formats star an error left out of the MAPE.
      {"error", "error", hint::text(),
       [](const R &r) {
         return r.error ? signed_pct(*r.error) + (r.in_summary ? "" : "*") : std::string();
       },
       kText},
      C("error", "error", hint::percent(1, true), &R::error, kData).null_in_json(),
      {"bound", "bound", hint::text(), &R::bound, kText | kCsv},
      {"noisy", "noisy", hint::flag("noisy", "", "yes", "no"),
       [](const R &r) { return r.measured.noisy; }, kText | kCsv},
      {"in_summary", "in_summary", hint::flag("yes", "no", "yes", "no"), &R::in_summary, kData},
  };
}

// The microbenchmark columns. Rates are over the median; the text formats leave a zero rate
// (a benchmark without FLOPs or bytes) blank.
const std::vector<Column<BenchRow>> &bench_columns() {
  using B = BenchRow;
  using C = Column<B>;
  auto rate = [](double B::*work) {
    return [work](const B &b) {
      return b.stats.median_seconds > 0 ? b.*work / b.stats.median_seconds : 0.0;
    };
  };
  auto s = [](double MeasuredStats::*f) { return [f](const B &b) { return b.stats.*f; }; };
  static const std::vector<C> cols = {
      C("name", "benchmark", hint::text(), &B::name).csv_as("name"),
      {"kind", "kind", hint::text(), &B::kind, kData},
      {"variant", "variant", hint::text(), &B::variant, kData},
      {"dtype", "dtype", hint::text(), &B::dtype, kData},
      {"threads", "threads", hint::count(), &B::threads},
      {"working_set_bytes", "working set", hint::si("B"), &B::working_set_bytes, kData},
      C("flops", "flops", hint::si("F"), &B::flops, kData).csv_as("flops"),
      C("bytes", "bytes", hint::si("B"), &B::bytes, kData).csv_as("bytes"),
      {"median_seconds", "median", hint::si("s"), s(&MeasuredStats::median_seconds), kText | kCsv},
      {"mean_seconds", "mean", hint::si("s"), s(&MeasuredStats::mean_seconds), kCsv},
      {"sd_seconds", "sd", hint::si("s"), s(&MeasuredStats::sd_seconds), kText | kCsv},
      {"min_seconds", "min", hint::si("s"), s(&MeasuredStats::min_seconds), kText | kCsv},
      {"max_seconds", "max", hint::si("s"), s(&MeasuredStats::max_seconds), kText | kCsv},
      C("flops_per_second", "FLOP/s", hint::si("F/s").unset_when_zero(), rate(&B::flops))
          .csv_as("rate (FLOP/s)"),
      C("bytes_per_second", "B/s", hint::si("B/s").unset_when_zero(), rate(&B::bytes))
          .csv_as("bandwidth (B/s)"),
      {"noisy", "noisy", hint::flag("noisy", "", "yes", "no"),
       [](const B &b) { return b.stats.noisy; }, kText | kCsv},
      {"stats", "stats", hint::text(), [](const B &b) { return stats_json(b.stats); }, kJson},
  };
  return cols;
}

// CSV numbers to 9 significant digits; Markdown rules without alignment.
const Style kStyle{9, false, false};

} // namespace

namespace {

// "10 passes, median 40.1 ms", "1 pass, median 45.3 ms" or "no pass"
std::string passes_and_median(int n, double median_seconds) {
  if (n <= 0)
    return "no pass";
  return fmt::format("{} pass{}, median {:.4g} ms", n, n == 1 ? "" : "es", 1e3 * median_seconds);
}

} // namespace

// "statistics over 68 of 80 timed passes, those in the faster placement of the threads (core
// round trip between passes within 2x of 0.35 us: 68 passes, median 40.1 ms; beyond: 10
// passes, median 45.3 ms)"
std::string placement_line(const PassPlacement &p) {
  const auto side = [&](bool long_side) {
    return long_side ? passes_and_median(p.long_passes, p.long_median_seconds)
                     : passes_and_median(p.short_passes, p.short_median_seconds);
  };
  const bool first_long = p.kept_long_round_trip && !p.all_kept_for_too_few;
  const std::string rule = fmt::format(
      "core round trip between passes {} {:.3g}x of {:.3g} us: {}; {}: {}",
      first_long ? "beyond" : "within", p.round_trip_factor, 1e6 * p.reference_round_trip_seconds,
      side(first_long), first_long ? "within" : "beyond", side(!first_long));
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
  const std::string rule = fmt::format(
      "convolution probes within {:.0f}% of {}, {:.3g} GFLOP/s; {} probes every {:.3g} s",
      100 * q.tolerance,
      q.calibration_flops_per_second > 0 ? "the fastest probe or the calibration's, the faster"
                                         : "the fastest",
      1e-9 * q.reference_flops_per_second, q.probe_flops_per_second.size(), q.interval_seconds);
  const std::string of = q.candidates == q.passes_timed
                             ? "of the " + std::to_string(q.passes_timed) + " timed passes"
                             : "of those " + std::to_string(q.candidates);
  if (q.all_kept_for_too_few)
    return of + ", all kept: too few ran between quiet probes (" + rule +
           "; quiet: " + side(q.quiet_passes, q.quiet_median_seconds) +
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
  v.energy = compare_energy(p, run);
  return v;
}

std::string render_measurement(const MeasurementView &v, Format f) {
  const auto &s = v.summary;
  const Grid g = make_grid(layer_columns(v.run), v.rows, kStyle);
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
    j["calibration_mismatch"] =
        v.run.calibration_mismatch.empty() ? json(nullptr) : json(v.run.calibration_mismatch);
    j["min_layer_seconds"] = v.run.min_layer_seconds;
    j["noisy_thresholds"] = {{"range_fraction", v.run.noisy_range_fraction},
                             {"sd_fraction", v.run.noisy_sd_fraction}};
    j["layers"] = json_rows(g);
    j["network"] = stats_json(v.run.network);
    if (const auto &pp = v.run.placement)
      j["passes"] = {
          {"filter", v.run.quiet ? "quiet" : "faster-placement"},
          {"timed", pp->passes_timed},
          {"kept", pp->passes_kept},
          {"reference_round_trip_seconds", pp->reference_round_trip_seconds},
          {"round_trip_factor", pp->round_trip_factor},
          {"kept_placement", pp->all_kept_for_too_few   ? "both"
                             : pp->kept_long_round_trip ? "long_round_trip"
                                                        : "short_round_trip"},
          {"short_round_trip",
           {{"passes", pp->short_passes}, {"median_pass_seconds", pp->short_median_seconds}}},
          {"long_round_trip",
           {{"passes", pp->long_passes}, {"median_pass_seconds", pp->long_median_seconds}}},
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
    if (v.energy || !v.run.energy_unavailable.empty())
      j["energy"] = energy_json(v);
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
    return perfmodel::report::json_text(j);
  }
  if (f == Format::csv)
    return csv(g);
  const bool md = f == Format::md;
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
    << (!v.run.timing_note.empty() ? " " + v.run.timing_note
        : v.run.network.cache_state == "in-network"
            ? " timed passes, every layer timed inside them, caches in-network"
            : " timed runs per layer, caches " + v.run.network.cache_state)
    << ", buffers " << v.run.buffers << " ("
    << si(v.run.activation_bytes, "B") << " of activations, " << si(v.run.workspace_bytes, "B")
    << " of workspace)\n";
  if (const auto &pp = v.run.placement)
    o << placement_line(*pp) << "\n";
  if (const auto &q = v.run.quiet)
    o << quiet_line(*q) << "\n";
  if (!v.run.calibration_mismatch.empty())
    o << "calibration taken on another machine: " << v.run.calibration_mismatch << "\n";
  o << "\n";
  o << (md ? markdown(g) : table(g));
  o << "\n* not in the MAPE (measured below " << si(v.run.min_layer_seconds, "s") << ")\n";
  o << summary_lines(v);
  o << energy_line(v);
  return o.str();
}

std::string render_microbench(const std::vector<BenchRow> &rows, const std::string &device,
                              Format f) {
  const Grid g = make_grid(bench_columns(), rows, kStyle);
  if (f == Format::json) {
    json j;
    j["schema"] = "perfmodel.microbench/1";
    j["device"] = device;
    j["results"] = json_rows(g);
    return perfmodel::report::json_text(j);
  }
  if (f == Format::csv)
    return csv(g);
  return "microbenchmarks on " + device + "\n\n" + (f == Format::md ? markdown(g) : table(g));
}

} // namespace perfmodel::report
