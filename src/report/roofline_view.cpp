// Builds the roofline view from a prediction and renders it (text, CSV, JSON, Markdown).
#include "perfmodel/report/roofline_view.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "perfmodel/report/json_text.hpp"
#include "report/columns.hpp"

namespace perfmodel::report {

std::string RooflineData::title() const {
  std::string what = std::string(to_string(pass));
  if (!phases.empty()) {
    what.clear();
    for (const RooflinePhase &ph : phases)
      what += (what.empty() ? "" : " + ") + ph.name +
              (ph.context > 0 ? " at KV " + std::to_string(ph.context)
                              : " " + std::to_string(ph.tokens));
  }
  return model + " on " + hardware + ", batch " + std::to_string(batch) + ", " +
         std::string(to_string(dtype)) + ", " + what + (calibrated ? ", calibrated" : "");
}

namespace {

// A ridge per used ceiling and memory level.
void add_ridges(RooflineData &d) {
  d.ridges.clear();
  for (size_t c = 0; c < d.ceilings.size(); ++c) {
    if (!d.ceilings[c].selected)
      continue;
    for (size_t m = 0; m < d.diagonals.size(); ++m)
      d.ridges.push_back({c, m, d.ceilings[c].flops_per_second / d.diagonals[m].bytes_per_second,
                          d.ceilings[c].flops_per_second});
  }
}

} // namespace

RooflineData make_roofline(const Prediction &pred, const HwSpec &hw,
                           const std::map<std::string, double> &measured) {
  RooflineData d;
  d.hardware = pred.hardware.empty() ? hw.name : pred.hardware;
  d.model = pred.model;
  d.batch = pred.batch;
  d.dtype = pred.dtype;
  d.pass = pred.pass;
  d.calibrated = pred.calibrated;
  d.total_seconds = pred.totals.predicted_seconds;

  std::set<DType> used = {pred.dtype};
  for (const LayerPrediction &lp : pred.layers)
    if (lp.cost.total.flops > 0)
      used.insert(lp.timing.unit.dtype);
  for (const ComputeUnit &u : hw.compute)
    d.ceilings.push_back(
        {u.unit, u.dtype, u.flops_per_second, u.matrix_only, used.count(u.dtype) > 0});
  for (const MemoryLevel &m : hw.memory)
    if (m.bytes_per_second > 0)
      d.diagonals.push_back({m.name, m.bytes_per_second});
  add_ridges(d);

  std::set<std::string> names;
  for (const LayerPrediction &lp : pred.layers) {
    RooflinePoint p;
    p.name = lp.layer ? lp.layer->name : "";
    p.op = lp.layer ? (lp.layer->op_name.empty() ? std::string(to_string(lp.layer->op))
                                                 : lp.layer->op_name)
                    : "";
    p.flops = lp.cost.total.flops;
    p.bytes = lp.cost.total.bytes();
    p.arithmetic_intensity = lp.cost.arithmetic_intensity();
    p.seconds = lp.timing.seconds;
    p.attainable_flops_per_second = lp.timing.attainable_flops_per_second;
    p.predicted_flops_per_second = p.seconds > 0 ? double(p.flops) / p.seconds : 0.0;
    p.bound = to_string(lp.timing.bound);
    if (!lp.timing.unit.unit.empty()) // layers that run no kernel have no unit
      p.unit = lp.timing.unit.unit + " " + std::string(to_string(lp.timing.unit.dtype));
    if (auto it = measured.find(p.name); it != measured.end()) {
      p.measured_seconds = it->second;
      p.measured_flops_per_second = double(p.flops) / it->second;
    }
    names.insert(p.name);
    d.points.push_back(std::move(p));
  }
  for (const auto &[name, s] : measured)
    if (!names.count(name))
      d.unmatched_measurements.push_back(name);
  return d;
}

RooflineData
make_phase_roofline(const std::vector<std::pair<RooflinePhase, const Prediction *>> &passes,
                    const HwSpec &hw) {
  RooflineData d;
  for (const auto &[phase, pred] : passes) {
    RooflineData one = make_roofline(*pred, hw);
    if (d.phases.empty()) {
      d = std::move(one);
      d.total_seconds = 0;
      for (RooflinePoint &p : d.points)
        p.phase = phase.name;
    } else {
      for (size_t c = 0; c < d.ceilings.size() && c < one.ceilings.size(); ++c)
        d.ceilings[c].selected = d.ceilings[c].selected || one.ceilings[c].selected;
      d.calibrated = d.calibrated || one.calibrated;
      for (RooflinePoint &p : one.points) {
        p.phase = phase.name;
        d.points.push_back(std::move(p));
      }
    }
    RooflinePhase ph = phase;
    ph.seconds = pred->totals.predicted_seconds;
    d.total_seconds += ph.seconds;
    d.phases.push_back(ph);
  }
  add_ridges(d);
  return d;
}

std::vector<size_t> top_points_by_time(const RooflineData &d, size_t n) {
  std::vector<size_t> idx;
  for (size_t i = 0; i < d.points.size(); ++i)
    if (d.points[i].drawable())
      idx.push_back(i);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](size_t a, size_t b) { return d.points[a].seconds > d.points[b].seconds; });
  if (idx.size() > n)
    idx.resize(n);
  return idx;
}

