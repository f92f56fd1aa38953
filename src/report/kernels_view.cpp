// Rendering of the kernels view: per-row prediction vs measurement and the MAPE.
#include "perfmodel/report/kernels_view.hpp"

#include <cmath>

#include "report/columns.hpp"
#include "perfmodel/report/json_text.hpp"

namespace perfmodel::report {

namespace {

using R = KernelRowView;

const std::vector<Column<R>> &columns() {
  using C = Column<R>;
  static const std::vector<C> cols = {
      {"rank", "#", hint::count(), [](const R &, size_t i) { return i + 1; }, kText},
      {"op", "op", hint::text(), &R::op},
      {"dtype", "dtype", hint::text(), &R::dtype},
      {"pass", "pass", hint::text(), &R::pass},
      {"shape", "shape", hint::text(), &R::shape},
      C("flops", "flops", hint::si("F"), &R::flops).csv_as("flops"),
      {"bytes", "bytes", hint::si("B"), &R::bytes},
      {"predicted_seconds", "predicted", hint::si("s"), &R::predicted_seconds},
      {"bound", "bound", hint::text(), [](const R &r) { return to_string(r.bound); }},
      C("measured_seconds", "measured", hint::si("s"), &R::measured_seconds).missing_as("-"),
      C("error", "error", hint::percent(1, true), &R::error).missing_as("-"),
  };
  return cols;
}

} // namespace

void finish_kernels_view(KernelsView &v) {
  double sum = 0;
  v.measured = 0;
  for (auto &r : v.rows) {
    r.error.reset();
    if (!r.measured_seconds || !(*r.measured_seconds > 0))
      continue;
    r.error = (r.predicted_seconds - *r.measured_seconds) / *r.measured_seconds;
    sum += std::abs(*r.error);
    ++v.measured;
  }
  v.mape.reset();
  if (v.measured)
    v.mape = sum / v.measured;
}

std::string render_kernels(const KernelsView &v, Format f) {
  // CSV numbers in full; Markdown rules without alignment.
  const Grid g = make_grid(columns(), v.rows, Style{0, false, false});
  if (f == Format::json) {
    Json j;
    j["schema"] = "perfmodel.kernels/1";
    j["hardware"] = v.hardware;
    j["calibration"] = nullptr;
    if (!v.calibration.empty())
      j["calibration"] = v.calibration;
    j["rows"] = json_rows(g);
    Json s{{"rows", v.rows.size()}, {"measured", v.measured}};
    if (v.mape)
      s["mape"] = *v.mape;
    j["summary"] = s;
    return perfmodel::report::json_text(j);
  }
  if (f == Format::csv)
    return csv(g);
  const std::string title = "kernels on " + v.hardware + " (" +
                            (v.calibration.empty() ? std::string("roofline, uncalibrated")
                                                   : "calibrated: " + v.calibration) +
                            ")";
  const std::string summary =
      v.mape ? "MAPE over " + std::to_string(v.measured) + " measured rows: " + pct(*v.mape, 2)
             : "no measured rows";
  if (f == Format::md)
    return "**" + md_cell(title) + "**\n\n" + markdown(g) + "\n" + summary + "\n";
  return title + "\n" + table(g) + summary + "\n";
}

} // namespace perfmodel::report
