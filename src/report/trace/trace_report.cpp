// Table, CSV and Markdown printers of the trace views (JSON is in trace_json.cpp); the columns
// are in trace_tables.cpp.
#include "perfmodel/report/trace/trace_report.hpp"

#include "report/trace/trace_tables.hpp"

namespace perfmodel::report {
namespace {

std::string text(const TraceTable &t, bool md) {
  if (md) {
    std::string out = "## " + t.title + "\n\n" + markdown(t.grid) + "\n";
    for (const auto &n : t.notes)
      out += "- " + n + "\n";
    return out + (t.notes.empty() ? "" : "\n");
  }
  std::string out = t.title + "\n" + table(t.grid);
  for (const auto &n : t.notes)
    out += n + "\n";
  return out + "\n";
}

} // namespace

std::string render_trace(const TraceReport &r, Format f) {
  if (f == Format::json)
    return render_trace_json(r);
  std::vector<TraceTable> tables;
  if (r.overview)
    tables.push_back(overview_table(*r.overview));
  if (r.operators)
    tables.push_back(operators_table(*r.operators));
  if (r.kernels)
    tables.push_back(kernels_table(*r.kernels));
  if (r.attainment)
    for (auto &t : attainment_tables(*r.attainment, r.attainment_order))
      tables.push_back(std::move(t));
  if (r.cross_device)
    for (auto &t : cross_device_tables(*r.cross_device))
      tables.push_back(std::move(t));
  std::string out;
  if (f == Format::md)
    out += "# Trace " + md_cell(r.file) + "\n\n";
  for (size_t i = 0; i < tables.size(); ++i)
    out +=
        f == Format::csv ? (i ? "\n" : "") + csv(tables[i].grid) : text(tables[i], f == Format::md);
  return out;
}

} // namespace perfmodel::report
