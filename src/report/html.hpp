// Pieces of the HTML report (internal to report): escaping, tables from Grids, the page's inline
// style sheet and script, and the SVG plots. html_report.cpp puts them together.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfmodel/predict.hpp"
#include "perfmodel/report/roofline_view.hpp"
#include "report/columns.hpp"

namespace perfmodel::report::html {

/// `s` as HTML text or a quoted attribute value: & < > " ' escaped, control characters other
/// than tab and newline and bytes that are not UTF-8 replaced by U+FFFD, so that no user string
/// can open an element, end an attribute or hide text.
std::string esc(std::string_view s);

/// A number for an attribute or SVG coordinate ("%.6g"; finite values only, else "0").
std::string num(double v);

/// The colour of a bound (compute, memory, overhead, none) for SVG fills; the page's CSS uses
/// the same colours for the table's bound pills (class "b-<bound>").
std::string_view bound_color(std::string_view bound);

struct TableOptions {
  std::string id;        // the element id ("" = none)
  bool sortable = true;  // headers sort the rows (the page's script)
  std::string name_key;  // the column shown as a long name: cut with an ellipsis, whole on hover
  std::string bound_key; // the column whose text is a bound, drawn as a coloured pill
};

/// A <table> of the Grid's table columns (its Style's `details` says whether the detail
/// columns show): cells as the text table prints them, numbers right
/// aligned, every numeric cell carrying its raw value (data-v) for sorting, each header its
/// column key (data-key) and type (data-type="num" or "text"); the Grid's text rows go to a
/// <tfoot> that sorting leaves in place.
std::string table(const Grid &g, const TableOptions &o);

/// The page's <style> and <script> contents (no user data).
std::string_view stylesheet();
std::string_view script();

/// One segment of a share bar: its label, value (any unit; shares are value / sum) and colour.
struct Segment {
  std::string label;
  double value = 0;
  std::string color;
  std::string detail; // shown after the share in the legend ("1.23ms")
};
/// A horizontal bar of segments with a legend (label, share, detail) below; HTML and CSS.
std::string share_bar(const std::vector<Segment> &segments);

/// The roofline: log-log FLOP/byte against FLOP/s, the ceilings of the data types used, a
/// diagonal per memory level, the ridge points, one circle per drawable layer (area ~ time,
/// colour = bound, a <title> with its figures), measured points hollow, the `labels` slowest
/// layers named.
std::string roofline_svg(const RooflineData &d, size_t labels);

/// The slowest layers of `p` (at most `top`, 0 = all with time): a bar per layer (its share of
/// the layers' time, coloured by bound) and its cumulative share.
std::string profile_svg(const Prediction &p, size_t top);

/// Predicted against measured layer time (log-log) for the points with a measured time, with
/// the line of equality and factor-of-two bands.
std::string measured_svg(const RooflineData &d);

} // namespace perfmodel::report::html
