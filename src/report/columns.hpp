// Views from one column list. A view computes its rows once (a small struct per row), declares
// each column once (JSON key, header, unit hint, getter) and the table, CSV, Markdown and JSON
// renderers all derive from that list: adding a field is one line.
//
// How a value prints follows its column's unit hint. A raw SI number (seconds, bytes, FLOPs,
// joules) is SI-prefixed in the table and Markdown (report::si, 3 significant digits: "465us"),
// raw in CSV with the unit in the header ("time (s)") and a plain number in JSON.
//
//   const std::vector<Column<Point>> cols = {
//       {"name", "layer", hint::text(), &Point::name},
//       {"seconds", "time", hint::si("s"), &Point::seconds},
//       {"share", "share", hint::percent(), &Point::share, kText},  // table and Markdown only
//   };
//   const Grid g = make_grid(cols, points);
//   table(g); csv(g); markdown(g); json_rows(g);
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "perfmodel/report/format.hpp"

namespace perfmodel::report {

using Json = nlohmann::ordered_json;

/// One cell. std::monostate: the row has no value in this column (a time not measured, a
/// point skipped): the text formats print the column's `missing`, CSV an empty field, and JSON
/// leaves the key out (or writes null where the column says so).
using Value = std::variant<std::monostate, std::string, int64_t, double, bool, Json>;

/// How a column prints its values, per format.
///   text     as is (the table and Markdown cut text longer than `width` > 3 to `width`
///            characters ending in "...", or with "..." in the middle when `middle`; a
///            `middle` column is also what the table shortens to fit Style::max_width)
///   count    an integer, the same in every format
///   si       SI-prefixed with `symbol` in text ("1.21ms"); raw in CSV (integers whole, doubles
///            by Style::csv_digits) with "header (symbol)" as the CSV header; a number in JSON
///   percent  a fraction as a percentage in text ("12.3%", `digits` decimals, `sign`: "+");
///            the raw fraction in CSV and JSON
///   number   %.<digits>g in text; raw in CSV; a number in JSON
///   flag     a bool: words[0]/[1] in text, words[2]/[3] in CSV, true/false in JSON
struct Unit {
  enum class Kind { text, count, si, percent, number, flag };
  Kind kind = Kind::text;
  std::string symbol;             // si: the unit after the prefix ("s", "F/s")
  int digits = 1;                 // percent: decimals; number: significant digits
  bool sign = false;              // percent: "+" before a positive value
  size_t width = 0;               // text: the table and Markdown cut longer text (0: never)
  bool middle = false;            // text: cut in the middle, keeping both ends
  bool zero_unset = false;        // 0 or "" means "not given": the text formats print `missing`
  double json_per = 0;            // JSON rounds to a whole number of 1/json_per (0: as is)
  std::vector<std::string> words; // flag: text true, text false, CSV true, CSV false

  /// Chainable refinements.
  Unit unset_when_zero() const;
  /// JSON rounds to whole 1/per: rounded_in_json(1e9) on seconds keeps whole nanoseconds.
  Unit rounded_in_json(double per) const;
  /// Text cut with "..." in the middle ("/layer1/la...Normalization"), keeping both ends.
  Unit cut_in_middle() const;
};

/// `s` cut to `width` characters with "..." in the middle (as is when it fits or width <= 3).
std::string cut_middle(const std::string &s, size_t width);

/// The unit hints, by name: hint::si("s"), hint::percent(1, true), ...
namespace hint {
Unit text(size_t width = 0);
Unit count();
Unit si(std::string symbol);
Unit percent(int decimals = 1, bool sign = false);
Unit number(int significant_digits);
Unit flag(std::string text_true, std::string text_false, std::string csv_true = "true",
          std::string csv_false = "false");
} // namespace hint

/// The formats a column shows in (a bit set).
enum Show : unsigned {
  kTable = 1,
  kCsv = 2,
  kJson = 4,
  kMd = 8,
  kText = kTable | kMd,
  kData = kCsv | kJson,
  kAll = kTable | kCsv | kJson | kMd,
};

/// What a column is, apart from how it reads a row.
struct ColumnSpec {
  std::string key;    // the JSON key
  std::string header; // the table and Markdown header
  Unit unit;
  unsigned show = kAll;
  std::string csv;           // the CSV header; "" = `header`, plus " (symbol)" for an si unit
  std::string missing;       // the text formats' cell for a row without a value
  bool json_null = false;    // JSON writes null for a row without a value (else leaves it out)
  std::optional<bool> right; // Markdown alignment; unset: numbers right, text left
  bool detail = false;       // the table and Markdown show it only when Style::details is set

