// Table, CSV and Markdown printers of the trace views (JSON is in trace_json.cpp).
#include "report/trace/trace_report.hpp"

#include <cstdio>

#include "report/text_table.hpp"

namespace perfmodel::report {
namespace {

// Human tables cut the long C++ kernel signatures (CSV and JSON keep them whole).
std::string shorten(const std::string &s, size_t n = 100) {
  return s.size() <= n ? s : s.substr(0, n - 3) + "...";
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}

// One view as a header and rows of cells; `raw` holds the CSV values (SI base units).
struct Grid {
  std::string title;
  std::vector<std::string> header, csv_header;
  std::vector<std::vector<std::string>> rows, raw;
  std::vector<std::string> notes;
};

Grid overview_grid(const trace::Overview &o) {
  Grid g;
  char t[160];
  std::snprintf(t, sizeof t, "Overview: %zu steps, average %s, GPU utilization %s", o.steps.size(),
                si(o.average.total, "s").c_str(), pct(o.gpu_utilization).c_str());
  g.title = t;
  g.header = {"step"};
  g.csv_header = {"step"};
  for (const std::string &n : trace::role_names()) {
    g.header.push_back(n);
    g.csv_header.push_back(n + " (s)");
  }
  g.header.push_back("Total");
  g.csv_header.push_back("Total (s)");
  auto add = [&](const trace::StepTimes &s) {
    std::vector<std::string> row{s.step}, raw{s.step};
    for (double v : trace::role_values(s)) {
      row.push_back(si(v, "s"));
      raw.push_back(num(v));
    }
    row.push_back(si(s.total, "s"));
    raw.push_back(num(s.total));
    g.rows.push_back(row);
    g.raw.push_back(raw);
  };
  for (const auto &s : o.steps)
    add(s);
  add(o.average);
  std::vector<std::string> share{"share"};
  for (double v : trace::role_values(o.average))
    share.push_back(o.average.total > 0 ? pct(v / o.average.total) : "-");
  share.push_back("100.0%");
  g.rows.push_back(share);
  if (o.dropped_tail_steps > 0)
    g.notes.push_back("dropped " + std::to_string(o.dropped_tail_steps) +
                      " trailing step(s) whose device work the profiler did not capture");
  if (o.recommendations.empty())
    g.notes.push_back("Recommendations: none");
  for (const auto &r : o.recommendations)
    g.notes.push_back("Recommendation: " + r);
  return g;
}

Grid operator_grid(const std::vector<trace::OperatorRow> &ops) {
  Grid g;
  g.title = "Operators";
  g.header = {"operator", "calls", "device self", "device total", "host self", "host total"};
  g.csv_header = {"operator",         "calls",         "device self (s)",
                  "device total (s)", "host self (s)", "host total (s)"};
  for (const auto &r : ops) {
    g.rows.push_back({r.name, std::to_string(r.calls), si(r.device_self, "s"),
                      si(r.device_total, "s"), si(r.host_self, "s"), si(r.host_total, "s")});
    g.raw.push_back({r.name, std::to_string(r.calls), num(r.device_self), num(r.device_total),
                     num(r.host_self), num(r.host_total)});
  }
  return g;
}

Grid kernel_grid(const std::vector<trace::KernelRow> &ks) {
  Grid g;
  g.title = "Kernels";
  g.header = {"kernel", "calls", "total", "mean", "max", "min"};
  g.csv_header = {"kernel", "calls", "total (s)", "mean (s)", "max (s)", "min (s)"};
  for (const auto &r : ks) {
    g.rows.push_back({shorten(r.name), std::to_string(r.calls), si(r.total, "s"), si(r.mean, "s"),
                      si(r.max, "s"), si(r.min, "s")});
    g.raw.push_back(
        {r.name, std::to_string(r.calls), num(r.total), num(r.mean), num(r.max), num(r.min)});
  }
  return g;
}

std::vector<Grid> efficiency_grids(const trace::EfficiencyView &v) {
  std::vector<Grid> out(3);
  Grid &g = out[0];
  g.title = "Roofline efficiency on " + v.hardware +
            ": operators ranked by time lost (device - "
            "roofline); modelled " +
            si(v.modelled_seconds, "s") + " of " + si(v.device_seconds, "s") + " device time";
  const bool cal = !v.rows.empty() && v.rows[0].calibrated_seconds >= 0;
  g.header = {"#",      "operator", "as",          "shapes", "calls",  "FLOPs", "bytes",
              "device", "roofline", "of roofline", "lost",   "FLOP/s", "B/s",   "bound"};
  g.csv_header = {"rank",
                  "operator",
                  "as",
                  "shapes",
                  "calls",
                  "flops",
                  "bytes (B)",
                  "device (s)",
                  "roofline (s)",
                  "fraction of roofline",
                  "time lost (s)",
                  "achieved (FLOP/s)",
                  "achieved (B/s)",
                  "bound"};
  if (cal) {
    g.header.push_back("calibrated");
    g.csv_header.push_back("calibrated (s)");
  }
  int rank = 0;
  for (const auto &r : v.rows) {
    std::string b(to_string(r.bound)), k = std::to_string(++rank);
    g.rows.push_back({k, r.name, r.op, r.shapes, std::to_string(r.calls), si(r.flops, "F"),
                      si(r.bytes, "B"), si(r.device_seconds, "s"), si(r.roofline_seconds, "s"),
                      pct(r.fraction_of_roofline()), si(r.time_lost(), "s"),
                      si(r.achieved_flops_per_second(), "F/s"),
                      si(r.achieved_bytes_per_second(), "B/s"), b});
    g.raw.push_back({k, r.name, r.op, r.shapes, std::to_string(r.calls), num(r.flops), num(r.bytes),
                     num(r.device_seconds), num(r.roofline_seconds), num(r.fraction_of_roofline()),
                     num(r.time_lost()), num(r.achieved_flops_per_second()),
                     num(r.achieved_bytes_per_second()), b});
    if (cal) {
      g.rows.back().push_back(si(r.calibrated_seconds, "s"));
      g.raw.back().push_back(num(r.calibrated_seconds));
    }
  }
  Grid &s = out[1];
  s.title = "Roofline efficiency per layer kind and pass";
  s.header = {"as", "calls", "FLOPs", "bytes", "device", "roofline", "of roofline", "lost"};
  s.csv_header = {"as",
                  "calls",
                  "flops",
                  "bytes (B)",
                  "device (s)",
                  "roofline (s)",
                  "fraction of roofline",
                  "time lost (s)"};
  for (const auto &r : v.summary) {
    s.rows.push_back({r.op, std::to_string(r.calls), si(r.flops, "F"), si(r.bytes, "B"),
                      si(r.device_seconds, "s"), si(r.roofline_seconds, "s"),
                      pct(r.fraction_of_roofline()), si(r.time_lost(), "s")});
    s.raw.push_back({r.op, std::to_string(r.calls), num(r.flops), num(r.bytes),
                     num(r.device_seconds), num(r.roofline_seconds), num(r.fraction_of_roofline()),
                     num(r.time_lost())});
  }
  Grid &u = out[2];
  u.title = "Device activity not attributed to a modelled operator";
  u.header = {"activity", "launched by", "reason", "calls", "device"};
  u.csv_header = {"activity", "launched by", "reason", "calls", "device (s)"};
  for (const auto &r : v.unattributed) {
    u.rows.push_back({shorten(r.name), r.op.empty() ? "-" : r.op, r.reason, std::to_string(r.calls),
                      si(r.seconds, "s")});
    u.raw.push_back({r.name, r.op, r.reason, std::to_string(r.calls), num(r.seconds)});
  }
  return out;
}

std::string text(const Grid &g, bool md) {
  std::string out = md ? "## " + g.title + "\n\n" : g.title + "\n";
  if (md) {
    auto line = [](const std::vector<std::string> &cells) {
      std::string s = "|";
      for (const auto &c : cells)
        s += " " + md_cell(c) + " |";
      return s + "\n";
    };
    out += line(g.header);
    out += "|";
    for (size_t i = 0; i < g.header.size(); ++i)
      out += i == 0 ? " --- |" : " ---: |";
    out += "\n";
    for (const auto &r : g.rows)
      out += line(r);
    out += "\n";
    for (const auto &n : g.notes)
      out += "- " + n + "\n";
    return out + (g.notes.empty() ? "" : "\n");
  }
  TextTable t(g.header);
  for (const auto &r : g.rows)
    t.add(r);
  out += t.str();
  for (const auto &n : g.notes)
    out += n + "\n";
  return out + "\n";
}

std::string csv(const Grid &g, const std::string &view) {
  // The first column names the view, so that the tables of --view all can be told apart.
  auto line = [&](const std::string &first, const std::vector<std::string> &cells) {
    std::string s = csv_field(first);
    for (const auto &c : cells)
      s += "," + csv_field(c);
    return s + "\n";
  };
  std::string out = line("view", g.csv_header);
  for (const auto &r : g.raw)
    out += line(view, r);
  return out;
}

} // namespace

std::string render_trace(const TraceReport &r, Format f) {
  if (f == Format::json)
    return render_trace_json(r);
  std::vector<std::pair<std::string, Grid>> grids;
  if (r.overview)
    grids.emplace_back("overview", overview_grid(*r.overview));
  if (r.operators)
    grids.emplace_back("operators", operator_grid(*r.operators));
  if (r.kernels)
    grids.emplace_back("kernels", kernel_grid(*r.kernels));
  if (r.efficiency) {
    auto e = efficiency_grids(*r.efficiency);
    grids.emplace_back("efficiency", e[0]);
    grids.emplace_back("efficiency_summary", e[1]);
    grids.emplace_back("unattributed", e[2]);
  }
  std::string out;
  if (f == Format::md)
    out += "# Trace " + md_cell(r.file) + "\n\n";
  for (size_t i = 0; i < grids.size(); ++i) {
    if (f == Format::csv) {
      out += (i ? "\n" : "") + csv(grids[i].second, grids[i].first);
    } else {
      out += text(grids[i].second, f == Format::md);
    }
  }
  return out;
}

} // namespace perfmodel::report
