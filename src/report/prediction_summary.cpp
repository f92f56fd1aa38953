// The header (assumed execution, memory) and the rollup (per op type, per bound) of `predict`.
#include "report/prediction_summary.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace perfmodel::report {

namespace {

// Items joined by `sep` after `prefix`, a new line (indented two spaces) where the next item
// would pass `width` (0: one line).
std::vector<std::string> wrap(const std::string &prefix, const std::vector<std::string> &items,
                              const std::string &sep, size_t width) {
  std::vector<std::string> lines{prefix};
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string piece = items[i] + (i + 1 < items.size() ? sep : "");
    std::string &line = lines.back();
    const bool fresh = line == prefix || line == "  ";
    if (!fresh && width > 0 && line.size() + piece.size() > width) {
      while (!line.empty() && line.back() == ' ')
        line.pop_back();
      lines.push_back("  " + piece);
    } else {
      line += piece;
    }
  }
  return lines;
}

std::string peak_text(const PeakUsed &u, bool calibrated) {
  std::string s = u.op_class.empty() ? u.unit : u.op_class;
  s += " " + std::string(to_string(u.dtype)) + " " + si(u.flops_per_second, "F/s");
  if (calibrated)
    s += u.op_class.empty() ? fmt::format(" + {} (roofline, ", si(u.overhead_seconds, "s"))
                            : fmt::format(" + {} per call (", si(u.overhead_seconds, "s"));
  else
    s += " (";
  return s + fmt::format("{} layer{})", u.layers, u.layers == 1 ? "" : "s");
}

template <class T> Column<T> table_name(const char *name) {
  return Column<T>(
      "table", "table", hint::text(), [name](const T &) { return std::string(name); }, kCsv);
}

} // namespace

std::vector<std::string> header_lines(const PredictionContext &ctx, size_t width) {
  const AssumedExecution &a = ctx.execution;
  const bool calibrated = !a.calibration.empty();
  std::vector<std::string> out;
  auto add = [&](const std::vector<std::string> &lines) {
    out.insert(out.end(), lines.begin(), lines.end());
  };
  add(wrap("assumed: ",
           {fmt::format("batch {}", a.batch), std::string(to_string(a.dtype)),
            std::string(to_string(a.pass)) + " pass",
            calibrated ? "calibration " + a.calibration + " (fitted per op class)"
                       : std::string("roofline (no calibration)"),
            "fusion " + a.fusion + (a.layout.empty() ? "" : ", layout " + a.layout)},
           ", ", width));
  // Items carry their own punctuation: the peaks a comma apart, then "; " before the rest.
  std::vector<std::string> items;
  for (const PeakUsed &u : a.peaks)
    items.push_back(peak_text(u, calibrated) + ",");
  if (items.empty())
    items.push_back("none (no layer does work),");
  items.back().back() = ';';
  if (calibrated) {
    items.push_back("bandwidth fitted per op class and memory level");
  } else {
    items.push_back(fmt::format("DRAM {};", si(a.dram_bytes_per_second, "B/s")));
    items.push_back(
        fmt::format("launch overhead {} per kernel", si(a.launch_overhead_seconds, "s")));
  }
  add(wrap(calibrated ? "fitted: " : "peaks: ", items, " ", width));
  if (ctx.memory) {
    const MemoryFit &m = *ctx.memory;
    const MemoryFootprint &f = m.footprint;
    const std::string head =
        fmt::format("memory: {} (weights {} + activations {}", si(double(f.total_bytes()), "B"),
                    si(double(f.weights_bytes), "B"), si(double(f.activation_bytes), "B"));
    const std::string tail =
        ")" + (m.capacity_bytes > 0 ? fmt::format(" of {} DRAM: {}", si(m.capacity_bytes, "B"),
                                                  m.fits ? "fits" : "does NOT fit")
                                    : std::string("; the spec gives no DRAM capacity"));
    std::string peak = f.peak_layer;
    const size_t fixed = head.size() + tail.size() + 10; // ", peak in "
    if (width > 0 && fixed + peak.size() > width)
      peak = cut_middle(peak, std::max<size_t>(12, width > fixed ? width - fixed : 0));
    out.push_back(head + (peak.empty() ? "" : ", peak in " + peak) + tail);
  }
  return out;
}

