// The HTML report's SVG plots: the roofline, the time profile and predicted against measured.
// Inline SVG drawn from the view's data (no script): each mark carries a <title>, which the
// browser shows on hover, holding the figures a reader would ask for.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numbers>

#include "report/html.hpp"

namespace perfmodel::report::html {

namespace {

// A log10 axis from decade `lo` to `hi` onto pixels `p0` (at lo) .. `p1` (at hi).
struct LogAxis {
  double lo = 0, hi = 1, p0 = 0, p1 = 1;
  double at(double v) const { return p0 + (std::log10(v) - lo) / (hi - lo) * (p1 - p0); }
  double at_log(double lv) const { return p0 + (lv - lo) / (hi - lo) * (p1 - p0); }
};

// 10^k as a tick label: "0.01", "0.1", "1", "10", "100", "1k", "10k" for a unit-less axis
// (`unit` ""), else with an SI prefix and the unit: "100 GF/s", "1 TF/s", "10 us".
std::string decade_label(int k, std::string_view unit) {
  if (unit.empty() && k >= -3 && k <= 2)
    return k >= 0 ? fmt::format("{}", int(std::lround(std::pow(10.0, k))))
                  : fmt::format("{:.{}f}", std::pow(10.0, k), -k);
  static const char *const up[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char *const down[] = {"", "m", "u", "n", "p", "f"};
  const int e = int(std::floor(k / 3.0)) * 3; // the prefix's exponent
  const int mant = int(std::lround(std::pow(10.0, k - e)));
  const int idx = e / 3;
  std::string prefix;
  if (idx >= 0 && idx < 7)
    prefix = up[idx];
  else if (idx < 0 && -idx < 6)
    prefix = down[-idx];
  else
    return fmt::format("1e{}{}{}", k, unit.empty() ? "" : " ", unit);
  if (unit.empty())
    return fmt::format("{}{}", mant, prefix);
  return fmt::format("{} {}{}", mant, prefix, unit);
}

// Decades covering [lo, hi] (values > 0) with at least `min_span` decades.
std::pair<double, double> decades(double lo, double hi, double min_span) {
  double a = std::floor(std::log10(lo)), b = std::ceil(std::log10(hi));
  if (b <= a)
    b = a + 1;
  while (b - a < min_span) {
    a -= 0.5;
    b += 0.5;
  }
  return {std::floor(a), std::ceil(b)};
}

// Grid lines and tick labels of the decades inside an x axis and a y axis, and the frame.
std::string grid_and_ticks(const LogAxis &x, const LogAxis &y, std::string_view xunit,
                           std::string_view yunit) {
  std::string s;
  for (int k = int(std::ceil(x.lo - 1e-9)); k <= int(std::floor(x.hi + 1e-9)); ++k) {
    const double px = x.at_log(k);
    s += fmt::format("<line class=\"grid\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\"/>", num(px),
                     num(y.p1), num(y.p0));
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                     num(px), num(y.p0 + 17), esc(decade_label(k, xunit)));
  }
  for (int k = int(std::ceil(y.lo - 1e-9)); k <= int(std::floor(y.hi + 1e-9)); ++k) {
    const double py = y.at_log(k);
    s += fmt::format("<line class=\"grid\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\"/>",
                     num(x.p0), num(x.p1), num(py));
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                     num(x.p0 - 8), num(py + 4), esc(decade_label(k, yunit)));
  }
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
                   "stroke=\"#c9d0da\"/>",
                   num(x.p0), num(y.p1), num(x.p1 - x.p0), num(y.p0 - y.p1));
  return s;
}

std::string axis_titles(const LogAxis &x, const LogAxis &y, std::string_view xt,
                        std::string_view yt, double height) {
  return fmt::format("<text class=\"axis\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>"
                     "<text class=\"axis\" transform=\"translate(16 {}) rotate(-90)\" "
                     "text-anchor=\"middle\">{}</text>",
                     num((x.p0 + x.p1) / 2), num(height - 12), esc(xt), num((y.p0 + y.p1) / 2),
                     esc(yt));
}

std::string ceiling_name(const RooflineCeiling &c) {
  return c.unit + " " + std::string(to_string(c.dtype)) + (c.matrix_only ? " (matrix)" : "");
}

