// Generates the roofline plot's gnuplot script and data file from a RooflineData.
#include "perfmodel/report/plot/roofline_plot.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace perfmodel::report::plot {
namespace {

constexpr double kMaxPointSize = 5.0; // gnuplot pointsize of the slowest layer
constexpr double kMinPointSize = 0.4; // still visible for a layer that takes no time

double point_size(double seconds, double max_seconds) {
  if (max_seconds <= 0)
    return kMinPointSize;
  return std::max(kMinPointSize, kMaxPointSize * std::sqrt(seconds / max_seconds));
}

/// Long (ONNX) layer names keep their distinctive tail: ".../layer1.0/bn3/BatchNormalization".
std::string short_name(const std::string &name) {
  constexpr size_t kMax = 48;
  if (name.size() <= kMax)
    return name;
  size_t cut = name.size() - (kMax - 3);
  while (cut < name.size() && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
    ++cut;
  return "..." + name.substr(cut); // never splits a UTF-8 sequence
}

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

/// The ceilings drawn: those of the data types the layers run at (all when none is marked, so
/// the plot still shows the machine).
std::vector<const RooflineCeiling *> drawn_ceilings(const RooflineData &d) {
  std::vector<const RooflineCeiling *> out;
  for (const RooflineCeiling &c : d.ceilings)
    if (c.selected)
      out.push_back(&c);
  if (out.empty())
    for (const RooflineCeiling &c : d.ceilings)
      out.push_back(&c);
  return out;
}

struct Ranges {
  double xmin, xmax, ymin, ymax;
};

Ranges ranges(const RooflineData &d) {
  double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
  auto x = [&](double v) {
    if (v > 0)
      xlo = std::min(xlo, v), xhi = std::max(xhi, v);
  };
  auto y = [&](double v) {
    if (v > 0)
      ylo = std::min(ylo, v), yhi = std::max(yhi, v);
  };
  for (const RooflinePoint &p : d.points) {
    if (!p.drawable())
      continue;
    x(p.arithmetic_intensity);
    y(p.predicted_flops_per_second);
    if (p.measured_flops_per_second)
      y(*p.measured_flops_per_second);
  }
  for (const RidgePoint &r : d.ridges)
    x(r.arithmetic_intensity);
  for (const RooflineCeiling *c : drawn_ceilings(d))
    y(c->flops_per_second);
  if (xhi == 0)
    xlo = 0.1, xhi = 1000;
  if (yhi == 0)
    ylo = 1e9, yhi = 1e12;
  Ranges r{decade_below(xlo / 2), decade_above(xhi * 2), decade_below(ylo / 2),
           decade_above(yhi * 1.5)};
  r.ymin = std::max(r.ymin, r.ymax * 1e-9); // a layer at 1 FLOP/s would flatten the rest
  if (r.xmax / r.xmin < 100)
    r.xmax = r.xmin * 100;
  return r;
}

/// The points labelled: the `n` slowest; with phases, the `n` slowest of each phase (a decode
/// step's layers are far faster than the prefill's, and would get no label).
std::vector<size_t> labelled_points(const RooflineData &d, size_t n) {
  if (d.phases.empty())
    return top_points_by_time(d, n);
  std::vector<size_t> out;
  for (const RooflinePhase &ph : d.phases) {
    std::vector<size_t> idx;
    for (size_t i = 0; i < d.points.size(); ++i)
      if (d.points[i].drawable() && d.points[i].phase == ph.name)
        idx.push_back(i);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](size_t a, size_t b) { return d.points[a].seconds > d.points[b].seconds; });
    idx.resize(std::min(idx.size(), n));
    out.insert(out.end(), idx.begin(), idx.end());
  }
  return out;
}

} // namespace