Json execution_json(const AssumedExecution &a) {
  Json peaks = Json::array();
  for (const PeakUsed &u : a.peaks)
    peaks.push_back(Json{{"op_class", u.op_class.empty() ? Json(nullptr) : Json(u.op_class)},
                         {"unit", u.unit},
                         {"dtype", std::string(to_string(u.dtype))},
                         {"flops_per_second", u.flops_per_second},
                         {"overhead_seconds", u.overhead_seconds},
                         {"layers", u.layers}});
  Json j{
      {"batch", a.batch},
      {"dtype", std::string(to_string(a.dtype))},
      {"pass", std::string(to_string(a.pass))},
      {"timing", a.calibration.empty() ? "roofline" : "calibration"},
      {"calibration", a.calibration.empty() ? Json(nullptr) : Json(a.calibration)},
      {"fusion", a.fusion},
      {"peaks", peaks},
      {"dram_bytes_per_second", a.dram_bytes_per_second},
      {"launch_overhead_seconds", a.launch_overhead_seconds},
      {"overhead_seconds", Json{{"min", a.overhead_min_seconds}, {"max", a.overhead_max_seconds}}}};
  if (!a.layout.empty()) // only where the target reads it (AssumedExecution::layout)
    j["layout"] = a.layout;
  return j;
}

Json memory_json(const std::optional<MemoryFit> &m) {
  if (!m)
    return nullptr;
  const MemoryFootprint &f = m->footprint;
  return Json{{"weights_bytes", f.weights_bytes},    {"activation_bytes", f.activation_bytes},
              {"total_bytes", f.total_bytes()},      {"peak_layer", f.peak_layer},
              {"capacity_bytes", m->capacity_bytes}, {"fits", m->fits}};
}

namespace {

struct RunRow {
  const Prediction *p;
  const PredictionContext *ctx;
};

} // namespace

Grid run_grid(const Prediction &p, const PredictionContext &ctx) {
  using C = Column<RunRow>;
  auto ex = [](const RunRow &r) -> const AssumedExecution & { return r.ctx->execution; };
  auto mem = [](auto get) {
    return
        [get](const RunRow &r) -> Value { return r.ctx->memory ? get(*r.ctx->memory) : Value(); };
  };
  static const std::vector<C> cols = {
      table_name<RunRow>("run"),
      {"model", "model", hint::text(), [](const RunRow &r) { return r.p->model; }},
      {"hardware", "hardware", hint::text(), [](const RunRow &r) { return r.p->hardware; }},
      {"batch", "batch", hint::count(), [ex](const RunRow &r) { return ex(r).batch; }},
      {"dtype", "dtype", hint::text(), [ex](const RunRow &r) { return to_string(ex(r).dtype); }},
      {"pass", "pass", hint::text(), [ex](const RunRow &r) { return to_string(ex(r).pass); }},
      {"timing", "timing", hint::text(),
       [ex](const RunRow &r) { return ex(r).calibration.empty() ? "roofline" : "calibration"; }},
      {"calibration", "calibration", hint::text(),
       [ex](const RunRow &r) { return ex(r).calibration; }},
      {"fusion", "fusion", hint::text(), [ex](const RunRow &r) { return ex(r).fusion; }},
      C("dram_bytes_per_second", "dram_bandwidth", hint::si("B/s"),
        [ex](const RunRow &r) { return ex(r).dram_bytes_per_second; }),
      C("launch_overhead_seconds", "launch_overhead", hint::si("s"),
        [ex](const RunRow &r) { return ex(r).launch_overhead_seconds; }),
      C("memory_bytes", "memory", hint::si("B"),
        mem([](const MemoryFit &m) { return Value(m.footprint.total_bytes()); })),
      C("weights_bytes", "weights", hint::si("B"),
        mem([](const MemoryFit &m) { return Value(m.footprint.weights_bytes); })),
      C("activation_bytes", "activations", hint::si("B"),
        mem([](const MemoryFit &m) { return Value(m.footprint.activation_bytes); })),
      {"peak_layer", "memory_peak_layer", hint::text(),
       mem([](const MemoryFit &m) { return Value(m.footprint.peak_layer); })},
      C("capacity_bytes", "capacity", hint::si("B"),
        mem([](const MemoryFit &m) { return Value(m.capacity_bytes); })),
      C("fits", "fits", hint::flag("yes", "NO"),
        mem([](const MemoryFit &m) { return Value(m.fits); }))
          .csv_as("fits in memory"),
  };
  return make_grid(cols, std::vector<RunRow>{{&p, &ctx}});
}

