// `report` as a library function (perfmodel/app/commands.hpp).
#include "perfmodel/app/commands.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/report/html_report.hpp"
#include "perfmodel/report/roofline_view.hpp"
#include "perfmodel/trace/read_trace.hpp"

namespace perfmodel::app {

ReportPage report(Graph model, const HwSpec &hw, const PredictRequest &r,
                  const ReportRequest &in) {
  // Every input is read before the work, so that a bad file fails fast.
  report::HtmlReportInputs h;
  h.profile_top = in.top;
  if (!in.measured.empty()) {
    h.measured = report::parse_measurement_json(io::read_file(in.measured), in.measured);
    h.measured_source = in.measured;
  }
  const PredictRun run = run_predict(std::move(model), hw, r);
  if (!in.trace.empty())
    h.trace = report::report_trace_views(io::read_trace(in.trace), in.trace, &hw,
                                         run.calibration.get(), size_t(in.trace_top));
  ReportPage page;
  page.html = report::render_html_report(*run.graph, run.prediction, hw, run.context, h);
  page.model = run.prediction.model;
  page.extrapolated = run.extrapolated;
  page.unmatched_measurements =
      report::make_roofline(run.prediction, hw, h.measured).unmatched_measurements;
  return page;
}

} // namespace perfmodel::app
