// Renders a SweepResult in the four output formats from one list of columns.
#include "report/sweep_view.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>

namespace perfmodel::report {
namespace {

/// One printed column: the human header, the CSV header (with the SI unit) and two renderings.
struct Column {
  std::string header;
  std::string csv_header;
  std::function<std::string(const SweepPoint &)> human;
  std::function<std::string(const SweepPoint &)> raw;
};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
std::string pct0(double share) { return pct(share, 0); }

const std::vector<Column> &columns() {
  static const std::vector<Column> cols = {
      {"latency", "latency (s)", [](auto &p) { return si(p.latency_seconds, "s"); },
       [](auto &p) { return num(p.latency_seconds); }},
      {"throughput", "throughput (samples/s)",
       [](auto &p) { return si(p.throughput_samples_per_second, "/s"); },
       [](auto &p) { return num(p.throughput_samples_per_second); }},
      {"FLOPs", "flops (FLOP)", [](auto &p) { return si(double(p.flops), "F"); },
       [](auto &p) { return std::to_string(p.flops); }},
      {"bytes", "bytes (B)", [](auto &p) { return si(double(p.bytes), "B"); },
       [](auto &p) { return std::to_string(p.bytes); }},
      {"FLOP/s", "flop rate (FLOP/s)", [](auto &p) { return si(p.flops_per_second, "F/s"); },
       [](auto &p) { return num(p.flops_per_second); }},
      {"AI", "arithmetic intensity (FLOP/B)",
       [](auto &p) { return si(p.arithmetic_intensity, "F/B"); },
       [](auto &p) { return num(p.arithmetic_intensity); }},
      {"%compute", "compute-bound share", [](auto &p) { return pct0(p.share_compute_bound); },
       [](auto &p) { return num(p.share_compute_bound); }},
      {"%memory", "memory-bound share", [](auto &p) { return pct0(p.share_memory_bound); },
       [](auto &p) { return num(p.share_memory_bound); }},
      {"%overhead", "overhead-bound share", [](auto &p) { return pct0(p.share_overhead_bound); },
       [](auto &p) { return num(p.share_overhead_bound); }},
      {"energy", "energy (J)", [](auto &p) { return si(p.energy_joules, "J"); },
       [](auto &p) { return num(p.energy_joules); }},
      {"J/sample", "energy per sample (J)",
       [](auto &p) { return si(p.energy_per_sample_joules, "J"); },
       [](auto &p) { return num(p.energy_per_sample_joules); }},
      {"F/s/W", "efficiency (FLOP/s/W)",
       [](auto &p) { return si(p.flops_per_second_per_watt, "F/s/W"); },
       [](auto &p) { return num(p.flops_per_second_per_watt); }},
      {"footprint", "memory (B)", [](auto &p) { return si(double(p.memory_bytes), "B"); },
       [](auto &p) { return std::to_string(p.memory_bytes); }},
      {"fits", "fits in memory",
       [](auto &p) { return std::string(p.fits_in_memory ? "yes" : "NO"); },
       [](auto &p) { return std::string(p.fits_in_memory ? "true" : "false"); }},
  };
  return cols;
}

std::vector<std::string> key_cells(const SweepPoint &p) {
  return {p.hw, std::string(to_string(p.dtype)), std::to_string(p.batch),
          std::string(to_string(p.pass))};
}
const std::vector<std::string> kKeyHeaders = {"hw", "dtype", "batch", "pass"};

std::string title(const SweepResult &r) {
  return "sweep of " + r.model + ": " + std::to_string(r.points.size()) + " points, " +
         std::to_string(r.evaluated()) + " evaluated, " + std::to_string(r.skipped()) + " skipped";
}

} // namespace

std::string render_sweep_table(const SweepResult &r) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head = kKeyHeaders;
  for (auto &c : columns())
    head.push_back(c.header);
  rows.push_back(head);
  for (const SweepPoint &p : r.points) {
    auto row = key_cells(p);
    if (p.skipped)
      row.push_back("skipped: " + *p.skipped);
    else
      for (auto &c : columns())
        row.push_back(c.human(p));
    rows.push_back(row);
  }
  // Widths ignore a skip reason (the last cell of a short row), which may run past the others.
  std::vector<size_t> width(head.size(), 0);
  for (auto &row : rows)
    for (size_t i = 0; i < row.size(); ++i)
      if (row.size() == head.size() || i + 1 < row.size())
        width[i] = std::max(width[i], row[i].size());
  std::string out = title(r) + "\n";
  for (auto &row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size())
        line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string render_sweep_csv(const SweepResult &r) {
  std::string out;
  std::vector<std::string> head = kKeyHeaders;
  for (auto &c : columns())
    head.push_back(c.csv_header);
  head.push_back("skipped");
  for (size_t i = 0; i < head.size(); ++i)
    out += (i ? "," : "") + csv_field(head[i]);
  out += "\n";
  for (const SweepPoint &p : r.points) {
    auto row = key_cells(p);
    for (auto &c : columns())
      row.push_back(p.skipped ? "" : c.raw(p));
    row.push_back(p.skipped.value_or(""));
    for (size_t i = 0; i < row.size(); ++i)
      out += (i ? "," : "") + csv_field(row[i]);
    out += "\n";
  }
  return out;
}

std::string render_sweep_json(const SweepResult &r) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["schema"] = "perfmodel.sweep/1";
  j["model"] = r.model;
  ordered_json points = ordered_json::array();
  for (const SweepPoint &p : r.points) {
    ordered_json o;
    o["hw"] = p.hw;
    o["dtype"] = to_string(p.dtype);
    o["batch"] = p.batch;
    o["pass"] = to_string(p.pass);
    if (p.skipped) {
      o["skipped"] = *p.skipped;
    } else {
      o["latency_seconds"] = p.latency_seconds;
      o["throughput_samples_per_second"] = p.throughput_samples_per_second;
      o["flops"] = p.flops;
      o["bytes"] = p.bytes;
      o["flops_per_second"] = p.flops_per_second;
      o["arithmetic_intensity"] = p.arithmetic_intensity;
      o["share_compute_bound"] = p.share_compute_bound;
      o["share_memory_bound"] = p.share_memory_bound;
      o["share_overhead_bound"] = p.share_overhead_bound;
      o["energy_joules"] = p.energy_joules;
      o["energy_per_sample_joules"] = p.energy_per_sample_joules;
      o["flops_per_second_per_watt"] = p.flops_per_second_per_watt;
      o["weights_bytes"] = p.weights_bytes;
      o["activation_bytes"] = p.activation_bytes;
      o["memory_bytes"] = p.memory_bytes;
      o["memory_capacity_bytes"] = p.memory_capacity_bytes;
      o["fits_in_memory"] = p.fits_in_memory;
    }
    points.push_back(std::move(o));
  }
  j["evaluated"] = r.evaluated();
  j["skipped"] = r.skipped();
  j["points"] = std::move(points);
  return j.dump(2) + "\n";
}

std::string render_sweep_md(const SweepResult &r) {
  std::vector<std::string> head = kKeyHeaders;
  for (auto &c : columns())
    head.push_back(c.header);
  std::string out = "**" + md_cell(title(r)) + "**\n\n|";
  for (auto &h : head)
    out += " " + md_cell(h) + " |";
  out += "\n|";
  for (size_t i = 0; i < head.size(); ++i)
    out += i < kKeyHeaders.size() ? " --- |" : " ---: |";
  out += "\n";
  for (const SweepPoint &p : r.points) {
    auto row = key_cells(p);
    for (auto &c : columns())
      row.push_back(p.skipped ? (&c == &columns().front() ? "skipped: " + *p.skipped : "")
                              : c.human(p));
    out += "|";
    for (auto &cell : row)
      out += " " + md_cell(cell) + " |";
    out += "\n";
  }
  return out;
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
