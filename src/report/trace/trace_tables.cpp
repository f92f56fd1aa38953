// The columns of the trace views. Measured times print in seconds; JSON keeps them to whole
// nanoseconds (traces record microseconds, newer ones nanoseconds), which drops only the
// rounding noise of summing range lengths in seconds.
#include "report/trace/trace_tables.hpp"

#include <fmt/format.h>

namespace perfmodel::report {
namespace {

// CSV numbers to 9 significant digits; Markdown rules spaced.
const Style kStyle{9, true, true};

// A measured time.
Unit measured() { return hint::si("s").rounded_in_json(1e9); }

// The CSV's first column names the view, so that the tables of --view all can be told apart.
template <class Row> Column<Row> view_column(const char *view) {
  return Column<Row>(
      "view", "view", hint::text(), [view](const Row &) { return view; }, kCsv);
}

} // namespace

std::string recommendation_text(const trace::Recommendation &r) {
  using K = trace::Recommendation::Kind;
  switch (r.kind) {
  case K::dataloader:
    return pct(r.fraction) +
           " of the step time is spent loading input data (DataLoader): set num_workers on the "
           "DataLoader so that batches are prepared by worker processes while the GPU computes.";
  case K::communication:
    return pct(r.fraction) +
           " of the step time is communication: overlap it with computation, or use larger "
           "batches or gradient accumulation to communicate less often.";
  case K::gpu_utilization:
    return "GPU utilization is " + pct(r.fraction) +
           ": the GPU waits for the host. Try a larger batch size, fewer host-side operations "
           "per step, or CUDA graphs to cut launch overhead.";
  }
  return "";
}

TraceTable overview_table(const trace::Overview &o) {
  using S = trace::StepTimes;
  static const char *const keys[] = {"kernel",  "memcpy",     "memset",   "communication",
                                     "runtime", "dataloader", "cpu_exec", "other"};
  std::vector<Column<S>> cols = {view_column<S>("overview"),
                                 {"step", "step", hint::text(), &S::step}};
  const auto &roles = trace::role_names();
  for (size_t i = 0; i < roles.size(); ++i)
    cols.push_back(
        {keys[i], roles[i], measured(), [i](const S &s) { return trace::role_values(s)[i]; }});
  cols.push_back({"total", "Total", measured(), &S::total});
  std::vector<S> rows = o.steps;
  rows.push_back(o.average);
  TraceTable t{"overview",
               fmt::format("Overview: {} steps, average {}, GPU utilization {}", o.steps.size(),
                           si(o.average.total, "s"), pct(o.gpu_utilization)),
               make_grid(cols, rows, kStyle),
               {}};
  std::vector<std::string> share{"share"};
  for (double v : trace::role_values(o.average))
    share.push_back(o.average.total > 0 ? pct(v / o.average.total) : "-");
  share.push_back("100.0%");
  t.grid.text_rows.push_back(share);
  if (o.dropped_tail_steps > 0)
    t.notes.push_back("dropped " + std::to_string(o.dropped_tail_steps) +
                      " trailing step(s) whose device work the profiler did not capture");
  if (o.recommendations.empty())
    t.notes.push_back("Recommendations: none");
  for (const auto &r : o.recommendations)
    t.notes.push_back("Recommendation: " + recommendation_text(r));
  return t;
}

TraceTable operators_table(const std::vector<trace::OperatorRow> &ops) {
  using O = trace::OperatorRow;
  static const std::vector<Column<O>> cols = {
      view_column<O>("operators"),
      {"name", "operator", hint::text(), &O::name},
      {"calls", "calls", hint::count(), &O::calls},
      {"device_self", "device self", measured(), &O::device_self},
      {"device_total", "device total", measured(), &O::device_total},
      {"host_self", "host self", measured(), &O::host_self},
      {"host_total", "host total", measured(), &O::host_total},
  };
  return {"operators", "Operators", make_grid(cols, ops, kStyle), {}};
}

TraceTable kernels_table(const std::vector<trace::KernelRow> &ks) {
  using K = trace::KernelRow;
  // The table and Markdown cut the long C++ kernel signatures (CSV and JSON keep them whole).
  static const std::vector<Column<K>> cols = {
      view_column<K>("kernels"),
      {"name", "kernel", hint::text(100), &K::name},
      {"calls", "calls", hint::count(), &K::calls},
      {"total", "total", measured(), &K::total},
      {"mean", "mean", measured(), &K::mean},
      {"max", "max", measured(), &K::max},
      {"min", "min", measured(), &K::min},
  };
  return {"kernels", "Kernels", make_grid(cols, ks, kStyle), {}};
}

std::vector<TraceTable> attainment_tables(const trace::AttainmentView &v,
                                          const std::string &order) {
  using R = trace::AttainmentRow;
  using C = Column<R>;
  // The calibrated time: a column where the first row has one; JSON gives it on every row that
  // has one.
  const bool cal = !v.rows.empty() && v.rows[0].calibrated_seconds >= 0;
  const std::vector<C> rows = {
      view_column<R>("attainment"),
      C(
          "rank", "#", hint::count(), [](const R &, size_t i) { return i + 1; }, kText | kCsv)
          .csv_as("rank"),
      {"name", "operator", hint::text(), &R::name},
      {"op", "as", hint::text(), &R::op},
      {"shapes", "shapes", hint::text(), &R::shapes},
      {"calls", "calls", hint::count(), &R::calls},
      C("flops", "FLOPs", hint::si("F"), &R::flops).csv_as("flops"),
      {"bytes", "bytes", hint::si("B"), &R::bytes},
      {"device_seconds", "device", measured(), &R::device_seconds},
      {"roofline_seconds", "roofline", hint::si("s"), &R::roofline_seconds},
      C("fraction_of_roofline", "of roofline", hint::percent(),
        [](const R &r) {
          return r.fraction_of_roofline();
        }).csv_as("fraction of roofline"),
      C("time_lost_seconds", "lost", hint::si("s"),
        [](const R &r) {
          return r.time_lost();
        }).csv_as("time lost (s)"),
      C("achieved_flops_per_second", "FLOP/s", hint::si("F/s"),
        [](const R &r) {
          return r.achieved_flops_per_second();
        }).csv_as("achieved (FLOP/s)"),
      C("achieved_bytes_per_second", "B/s", hint::si("B/s"),
        [](const R &r) {
          return r.achieved_bytes_per_second();
        }).csv_as("achieved (B/s)"),
      {"bound", "bound", hint::text(), [](const R &r) { return to_string(r.bound); }},
      {"calibrated_seconds", "calibrated", hint::si("s"),
       [](const R &r) -> Value {
         return r.calibrated_seconds >= 0 ? Value(r.calibrated_seconds) : Value();
       },
       cal ? kAll : kJson},
  };
  using Sum = trace::AttainmentSummary;
  using CS = Column<Sum>;
  static const std::vector<CS> summary = {
      view_column<Sum>("attainment_summary"),
      {"op", "as", hint::text(), &Sum::op},
      {"calls", "calls", hint::count(), &Sum::calls},
      CS("flops", "FLOPs", hint::si("F"), &Sum::flops).csv_as("flops"),
      {"bytes", "bytes", hint::si("B"), &Sum::bytes},
      {"device_seconds", "device", hint::si("s"), &Sum::device_seconds},
      {"roofline_seconds", "roofline", hint::si("s"), &Sum::roofline_seconds},
      CS("fraction_of_roofline", "of roofline", hint::percent(),
         [](const Sum &s) { return s.fraction_of_roofline(); })
          .csv_as("fraction of roofline"),
      CS("time_lost_seconds", "lost", hint::si("s"), [](const Sum &s) { return s.time_lost(); })
          .csv_as("time lost (s)"),
  };
  using U = trace::UnattributedRow;
  using CU = Column<U>;
  static const std::vector<CU> unattributed = {
      view_column<U>("unattributed"),
      {"name", "activity", hint::text(100), &U::name},
      CU("op", "launched by", hint::text().unset_when_zero(), &U::op).missing_as("-"),
      {"reason", "reason", hint::text(), &U::reason},
      {"calls", "calls", hint::count(), &U::calls},
      {"device_seconds", "device", measured(), &U::seconds},
  };
  return {{"attainment",
           "Roofline attainment on " + v.hardware + ": operators ranked by " +
               (order == "time_lost" ? std::string("time lost (device - roofline)")
                                     : "--sort " + order) +
               "; modelled " + si(v.modelled_seconds, "s") + " of " + si(v.device_seconds, "s") +
               " device time",
           make_grid(rows, v.rows, kStyle),
           {}},
          {"attainment_summary",
           "Roofline attainment per layer kind and pass",
           make_grid(summary, v.summary, kStyle),
           {}},
          {"unattributed",
           "Device activity not attributed to a modelled operator",
           make_grid(unattributed, v.unattributed, kStyle),
           {}}};
}

std::vector<TraceTable> cross_device_tables(const trace::CrossDeviceView &v) {
  using R = trace::CrossDeviceRow;
  using C = Column<R>;
  const std::string on_source = " on " + v.source, on_target = " on " + v.target;
  const std::vector<C> rows = {
      view_column<R>("predict_on"),
      C(
          "rank", "#", hint::count(), [](const R &, size_t i) { return i + 1; }, kText | kCsv)
          .csv_as("rank"),
      {"name", "operator", hint::text(), &R::name},
      {"op", "as", hint::text(), &R::op},
      {"shapes", "shapes", hint::text(), &R::shapes},
      {"calls", "calls", hint::count(), &R::calls},
      C("source_seconds", "measured" + on_source, measured(), &R::source_seconds)
          .csv_as("source_seconds"),
      C("source_model_seconds", "model" + on_source, hint::si("s"), &R::source_model)
          .csv_as("source_model_seconds"),
      C("target_model_seconds", "model" + on_target, hint::si("s"), &R::target_model)
          .csv_as("target_model_seconds"),
      C("ratio", "ratio", hint::number(3), [](const R &r) { return r.ratio(); }),
      C("predicted_seconds", "predicted" + on_target, hint::si("s"), &R::predicted_seconds)
          .csv_as("predicted_seconds"),
  };
  using S = trace::CrossDeviceSummary;
  using CS = Column<S>;
  const std::vector<CS> summary = {
      view_column<S>("predict_on_summary"),
      {"op", "as", hint::text(), &S::op},
      {"calls", "calls", hint::count(), &S::calls},
      CS("source_seconds", "measured" + on_source, hint::si("s"), &S::source_seconds)
          .csv_as("source_seconds"),
      CS("ratio", "ratio", hint::number(3), [](const S &r) { return r.ratio(); }),
      CS("predicted_seconds", "predicted" + on_target, hint::si("s"), &S::predicted_seconds)
          .csv_as("predicted_seconds"),
  };
  using U = trace::CrossDeviceUnmapped;
  using CU = Column<U>;
  const std::vector<CU> unmapped = {
      view_column<U>("predict_on_unmapped"),
      {"name", "activity", hint::text(100), &U::name},
      CU("op", "launched by", hint::text().unset_when_zero(), &U::op).missing_as("-"),
      {"reason", "no model because", hint::text(), &U::reason},
      {"calls", "calls", hint::count(), &U::calls},
      CU("source_seconds", "measured" + on_source, measured(), &U::source_seconds)
          .csv_as("source_seconds"),
      CU("predicted_seconds", "predicted" + on_target, hint::si("s"), &U::predicted_seconds)
          .csv_as("predicted_seconds"),
  };
  const std::string how = v.calibrated ? "the ratio of calibrated times"
                                       : "the ratio of kernel rooflines (max(compute, memory))";
  TraceTable main{"predict_on",
                  "Predicted on " + v.target + " from this trace on " + v.source +
                      ": each operator's measured time x " + how + "; all device activity " +
                      si(v.source_seconds, "s") + " -> " + si(v.predicted_seconds, "s") +
                      fmt::format(" (x{:.3f})", v.ratio()),
                  make_grid(rows, v.rows, kStyle),
                  {}};
  if (v.steps > 0)
    main.notes.push_back("GPU time per step (Kernel + Memcpy + Memset, average of " +
                         std::to_string(v.steps) + " steps): " + si(v.source_step_seconds, "s") +
                         on_source + ", " + si(v.predicted_step_seconds(), "s") + " predicted" +
                         on_target + " (scaled by the trace's overall ratio)");
  return {std::move(main),
          {"predict_on_summary", "Predicted on " + v.target + " per layer kind and pass",
           make_grid(summary, v.summary, kStyle), {}},
          {"predict_on_unmapped",
           "Device activity without a model, scaled by the DRAM bandwidth ratio " + v.source +
               " / " + v.target + fmt::format(" = {:.3f}", v.bandwidth_ratio),
           make_grid(unmapped, v.unmapped, kStyle),
           {}}};
}

} // namespace perfmodel::report
