// Renders a SweepResult in the four output formats from one list of columns.
#include "perfmodel/report/sweep_view.hpp"

#include "report/columns.hpp"

namespace perfmodel::report {
namespace {

using P = SweepPoint;

// A measure of an evaluated point (none for a skipped one).
template <class T> std::function<Value(const P &)> of(T P::*f) {
  return [f](const P &p) { return p.skipped ? Value() : to_value(p.*f); };
}

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

// CSV numbers to 6 significant digits; Markdown rules spaced.
Grid grid(const SweepResult &r) {
  return make_grid(columns(), r.points, Style{6, true, true},
                   std::function<std::string(const P &)>([](const P &p) {
                     return p.skipped ? "skipped: " + *p.skipped : std::string();
                   }));
}

std::string title(const SweepResult &r) {
  return "sweep of " + r.model + ": " + std::to_string(r.points.size()) + " points, " +
         std::to_string(r.evaluated()) + " evaluated, " + std::to_string(r.skipped()) + " skipped";
}

} // namespace

std::string render_sweep_table(const SweepResult &r) { return title(r) + "\n" + table(grid(r)); }

std::string render_sweep_csv(const SweepResult &r) { return csv(grid(r)); }

std::string render_sweep_json(const SweepResult &r) {
  Json j;
  j["schema"] = "perfmodel.sweep/1";
  j["model"] = r.model;
  j["evaluated"] = r.evaluated();
  j["skipped"] = r.skipped();
  j["points"] = json_rows(grid(r));
  return j.dump(2) + "\n";
}

std::string render_sweep_md(const SweepResult &r) {
  return "**" + md_cell(title(r)) + "**\n\n" + markdown(grid(r));
}

std::string render_sweep(const SweepResult &r, Format f) {
  switch (f) {
  case Format::csv:
    return render_sweep_csv(r);
  case Format::json:
    return render_sweep_json(r);
  case Format::md:
    return render_sweep_md(r);
  case Format::table:
    break;
  }
  return render_sweep_table(r);
}

} // namespace perfmodel::report