namespace {

using Pt = RooflinePoint;

// The point columns; a roofline of phases leads with the phase.
const std::vector<Column<Pt>> &point_columns(bool phases) {
  using C = Column<Pt>;
  static const std::vector<C> cols = {
      {"phase", "phase", hint::text(), &Pt::phase},
      {"name", "layer", hint::text(), &Pt::name},
      {"op", "op", hint::text(), &Pt::op},
      C("flops", "FLOPs", hint::si("F"), &Pt::flops).csv_as("flops (FLOP)"),
      {"bytes", "bytes", hint::si("B"), &Pt::bytes},
      C("arithmetic_intensity", "AI", hint::si("F/B"), &Pt::arithmetic_intensity)
          .csv_as("arithmetic intensity (FLOP/B)"),
      {"seconds", "time", hint::si("s"), &Pt::seconds},
      C("attainable_flops_per_second", "attainable", hint::si("F/s"),
        &Pt::attainable_flops_per_second)
          .csv_as("attainable (FLOP/s)"),
      C("predicted_flops_per_second", "predicted", hint::si("F/s"), &Pt::predicted_flops_per_second)
          .csv_as("predicted (FLOP/s)"),
      {"bound", "bound", hint::text(), &Pt::bound},
      {"unit", "unit", hint::text(), &Pt::unit},
      C("measured_seconds", "measured", hint::si("s"), &Pt::measured_seconds)
          .csv_as("measured time (s)"),
      C("measured_flops_per_second", "measured F/s", hint::si("F/s"),
        &Pt::measured_flops_per_second)
          .csv_as("measured (FLOP/s)"),
  };
  static const std::vector<C> without_phase(cols.begin() + 1, cols.end());
  return phases ? cols : without_phase;
}

// CSV numbers to 6 significant digits; Markdown rules spaced, without alignment.
Grid point_grid(const RooflineData &d) {
  return make_grid(point_columns(!d.phases.empty()), d.points, Style{6, true, false});
}

std::string aligned(const std::vector<std::vector<std::string>> &rows) {
  std::vector<size_t> w;
  for (auto &r : rows) {
    w.resize(std::max(w.size(), r.size()), 0);
    for (size_t i = 0; i < r.size(); ++i)
      w[i] = std::max(w[i], r[i].size());
  }
  std::string out;
  for (auto &r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i)
      line += r[i] + (i + 1 < r.size() ? std::string(w[i] - r[i].size() + 2, ' ') : "");
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string ceiling_name(const RooflineCeiling &c) {
  return c.unit + " " + std::string(to_string(c.dtype));
}

std::string render_text(const RooflineData &d, bool md) {
  std::vector<std::vector<std::string>> top;
  for (const RooflineCeiling &c : d.ceilings)
    top.push_back(
        {"ceiling", ceiling_name(c), si(c.flops_per_second, "F/s"), c.selected ? "used" : ""});
  for (const RooflineDiagonal &m : d.diagonals)
    top.push_back({"memory", m.level, si(m.bytes_per_second, "B/s"), ""});
  for (const RidgePoint &r : d.ridges)
    top.push_back({"ridge",
                   ceiling_name(d.ceilings[r.ceiling]) + " / " + d.diagonals[r.diagonal].level,
                   si(r.arithmetic_intensity, "F/B"), ""});
  for (const RooflinePhase &ph : d.phases)
    top.push_back({"phase", ph.name, si(ph.seconds, "s"),
                   ph.context > 0 ? "one step at KV " + std::to_string(ph.context)
                                  : std::to_string(ph.tokens) + " tokens"});
  std::string title = "roofline of " + d.title();
  if (!md)
    return title + "\n" + aligned(top) + "\n" + table(point_grid(d));
  auto md_rows = [](const std::vector<std::vector<std::string>> &t, size_t from) {
    std::string out;
    for (size_t r = 0; r < t.size(); ++r) {
      out += "|";
      for (auto &c : t[r])
        out += " " + md_cell(c) + " |";
      out += "\n";
      if (r == from) {
        out += "|";
        for (size_t i = 0; i < t[r].size(); ++i)
          out += " --- |";
        out += "\n";
      }
    }
    return out;
  };
  std::vector<std::vector<std::string>> top_md = {{"kind", "name", "value", "note"}};
  top_md.insert(top_md.end(), top.begin(), top.end());
  return "**roofline of " + md_cell(d.title()) + "**\n\n" + md_rows(top_md, 0) + "\n" +
         markdown(point_grid(d));
}

std::string render_csv(const RooflineData &d) { return csv(point_grid(d)); }

std::string render_json(const RooflineData &d) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["schema"] = "perfmodel.roofline/1";
  j["hardware"] = d.hardware;
  j["model"] = d.model;
  j["batch"] = d.batch;
  j["dtype"] = to_string(d.dtype);
  j["pass"] = to_string(d.pass);
  j["calibrated"] = d.calibrated;
  j["total_seconds"] = d.total_seconds;
  j["ceilings"] = ordered_json::array();
  for (const RooflineCeiling &c : d.ceilings)
    j["ceilings"].push_back({{"unit", c.unit},
                             {"dtype", to_string(c.dtype)},
                             {"flops_per_second", c.flops_per_second},
                             {"matrix_only", c.matrix_only},
                             {"used", c.selected}});
  j["memory"] = ordered_json::array();
  for (const RooflineDiagonal &m : d.diagonals)
    j["memory"].push_back({{"level", m.level}, {"bytes_per_second", m.bytes_per_second}});
  j["ridges"] = ordered_json::array();
  for (const RidgePoint &r : d.ridges)
    j["ridges"].push_back({{"unit", d.ceilings[r.ceiling].unit},
                           {"dtype", to_string(d.ceilings[r.ceiling].dtype)},
                           {"level", d.diagonals[r.diagonal].level},
                           {"arithmetic_intensity", r.arithmetic_intensity},
                           {"flops_per_second", r.flops_per_second}});
  if (!d.phases.empty()) {
    j["phases"] = ordered_json::array();
    for (const RooflinePhase &ph : d.phases)
      j["phases"].push_back({{"phase", ph.name},
                             {"tokens", ph.tokens},
                             {"context", ph.context},
                             {"seconds", ph.seconds}});
  }
  j["layers"] = json_rows(point_grid(d));
  j["unmatched_measurements"] = d.unmatched_measurements;
  return perfmodel::report::json_text(j);
}

} // namespace

std::string render_roofline(const RooflineData &d, Format f) {
  switch (f) {
  case Format::csv:
    return render_csv(d);
  case Format::json:
    return render_json(d);
  case Format::md:
    return render_text(d, true);
  case Format::table:
    break;
  }
  return render_text(d, false);
}

} // namespace perfmodel::report