// A layer point's hover text: name and op, time and share, bound and unit, rates, counts.
std::string point_title(const RooflinePoint &p, double total_seconds) {
  std::string t = p.name + " (" + p.op + ")\n" + si(p.seconds, "s") + " predicted";
  if (total_seconds > 0)
    t += ", " + pct(p.seconds / total_seconds) + " of the layers' time";
  t += "\n" + p.bound + "-bound" + (p.unit.empty() ? "" : " on " + p.unit);
  t += "\nAI " + si(p.arithmetic_intensity, "F/B") + ": " +
       si(p.predicted_flops_per_second, "F/s") + " predicted of " +
       si(p.attainable_flops_per_second, "F/s") + " attainable";
  t += "\n" + si(double(p.flops), "F") + ", " + si(double(p.bytes), "B");
  if (p.measured_seconds)
    t += "\nmeasured " + si(*p.measured_seconds, "s") + " (" +
         si(p.measured_flops_per_second.value_or(0), "F/s") + ")";
  return t;
}

} // namespace

std::string roofline_svg(const RooflineData &d, size_t labels) {
  constexpr double W = 960, H = 560;
  std::vector<const RooflineCeiling *> ceilings;
  for (const RooflineCeiling &c : d.ceilings)
    if (c.selected && c.flops_per_second > 0)
      ceilings.push_back(&c);
  std::vector<size_t> pts;
  double max_seconds = 0;
  for (size_t i = 0; i < d.points.size(); ++i)
    if (d.points[i].drawable()) {
      pts.push_back(i);
      max_seconds = std::max(max_seconds, d.points[i].seconds);
    }
  if (ceilings.empty() && pts.empty())
    return "<p class=\"note\">Nothing to draw: no layer does work and no ceiling is used.</p>\n";

  // Ranges: the points, measured points, ridges and ceilings, in whole decades of AI.
  double ai_lo = 1e300, ai_hi = 0, f_lo = 1e300, f_hi = 0;
  auto take_ai = [&](double v) {
    if (v > 0 && std::isfinite(v))
      ai_lo = std::min(ai_lo, v), ai_hi = std::max(ai_hi, v);
  };
  auto take_f = [&](double v) {
    if (v > 0 && std::isfinite(v))
      f_lo = std::min(f_lo, v), f_hi = std::max(f_hi, v);
  };
  for (size_t i : pts) {
    take_ai(d.points[i].arithmetic_intensity);
    take_f(d.points[i].predicted_flops_per_second);
    if (d.points[i].measured_flops_per_second)
      take_f(*d.points[i].measured_flops_per_second);
  }
  for (const RidgePoint &r : d.ridges)
    if (d.ceilings[r.ceiling].selected)
      take_ai(r.arithmetic_intensity);
  for (const RooflineCeiling *c : ceilings)
    take_f(c->flops_per_second);
  const auto [xlo, xhi] = decades(ai_lo, ai_hi, 3);
  const double yhi = std::log10(f_hi) + 0.25;
  const double ylo = std::min(std::floor(std::log10(f_lo) - 0.1), std::floor(yhi - 3));
  const LogAxis x{xlo, xhi, 84, W - 178};
  const LogAxis y{ylo, yhi, H - 56, 20};

  std::string s = fmt::format("<svg viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"roofline\">",
                              num(W), num(H));
  s += grid_and_ticks(x, y, "", "F/s");
  s += axis_titles(x, y, "arithmetic intensity (FLOP/byte)", "FLOP/s", H);
  s += fmt::format("<clipPath id=\"plotarea\"><rect x=\"{}\" y=\"{}\" width=\"{}\" "
                   "height=\"{}\"/></clipPath><g clip-path=\"url(#plotarea)\">",
                   num(x.p0), num(y.p1), num(x.p1 - x.p0), num(y.p0 - y.p1));

  // Memory diagonals (DRAM, the last, solid; inner levels dashed), up to the highest ceiling.
  const double top_peak = ceilings.empty() ? std::pow(10.0, yhi) : [&] {
    double m = 0;
    for (const RooflineCeiling *c : ceilings)
      m = std::max(m, c->flops_per_second);
    return m;
  }();
  const double slope_deg =
      -std::atan2(y.p0 - y.at_log(ylo + 1), x.at_log(xlo + 1) - x.p0) * 180 / std::numbers::pi;
  for (size_t m = 0; m < d.diagonals.size(); ++m) {
    const RooflineDiagonal &g = d.diagonals[m];
    const bool dram = m + 1 == d.diagonals.size();
    const double lb = std::log10(g.bytes_per_second);
    const double a = std::max(xlo, ylo - lb), b = std::min(xhi, std::log10(top_peak) - lb);
    if (b <= a)
      continue;
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" "
                     "stroke-width=\"{}\"{}><title>{}</title></line>",
                     num(x.at_log(a)), num(y.at_log(a + lb)), num(x.at_log(b)),
                     num(y.at_log(b + lb)), dram ? "#1c2330" : "#8b95a5", dram ? 1.8 : 1.2,
                     dram ? "" : " stroke-dasharray=\"5 4\"",
                     esc(g.level + " " + si(g.bytes_per_second, "B/s")));
    // Above the line, clear of the points on it (no point lies above the DRAM roof).
    const double at = a + 0.12 * (b - a);
    s += fmt::format("<text class=\"lbl\" transform=\"translate({} {}) rotate({})\" dy=\"-17\">"
                     "{}</text>",
                     num(x.at_log(at)), num(y.at_log(at + lb)), num(slope_deg),
                     esc(g.level + " " + si(g.bytes_per_second, "B/s")));
  }
  // Compute ceilings, from the DRAM ridge to the right edge.
  const double dram_lb =
      d.diagonals.empty() ? -1e9 : std::log10(d.diagonals.back().bytes_per_second);
  for (const RooflineCeiling *c : ceilings) {
    const double lp = std::log10(c->flops_per_second);
    const double a = std::max(xlo, lp - dram_lb);
    s += fmt::format("<line x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"#1c2330\" "
                     "stroke-width=\"1.8\"><title>{3}</title></line>",
                     num(x.at_log(a)), num(x.p1), num(y.at_log(lp)),
                     esc(ceiling_name(*c) + " " + si(c->flops_per_second, "F/s")));
  }
  // Ridge points with DRAM.
  for (const RidgePoint &r : d.ridges) {
    if (!d.ceilings[r.ceiling].selected || r.diagonal + 1 != d.diagonals.size())
      continue;
    const double px = x.at(r.arithmetic_intensity), py = y.at(r.flops_per_second);
    s += fmt::format("<path d=\"M{} {}l5 5l-5 5l-5 -5z\" fill=\"#1c2330\"><title>{}</title>"
                     "</path>",
                     num(px), num(py - 5),
                     esc("ridge of " + ceiling_name(d.ceilings[r.ceiling]) + " with " +
                         d.diagonals[r.diagonal].level + ": " + si(r.arithmetic_intensity, "F/B")));
  }
  // Layers: largest first so that small points stay on top; measured points hollow.
  auto radius = [&](double secs) {
    return max_seconds > 0 ? 3.0 + 10.0 * std::sqrt(secs / max_seconds) : 3.0;
  };
  std::vector<size_t> order = pts;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return d.points[a].seconds > d.points[b].seconds; });
  for (size_t i : order) {
    const RooflinePoint &p = d.points[i];
    const double px = x.at(p.arithmetic_intensity), py = y.at(p.predicted_flops_per_second);
    const std::string title = esc(point_title(p, d.total_seconds));
    if (p.measured_flops_per_second && *p.measured_flops_per_second > 0) {
      const double my = y.at(*p.measured_flops_per_second);
      s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#9aa3b2\" "
                       "stroke-dasharray=\"2 2\"/><circle class=\"pt\" cx=\"{0}\" cy=\"{2}\" "
                       "r=\"4.5\" fill=\"#fff\" fill-opacity=\"0.6\" stroke=\"{3}\" "
                       "stroke-width=\"1.8\"><title>{4}</title></circle>",
                       num(px), num(py), num(my), bound_color(p.bound), title);
    }
    s += fmt::format("<circle class=\"pt\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" "
                     "fill-opacity=\"0.78\" stroke=\"#fff\" stroke-width=\"0.8\">"
                     "<title>{}</title></circle>",
                     num(px), num(py), num(radius(p.seconds)), bound_color(p.bound), title);
  }
  // Names of the slowest layers; a name that would overlap one already placed is left out
  // (layers of the same shape sit on the same spot).
  struct Box {
    double x0, x1, y0, y1;
  };
  std::vector<Box> placed;
  for (size_t i : top_points_by_time(d, labels)) {
    const RooflinePoint &p = d.points[i];
    const double px = x.at(p.arithmetic_intensity), py = y.at(p.predicted_flops_per_second);
    const double r = radius(p.seconds) + 4;
    const std::string name = cut_middle(p.name, 28);
    const double width = 6.6 * double(name.size()); // about 11.5px text
    const bool left = px + r + width > x.p1;
    const Box b{left ? px - r - width : px + r, left ? px - r : px + r + width, py - 9, py + 5};
    if (std::any_of(placed.begin(), placed.end(), [&](const Box &o) {
          return b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1;
        }))
      continue;
    placed.push_back(b);
    s += fmt::format("<text class=\"lbl\" x=\"{}\" y=\"{}\" text-anchor=\"{}\">{}</text>",
                     num(left ? px - r : px + r), num(py + 4), left ? "end" : "start", esc(name));
  }
  s += "</g>";
  // Ceiling names right of the plot, kept 26px apart.
  std::vector<std::pair<double, const RooflineCeiling *>> tags;
  for (const RooflineCeiling *c : ceilings)
    tags.push_back({y.at(c->flops_per_second), c});
  std::sort(tags.begin(), tags.end(), [](auto &a, auto &b) { return a.first < b.first; });
  double last = -1e9;
  for (auto &[py, c] : tags) {
    const double ty = std::max(py, last + 26);
    last = ty;
    s += fmt::format("<text class=\"tick\" x=\"{0}\" y=\"{1}\"><tspan x=\"{0}\" "
                     "style=\"fill:#1c2330;font-weight:600\">{2}</tspan><tspan x=\"{0}\" "
                     "dy=\"14\">{3}</tspan></text>",
                     num(x.p1 + 8), num(ty + 4 - 6), esc(ceiling_name(*c)),
                     esc(si(c->flops_per_second, "F/s")));
  }
  return s + "</svg>\n";
}