PlotScript roofline_plot(const RooflineData &d, const PlotPaths &paths, ImageKind kind,
                         const RooflinePlotOptions &opts) {
  PlotScript out;
  const Ranges rg = ranges(d);

  // Op types in order of first appearance: a stable colour for each. Phases (a language
  // model's prefill and decode step) in order: a marker shape for each. A data block per
  // (op, phase) in order of first appearance.
  std::vector<std::string> ops;
  std::map<std::string, size_t> op_index;
  std::map<std::string, size_t> phase_index;
  std::vector<std::pair<size_t, size_t>> blocks; // (op, phase)
  std::map<std::pair<size_t, size_t>, size_t> block_index;
  for (const RooflinePhase &ph : d.phases)
    phase_index.emplace(ph.name, phase_index.size());
  double max_seconds = 0;
  size_t undrawn = 0;
  bool any_measured = false;
  auto block_of = [&](const RooflinePoint &p) {
    const auto ph = phase_index.find(p.phase);
    return std::pair{op_index.at(p.op), ph == phase_index.end() ? size_t(0) : ph->second};
  };
  for (const RooflinePoint &p : d.points) {
    if (!p.drawable()) {
      ++undrawn;
      continue;
    }
    if (op_index.emplace(p.op, ops.size()).second)
      ops.push_back(p.op);
    if (block_index.emplace(block_of(p), blocks.size()).second)
      blocks.push_back(block_of(p));
    max_seconds = std::max({max_seconds, p.seconds, p.measured_seconds.value_or(0.0)});
    any_measured = any_measured || p.measured_seconds.has_value();
  }

  // Data file: one block (gnuplot `index`) per op type, then the ridge points.
  std::string &dat = out.data;
  dat += "# roofline data: " + gp_comment(d.title()) + "\n";
  dat += "# columns: arithmetic_intensity(FLOP/B) predicted(FLOP/s) pointsize seconds "
         "measured(FLOP/s, NaN = none) measured_pointsize layer_index\n";
  dat += "# layers (index name op):\n";
  for (size_t i = 0; i < d.points.size(); ++i)
    dat += "#   " + std::to_string(i) + " " + gp_comment(d.points[i].name) + " (" +
           gp_comment(d.points[i].op) + ")\n";
  for (size_t k = 0; k < blocks.size(); ++k) {
    dat += "\n\n# block " + std::to_string(k) + ": " + gp_comment(ops[blocks[k].first]) +
           (d.phases.empty() ? "" : " (" + gp_comment(d.phases[blocks[k].second].name) + ")") +
           "\n";
    for (size_t i = 0; i < d.points.size(); ++i) {
      const RooflinePoint &p = d.points[i];
      if (!p.drawable() || block_index.at(block_of(p)) != k)
        continue;
      double ms = p.measured_seconds ? point_size(*p.measured_seconds, max_seconds) : NAN;
      dat += gp_num(p.arithmetic_intensity) + " " + gp_num(p.predicted_flops_per_second) + " " +
             gp_num(point_size(p.seconds, max_seconds)) + " " + gp_num(p.seconds) + " " +
             gp_num(p.measured_flops_per_second.value_or(NAN)) + " " + gp_num(ms) + " " +
             std::to_string(i) + "\n";
    }
  }
  dat += "\n\n# block " + std::to_string(blocks.size()) + ": ridge points\n";
  for (const RidgePoint &r : d.ridges)
    dat += gp_num(r.arithmetic_intensity) + " " + gp_num(r.flops_per_second) + "\n";
  if (d.ridges.empty())
    dat += "NaN NaN\n"; // keeps the block (gnuplot would warn on no data)

  std::string &s = out.script;
  s += script_header(paths, kind, opts.width_px, opts.height_px, "roofline plot",
                     "roofline: " + d.title());
  s += "set logscale xy\n";
  s += "set xrange [" + gp_num(rg.xmin) + ":" + gp_num(rg.xmax) + "]\n";
  s += "set yrange [" + gp_num(rg.ymin) + ":" + gp_num(rg.ymax) + "]\n";
  s += "set xlabel 'arithmetic intensity (FLOP/byte)'\n";
  s += "set ylabel 'performance (FLOP/s)'\n";
  s += "set format x '%g'\n";
  s += "set format y '%.0s%c'\n";
  s += "set grid xtics ytics mxtics mytics lc rgb '#dddddd'\n";
  s += "set key outside right top box\n";

  const std::vector<const RooflineCeiling *> ceilings = drawn_ceilings(d);
  double top = 0, fastest = 0;
  for (const RooflineCeiling *c : ceilings)
    top = std::max(top, c->flops_per_second);
  for (const RooflineDiagonal &m : d.diagonals)
    fastest = std::max(fastest, m.bytes_per_second);

  std::vector<std::string> clauses;
  // Roof lines are straight in log-log: exact two-point segments (`set arrow ... nohead`).
  int arrow = 0;
  auto add_segment = [&](double x0, double y0, double x1, double y1, const std::string &style) {
    s += "set arrow " + std::to_string(++arrow) + " from first " + gp_num(x0) + ", first " +
         gp_num(y0) + " to first " + gp_num(x1) + ", first " + gp_num(y1) + " nohead " + style +
         " back\n";
  };
  int label = 0;
  auto add_label = [&](const std::string &text, const std::string &at, const std::string &how) {
    s += "set label " + std::to_string(++label) + " " + gp_quote(text) + " at " + at + " " + how +
         "\n";
  };
  for (size_t m = 0; m < d.diagonals.size(); ++m) {
    const RooflineDiagonal &dg = d.diagonals[m];
    // From the plot's edge up to the highest ceiling, clipped to the ranges.
    const double bw = dg.bytes_per_second;
    const double x0 = std::max(rg.xmin, rg.ymin / bw);
    const double x1 = std::min(rg.xmax, top / bw);
    if (x0 < x1)
      add_segment(x0, bw * x0, x1, bw * x1, "lw 2 lc rgb '#555555' dt " + std::to_string(m + 1));
    double lx = std::max(rg.xmin * 1.5, rg.ymin * 3 / dg.bytes_per_second);
    add_label(dg.level + " " + si(dg.bytes_per_second, "B/s"),
              "first " + gp_num(lx) + ", first " + gp_num(lx * dg.bytes_per_second),
              "left offset 0.5,0.8 font ',9' tc rgb '#555555'");
  }
  // Ceilings at the same peak share one label ("tensor fp16, tensor bf16 312TF/s"). The labels
  // are tics of the right-hand axis, outside the plot: no diagonal or layer crosses them.
  std::vector<std::pair<double, std::string>> peak_labels; // peak, names
  for (const RooflineCeiling *ce : ceilings) {
    // From where it meets the fastest memory level to the right edge.
    const double start = std::max(rg.xmin, fastest > 0 ? ce->flops_per_second / fastest : 0.0);
    if (start < rg.xmax)
      add_segment(start, ce->flops_per_second, rg.xmax, ce->flops_per_second,
                  "lw 2 lc rgb '#222222'");
    std::string name = ce->unit + " " + std::string(to_string(ce->dtype));
    auto same = std::find_if(peak_labels.begin(), peak_labels.end(), [&](const auto &l) {
      return std::abs(l.first / ce->flops_per_second - 1) < 0.01;
    });
    if (same == peak_labels.end())
      peak_labels.emplace_back(ce->flops_per_second, name);
    else
      same->second += ", " + name;
  }
  s += "set ytics nomirror\n";
  s += "set logscale y2\n";
  s += "set y2range [" + gp_num(rg.ymin) + ":" + gp_num(rg.ymax) + "]\n";
  s += "set y2tics scale 0.5 font ',9' (";
  for (size_t i = 0; i < peak_labels.size(); ++i)
    s += std::string(i ? ", " : "") +
         gp_quote(peak_labels[i].second + " " + si(peak_labels[i].first, "F/s")) + " " +
         gp_num(peak_labels[i].first);
  s += ")\n";
  // The classic ridges (with DRAM), as tics of the top axis: the layers crowd around them.
  std::vector<const RidgePoint *> ridges;
  for (const RidgePoint &r : d.ridges)
    if (r.diagonal + 1 == d.diagonals.size())
      ridges.push_back(&r);
  if (!ridges.empty()) {
    s += "set xtics nomirror\n";
    s += "set logscale x2\n";
    s += "set x2range [" + gp_num(rg.xmin) + ":" + gp_num(rg.xmax) + "]\n";
    for (const RidgePoint *r : ridges) // a dotted line from the ridge point up to its tic
      add_segment(r->arithmetic_intensity, r->flops_per_second, r->arithmetic_intensity, rg.ymax,
                  "lw 1 dt 3 lc rgb '#999999'");
    // Short tic labels ("201"), the unit once in the axis label: ridges a factor 2.5 apart
    // still get labels that do not touch.
    s += "set x2label " + gp_quote("ridge with " + d.diagonals.back().level + " (FLOP/byte)") +
         " font ',9' offset 0,-0.5\n";
    s += "set x2tics scale 0.5 font ',9' (";
    for (size_t i = 0; i < ridges.size(); ++i)
      s += std::string(i ? ", " : "") + gp_quote(si(ridges[i]->arithmetic_intensity, "")) + " " +
           gp_num(ridges[i]->arithmetic_intensity);
    s += ")\n";
  }
  // Layers at (nearly) the same spot share one label: "conv3 (+2 more)".
  struct PointLabel {
    size_t first;
    size_t more = 0;
  };
  std::vector<PointLabel> labels;
  for (size_t i : labelled_points(d, opts.label_top)) {
    const RooflinePoint &p = d.points[i];
    auto near = [&](const PointLabel &l) {
      const RooflinePoint &q = d.points[l.first];
      return std::abs(std::log(p.arithmetic_intensity / q.arithmetic_intensity)) < 0.05 &&
             std::abs(std::log(p.predicted_flops_per_second / q.predicted_flops_per_second)) < 0.05;
    };
    auto it = std::find_if(labels.begin(), labels.end(), near);
    if (it == labels.end())
      labels.push_back({i});
    else
      it->more++;
  }
  for (const PointLabel &l : labels) {
    const RooflinePoint &p = d.points[l.first];
    add_label((p.phase.empty() ? "" : p.phase + " ") + short_name(p.name) +
                  (l.more ? " (+" + std::to_string(l.more) + " more)" : ""),
              "first " + gp_num(p.arithmetic_intensity) + ", first " +
                  gp_num(p.predicted_flops_per_second),
              "left offset 1,1 font ',9' front");
  }
  if (undrawn)
    add_label(std::to_string(undrawn) + " layer(s) without FLOPs or bytes not drawn",
              "graph 0.01, graph 0.02", "left font ',8' tc rgb '#777777'");

  // gnuplot point types: filled circle, square, triangle, diamond; each hollow one less.
  static constexpr int kFilled[] = {7, 5, 9, 13};
  std::vector<bool> titled(ops.size(), false);
  for (size_t k = 0; k < blocks.size(); ++k) {
    const auto [op, phase] = blocks[k];
    const std::string color(palette_color(op));
    const std::string idx = std::to_string(k);
    const int pt = kFilled[phase % std::size(kFilled)];
    clauses.push_back("datafile index " + idx + " using 1:2:3 with points pt " +
                      std::to_string(pt) + " ps variable lc rgb '" + color + "' " +
                      (titled[op] ? "notitle" : "title " + gp_quote(ops[op])));
    titled[op] = true;
    if (any_measured)
      clauses.push_back("datafile index " + idx + " using 1:5:6 with points pt " +
                        std::to_string(pt - 1) + " lw 2 ps variable lc rgb '" + color + "' " +
                        (k == 0 ? "title 'measured (hollow)'" : "notitle"));
  }
  // The phases' shapes, in black, as key entries of their own.
  for (size_t ph = 0; ph < d.phases.size(); ++ph)
    clauses.push_back(
        "keyentry with points pt " + std::to_string(kFilled[ph % std::size(kFilled)]) +
        " ps 1.5 lc rgb '#000000' title " +
        gp_quote(d.phases[ph].name +
                 (d.phases[ph].context > 0
                      ? " (one step at KV " + std::to_string(d.phases[ph].context) + ")"
                      : " (" + std::to_string(d.phases[ph].tokens) + " tokens)")));
  clauses.push_back(
      "datafile index " + std::to_string(blocks.size()) +
      " using 1:2 with points pt 2 ps 1.5 lw 2 lc rgb '#000000' title 'ridge points'");
  s += "plot \\\n";
  for (size_t i = 0; i < clauses.size(); ++i)
    s += "  " + clauses[i] + (i + 1 < clauses.size() ? ", \\\n" : "\n");
  return out;
}

} // namespace perfmodel::report::plot