Grid peaks_grid(const AssumedExecution &a) {
  using C = Column<PeakUsed>;
  static const std::vector<C> cols = {
      table_name<PeakUsed>("peaks"),
      {"op_class", "op_class", hint::text(), &PeakUsed::op_class},
      {"unit", "unit", hint::text(), &PeakUsed::unit},
      {"dtype", "dtype", hint::text(), [](const PeakUsed &u) { return to_string(u.dtype); }},
      C("flops_per_second", "peak", hint::si("FLOP/s"), &PeakUsed::flops_per_second),
      C("overhead_seconds", "overhead", hint::si("s"), &PeakUsed::overhead_seconds),
      {"layers", "layers", hint::count(), &PeakUsed::layers},
  };
  return make_grid(cols, a.peaks);
}

namespace {

using G = LayerGroup;

double ai(const G &g) {
  return g.cost.bytes() > 0 ? double(g.cost.flops) / double(g.cost.bytes()) : 0.0;
}

// The columns both rollup tables share after their name.
std::vector<Column<G>> group_columns(const char *table, const char *key, const char *header) {
  using C = Column<G>;
  return {
      table_name<G>(table),
      {key, header, hint::text(), &G::name},
      {"layers", "layers", hint::count(), &G::layers},
      C("seconds", "time", hint::si("s"), &G::seconds).csv_as("time (s)"),
      C("fraction", "time%", hint::percent(), &G::fraction).csv_as("share of time"),
      C("flops", "FLOPs", hint::si("F"), [](const G &g) { return g.cost.flops; }).csv_as("flops"),
      {"macs", "macs", hint::count(), [](const G &g) { return g.cost.macs; }, kData},
      C("bytes", "bytes", hint::si("B"), [](const G &g) { return g.cost.bytes(); }).csv_as("bytes"),
      C("arithmetic_intensity", "AI", hint::si("F/B"), ai, kText),
      {"energy_joules", "energy", hint::si("J"), &G::energy_joules},
  };
}

} // namespace

Grid op_types_grid(const Rollup &r, Style style) {
  using C = Column<G>;
  static const std::vector<C> cols = [] {
    std::vector<C> c = group_columns("op_types", "op", "op");
    c.push_back(
        {"bound", "bound", hint::text(), [](const G &g) { return to_string(g.dominant_bound()); }});
    c.push_back(C("compute_seconds", "compute_time", hint::si("s"), &G::seconds_compute_bound, kCsv)
                    .csv_as("compute-bound time (s)"));
    c.push_back(C("memory_seconds", "memory_time", hint::si("s"), &G::seconds_memory_bound, kCsv)
                    .csv_as("memory-bound time (s)"));
    c.push_back(
        C("overhead_seconds", "overhead_time", hint::si("s"), &G::seconds_overhead_bound, kCsv)
            .csv_as("overhead-bound time (s)"));
    c.push_back({"seconds_by_bound", "seconds_by_bound", hint::text(),
                 [](const G &g) {
                   return Json{{"compute", g.seconds_compute_bound},
                               {"memory", g.seconds_memory_bound},
                               {"overhead", g.seconds_overhead_bound}};
                 },
                 kJson});
    return c;
  }();
  return make_grid(cols, r.op_types, style);
}

Grid bounds_grid(const Rollup &r, Style style) {
  static const std::vector<Column<G>> cols = group_columns("bounds", "bound", "bound");
  return make_grid(cols, r.bounds, style);
}

} // namespace perfmodel::report
