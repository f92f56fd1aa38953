// The trace views as column lists (internal to report/trace): each view's title, its rows as a
// Grid and its notes, computed once and printed by trace_report.cpp (table, CSV, Markdown) and
// trace_json.cpp (JSON).
#pragma once

#include <string>
#include <vector>

#include "perfmodel/report/trace/trace_report.hpp"
#include "report/columns.hpp"

namespace perfmodel::report {

struct TraceTable {
  std::string view; // the CSV's first column: "overview", "operators", ...
  std::string title;
  Grid grid;
  std::vector<std::string> notes;
};

/// Steps, then the average step; the table and Markdown add a "share" row.
TraceTable overview_table(const trace::Overview &o);
TraceTable operators_table(const std::vector<trace::OperatorRow> &ops);
TraceTable kernels_table(const std::vector<trace::KernelRow> &ks);
/// The attainment rows, the summary per layer kind and pass, and the unattributed activity.
/// `order`: the key the rows are sorted by (TraceReport::attainment_order), named in the title.
std::vector<TraceTable> attainment_tables(const trace::AttainmentView &v,
                                          const std::string &order = "time_lost");

/// The cross-device prediction: its rows, the summary per layer kind and pass, and the
/// activity without a model; a note gives the GPU time per step where the view has steps.
std::vector<TraceTable> cross_device_tables(const trace::CrossDeviceView &v);

/// "11.8% of the step time is spent loading input data (DataLoader): ..."
std::string recommendation_text(const trace::Recommendation &r);

} // namespace perfmodel::report