std::string profile_svg(const Prediction &p, size_t top) {
  std::vector<const LayerPrediction *> order;
  for (const LayerPrediction &lp : p.layers)
    if (lp.timing.seconds > 0)
      order.push_back(&lp);
  std::stable_sort(order.begin(), order.end(),
                   [](auto *a, auto *b) { return a->timing.seconds > b->timing.seconds; });
  if (top > 0 && order.size() > top)
    order.resize(top);
  const double total = p.totals.predicted_seconds;
  if (order.empty() || total <= 0)
    return "<p class=\"note\">No layer has a predicted time.</p>\n";
  constexpr double W = 960, row = 24, head = 26;
  constexpr double label_end = 300, bar0 = 312, bar_w = 400, cum0 = 830, cum_w = 76;
  const double H = head + row * double(order.size()) + 6;
  const double max_share = order.front()->timing.seconds / total;
  std::string s = fmt::format("<svg viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"profile\">",
                              num(W), num(H));
  s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"15\" text-anchor=\"end\">layer</text>"
                   "<text class=\"tick\" x=\"{}\" y=\"15\">share of the layers' time</text>"
                   "<text class=\"tick\" x=\"{}\" y=\"15\">cumulative</text>",
                   num(label_end), num(bar0), num(cum0));
  double cum = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const LayerPrediction &lp = *order[i];
    const double share = lp.timing.seconds / total;
    cum += share;
    const double y0 = head + row * double(i);
    const double w = std::max(1.0, bar_w * share / max_share);
    const std::string bound(to_string(lp.timing.bound));
    const std::string op =
        lp.layer->op_name.empty() ? std::string(to_string(lp.layer->op)) : lp.layer->op_name;
    const std::string title =
        esc(lp.layer->name + " (" + op + "): " + si(lp.timing.seconds, "s") + ", " + pct(share) +
            " of the layers' time, " + bound + "-bound; cumulative " + pct(cum));
    s += fmt::format("<g><title>{}</title>", title);
    if (i % 2 == 0)
      s += fmt::format("<rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f7f9fb\"/>",
                       num(y0), num(W), num(row));
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"12.5\" "
                     "fill=\"#1c2330\">{}</text>",
                     num(label_end), num(y0 + 16), esc(cut_middle(lp.layer->name, 44)));
    s += fmt::format("<rect class=\"pb\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" "
                     "fill=\"{}\"/>",
                     num(bar0), num(y0 + 5), num(w), num(row - 10), bound_color(bound));
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#4a5464\">{} \u00b7 {}"
                     "</text>",
                     num(bar0 + w + 7), num(y0 + 16), esc(si(lp.timing.seconds, "s")),
                     esc(pct(share)));
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"8\" rx=\"4\" "
                     "fill=\"#e4e8ee\"/><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"8\" "
                     "rx=\"4\" fill=\"#9aa7bb\"/>",
                     num(cum0), num(y0 + 8), num(cum_w), num(cum0), num(y0 + 8),
                     num(std::min(1.0, cum) * cum_w));
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#4a5464\" "
                     "text-anchor=\"end\">{}</text></g>",
                     num(W - 2), num(y0 + 16), esc(pct(cum)));
  }
  return s + "</svg>\n";
}

