// Renders a SweepResult in the four output formats from one list of columns.
#include "perfmodel/report/sweep_view.hpp"

#include <algorithm>
#include <span>

#include "perfmodel/report/json_text.hpp"
#include "report/columns.hpp"
#include "report/points_writer.hpp"
#include "report/sweep_points.hpp"

namespace perfmodel::report {
namespace {

using P = SweepPoint;

const std::vector<Column<P>> &columns() {
  using C = Column<P>;
  static const std::vector<C> cols = {
      {"hw", "hw", hint::text(), &P::hw},
      {"dtype", "dtype", hint::text(), [](const P &p) { return to_string(p.dtype); }},
      C("batch", "batch", hint::count(), &P::batch).align_right(false),
      {"pass", "pass", hint::text(), [](const P &p) { return to_string(p.pass); }},
      {"skipped", "skipped", hint::text(), &P::skipped, kJson},
      {"latency_seconds", "latency", hint::si("s"), of(&P::latency_seconds)},
      C("throughput_samples_per_second", "throughput", hint::si("/s"),
        of(&P::throughput_samples_per_second))
          .csv_as("throughput (samples/s)"),
      C("flops", "FLOPs", hint::si("F"), of(&P::flops)).csv_as("flops (FLOP)"),
      {"bytes", "bytes", hint::si("B"), of(&P::bytes)},
      C("flops_per_second", "FLOP/s", hint::si("F/s"), of(&P::flops_per_second))
          .csv_as("flop rate (FLOP/s)"),
      C("arithmetic_intensity", "AI", hint::si("F/B"), of(&P::arithmetic_intensity))
          .csv_as("arithmetic intensity (FLOP/B)"),
      C("share_compute_bound", "%compute", hint::percent(0), of(&P::share_compute_bound))
          .csv_as("compute-bound share"),
      C("share_memory_bound", "%memory", hint::percent(0), of(&P::share_memory_bound))
          .csv_as("memory-bound share"),
      C("share_overhead_bound", "%overhead", hint::percent(0), of(&P::share_overhead_bound))
          .csv_as("overhead-bound share"),
      {"energy_joules", "energy", hint::si("J"), of(&P::energy_joules)},
      C("energy_per_sample_joules", "J/sample", hint::si("J"), of(&P::energy_per_sample_joules))
          .csv_as("energy per sample (J)"),
      C("samples_per_joule", "samples/J", hint::si("/J"), of(&P::samples_per_joule))
          .csv_as("samples per joule (1/J)"),
      C("average_power_watts", "power", hint::si("W"), of(&P::average_power_watts))
          .csv_as("average power (W)"),
      C("flops_per_second_per_watt", "F/s/W", hint::si("F/s/W"), of(&P::flops_per_second_per_watt))
          .csv_as("efficiency (FLOP/s/W)"),
      {"weights_bytes", "weights", hint::si("B"), of(&P::weights_bytes), kJson},
      {"activation_bytes", "activations", hint::si("B"), of(&P::activation_bytes), kJson},
      C("memory_bytes", "footprint", hint::si("B"), of(&P::memory_bytes)).csv_as("memory (B)"),
      {"memory_capacity_bytes", "capacity", hint::si("B"), of(&P::memory_capacity_bytes), kJson},
      C("fits_in_memory", "fits", hint::flag("yes", "NO"), of(&P::fits_in_memory))
          .csv_as("fits in memory")
          .align_right(true),
      {"skipped", "skipped", hint::text(), &P::skipped, kCsv},
  };
  return cols;
}

Grid grid(std::span<const P> points) { return points_grid(columns(), points); }

std::string title(const SweepResult &r) {
  return "sweep of " + r.model + ": " + std::to_string(r.points.size()) + " points, " +
         std::to_string(r.evaluated()) + " evaluated, " + std::to_string(r.skipped()) + " skipped";
}

// Best first: the smallest latency, energy, power and footprint; the largest rates.
const std::vector<SortKey<P>> &sort_keys() {
  static const std::vector<SortKey<P>> k = {
      ascending("latency", &P::latency_seconds),
      descending("throughput", &P::throughput_samples_per_second),
      descending("flops_per_second", &P::flops_per_second),
      ascending("energy", &P::energy_joules),
      ascending("energy_per_sample", &P::energy_per_sample_joules),
      descending("samples_per_joule", &P::samples_per_joule),
      ascending("power", &P::average_power_watts),
      descending("flops_per_second_per_watt", &P::flops_per_second_per_watt),
      ascending("memory", &P::memory_bytes),
      ascending("batch", &P::batch),
      ascending("hw", &P::hw),
  };
  return k;
}

} // namespace

std::vector<std::string> sweep_sort_keys() { return sort_key_names(sort_keys()); }

bool sort_sweep(SweepResult &r, const std::string &key) {
  return sort_points(r.points, sort_keys(), key);
}

void write_sweep(const SweepResult &r, Format f, const std::function<void(std::string_view)> &out) {
  Json head;
  head["schema"] = "perfmodel.sweep/1";
  head["model"] = r.model;
  head["evaluated"] = r.evaluated();
  head["skipped"] = r.skipped();
  const std::span<const P> all(r.points);
  write_points(
      all.size(), [&](size_t at, size_t n) { return grid(all.subspan(at, n)); }, head, title(r), f,
      out);
}

std::string render_sweep(const SweepResult &r, Format f) {
  std::string text;
  write_sweep(r, f, [&](std::string_view piece) { text += piece; });
  return text;
}

std::string render_sweep_table(const SweepResult &r) { return render_sweep(r, Format::table); }
std::string render_sweep_csv(const SweepResult &r) { return render_sweep(r, Format::csv); }
std::string render_sweep_json(const SweepResult &r) { return render_sweep(r, Format::json); }
std::string render_sweep_md(const SweepResult &r) { return render_sweep(r, Format::md); }

} // namespace perfmodel::report