  bool shows(Format f) const;
  std::string csv_header() const;
  bool right_aligned() const;
};

/// A Value from what a getter returns: strings, integers, doubles, bools, JSON, optionals of
/// those (nullopt: no value) or a Value.
inline Value to_value(Value v) { return v; }
inline Value to_value(std::string s) { return Value(std::move(s)); }
inline Value to_value(const char *s) { return Value(std::string(s)); }
inline Value to_value(std::string_view s) { return Value(std::string(s)); }
inline Value to_value(bool b) { return Value(b); }
inline Value to_value(double d) { return Value(d); }
inline Value to_value(Json j) { return Value(std::move(j)); }
template <class T>
requires std::is_integral_v<T> &&(!std::is_same_v<T, bool>)Value to_value(T i) {
  return Value(static_cast<int64_t>(i));
}
template <class T> Value to_value(const std::optional<T> &o) { return o ? to_value(*o) : Value(); }

/// One column of a view over rows of type Row. The getter is a pointer to a data member of
/// Row, a callable of `const Row &`, or a callable of `(const Row &, size_t index)` (a rank).
template <class Row> struct Column : ColumnSpec {
  std::function<Value(const Row &, size_t)> get;

  template <class Get>
  Column(std::string key, std::string header, Unit unit, Get g, unsigned show = kAll) {
    this->key = std::move(key);
    this->header = std::move(header);
    this->unit = std::move(unit);
    this->show = show;
    if constexpr (std::is_member_object_pointer_v<Get>)
      get = [g](const Row &r, size_t) { return to_value(r.*g); };
    else if constexpr (std::is_invocable_v<Get, const Row &, size_t>)
      get = [g](const Row &r, size_t i) { return to_value(g(r, i)); };
    else
      get = [g](const Row &r, size_t) { return to_value(g(r)); };
  }
  /// Refinements, chainable after the constructor.
  Column &&csv_as(std::string h) && {
    csv = std::move(h);
    return std::move(*this);
  }
  Column &&missing_as(std::string m) && {
    missing = std::move(m);
    return std::move(*this);
  }
  Column &&null_in_json() && {
    json_null = true;
    return std::move(*this);
  }
  Column &&align_right(bool r) && {
    right = r;
    return std::move(*this);
  }
  Column &&as_detail() && {
    detail = true;
    return std::move(*this);
  }
};

/// How a view lays out its formats (one per view, where it differs from the default).
struct Style {
  int csv_digits = 0;     // CSV doubles: 0 = the shortest text that reads back the same double
                          // (report::raw), else %.<csv_digits>g
  bool md_spaced = false; // Markdown rule "| --- |" instead of "|---|"
  bool md_aligned = true; // Markdown rule marks right-aligned columns ("---:")
  bool details = true;    // the table and Markdown show the columns marked `detail`
  size_t max_width = 0;   // the table shortens its `middle` text columns (to no less than 12
                          // characters) so that lines fit this width; 0: no limit
};

/// The data set a view renders: its columns and, per row, one Value per column.
struct Grid {
  std::vector<ColumnSpec> columns;
  std::vector<std::vector<Value>> rows;
  /// Per row ("" = none): a note that replaces, in the table and Markdown, the row's cells
  /// from its first value-less table column on (a sweep point that was skipped). The table's
  /// column widths do not count it.
  std::vector<std::string> spans;
  /// Rows of preformatted cells the table and Markdown print after `rows` (one per text
  /// column; a trace's "share" row).
  std::vector<std::vector<std::string>> text_rows;
  Style style;
};

/// Evaluates every column's getter once per row.
template <class Row, class Rows>
Grid make_grid(const std::vector<Column<Row>> &cols, const Rows &rows, Style style = {},
               const std::function<std::string(const Row &)> &span = {}) {
  Grid g;
  g.style = style;
  for (const auto &c : cols)
    g.columns.push_back(c);
  size_t i = 0;
  for (const Row &r : rows) {
    std::vector<Value> vals;
    vals.reserve(cols.size());
    for (const auto &c : cols)
      vals.push_back(c.get(r, i));
    ++i;
    g.rows.push_back(std::move(vals));
    g.spans.push_back(span ? span(r) : std::string());
  }
  return g;
}

/// One cell as format `f` prints it (f: table, md or csv; CSV fields are not quoted here).
std::string format_cell(const ColumnSpec &c, const Value &v, Format f, const Style &s = {});

/// Whether format `f` shows column `i` of `g` (its `show` bits, and Style::details for a
/// detail column in the table and Markdown).
bool visible(const Grid &g, size_t i, Format f);

/// The headers of the columns format `f` shows.
std::vector<std::string> headers(const Grid &g, Format f);
/// Row `r`'s cells in format `f` (table, md or csv), spans not applied.
std::vector<std::string> cells(const Grid &g, size_t r, Format f);

/// Header and rows padded to each column's widest cell, two spaces apart, trailing spaces
/// trimmed, one line each.
std::string table(const Grid &g);
/// A table in pieces (a view streaming its rows in chunks, each a Grid): widen_table widens
/// `w` to the cells of a chunk (and the header when `header`), and once every chunk has been
/// measured table_lines prints each with those widths; the lines equal table()'s for a Style
/// without max_width.
void widen_table(const Grid &g, bool header, std::vector<size_t> &w);
std::string table_lines(const Grid &g, bool header, const std::vector<size_t> &w);
/// Header line (unless !header: a later chunk of rows) and one line per row, RFC 4180 quoted.
std::string csv(const Grid &g, bool header = true);
/// A Markdown table: header and rule (unless !header), rows.
std::string markdown(const Grid &g, bool header = true);
/// Row `r` as a JSON object (the JSON columns in order).
Json json_row(const Grid &g, size_t r);
/// Every row as a JSON array of objects.
Json json_rows(const Grid &g);

} // namespace perfmodel::report