std::string measured_svg(const RooflineData &d) {
  constexpr double W = 560, H = 470;
  double lo = 1e300, hi = 0;
  std::vector<const RooflinePoint *> pts;
  for (const RooflinePoint &p : d.points)
    if (p.measured_seconds && *p.measured_seconds > 0 && p.seconds > 0) {
      pts.push_back(&p);
      lo = std::min({lo, p.seconds, *p.measured_seconds});
      hi = std::max({hi, p.seconds, *p.measured_seconds});
    }
  if (pts.empty())
    return "<p class=\"note\">No layer has both a predicted and a measured time.</p>\n";
  const auto [a, b] = decades(lo, hi, 2);
  const LogAxis x{a, b, 78, W - 18}, y{a, b, H - 56, 14};
  std::string s = fmt::format(
      "<svg viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"predicted against measured\">", num(W),
      num(H));
  s += grid_and_ticks(x, y, "s", "s");
  s += axis_titles(x, y, "measured time", "predicted time", H);
  // The factor-of-two band around equality, then the line of equality.
  const double l2 = std::log10(2.0);
  s += fmt::format("<clipPath id=\"scatterarea\"><rect x=\"{}\" y=\"{}\" width=\"{}\" "
                   "height=\"{}\"/></clipPath><g clip-path=\"url(#scatterarea)\">",
                   num(x.p0), num(y.p1), num(x.p1 - x.p0), num(y.p0 - y.p1));
  s +=
      fmt::format("<path d=\"M{} {}L{} {}L{} {}L{} {}Z\" fill=\"#eef2f8\"><title>within a "
                  "factor of two</title></path>",
                  num(x.at_log(a)), num(y.at_log(a + l2)), num(x.at_log(b)), num(y.at_log(b + l2)),
                  num(x.at_log(b)), num(y.at_log(b - l2)), num(x.at_log(a)), num(y.at_log(a - l2)));
  s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#8b95a5\" "
                   "stroke-dasharray=\"5 4\"><title>predicted = measured</title></line>",
                   num(x.at_log(a)), num(y.at_log(a)), num(x.at_log(b)), num(y.at_log(b)));
  for (const RooflinePoint *p : pts) {
    const double err = p->seconds / *p->measured_seconds - 1;
    s += fmt::format("<circle class=\"pt\" cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{}\" "
                     "fill-opacity=\"0.8\" stroke=\"#fff\" stroke-width=\"0.8\"><title>{}"
                     "</title></circle>",
                     num(x.at(*p->measured_seconds)), num(y.at(p->seconds)), bound_color(p->bound),
                     esc(p->name + " (" + p->op + ")\npredicted " + si(p->seconds, "s") +
                         ", measured " + si(*p->measured_seconds, "s") + ", error " +
                         pct(err, 1, true) + "\n" + p->bound + "-bound"));
  }
  return s + "</g></svg>\n";
}

} // namespace perfmodel::report::html
