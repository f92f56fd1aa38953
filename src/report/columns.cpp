// The four renderers of a Grid, and how each unit hint prints a value.
#include "report/columns.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace perfmodel::report {

Unit Unit::unset_when_zero() const {
  Unit u = *this;
  u.zero_unset = true;
  return u;
}

Unit Unit::rounded_in_json(double per) const {
  Unit u = *this;
  u.json_per = per;
  return u;
}

Unit Unit::cut_in_middle() const {
  Unit u = *this;
  u.middle = true;
  return u;
}

std::string cut_middle(const std::string &s, size_t width) {
  if (width <= 3 || s.size() <= width)
    return s;
  const size_t keep = width - 3, tail = keep / 2;
  return s.substr(0, keep - tail) + "..." + s.substr(s.size() - tail);
}

namespace hint {
Unit text(size_t width) {
  Unit u;
  u.width = width;
  return u;
}
Unit count() {
  Unit u;
  u.kind = Unit::Kind::count;
  return u;
}
Unit si(std::string symbol) {
  Unit u;
  u.kind = Unit::Kind::si;
  u.symbol = std::move(symbol);
  return u;
}
Unit percent(int decimals, bool sign) {
  Unit u;
  u.kind = Unit::Kind::percent;
  u.digits = decimals;
  u.sign = sign;
  return u;
}
Unit number(int significant_digits) {
  Unit u;
  u.kind = Unit::Kind::number;
  u.digits = significant_digits;
  return u;
}
Unit flag(std::string text_true, std::string text_false, std::string csv_true,
          std::string csv_false) {
  Unit u;
  u.kind = Unit::Kind::flag;
  u.words = {std::move(text_true), std::move(text_false), std::move(csv_true),
             std::move(csv_false)};
  return u;
}
} // namespace hint

bool ColumnSpec::shows(Format f) const {
  switch (f) {
  case Format::table:
    return show & kTable;
  case Format::csv:
    return show & kCsv;
  case Format::json:
    return show & kJson;
  case Format::md:
    return show & kMd;
  }
  return false;
}

std::string ColumnSpec::csv_header() const {
  if (!csv.empty())
    return csv;
  if (unit.kind == Unit::Kind::si && !unit.symbol.empty())
    return header + " (" + unit.symbol + ")";
  return header;
}

bool ColumnSpec::right_aligned() const {
  if (right)
    return *right;
  return unit.kind != Unit::Kind::text && unit.kind != Unit::Kind::flag;
}

namespace {

double as_double(const Value &v) {
  if (const auto *d = std::get_if<double>(&v))
    return *d;
  if (const auto *i = std::get_if<int64_t>(&v))
    return static_cast<double>(*i);
  if (const auto *b = std::get_if<bool>(&v))
    return *b ? 1.0 : 0.0;
  return 0.0;
}

bool is_zero(const Value &v) {
  if (const auto *s = std::get_if<std::string>(&v))
    return s->empty();
  if (std::holds_alternative<double>(v) || std::holds_alternative<int64_t>(v))
    return as_double(v) == 0;
  return false;
}

// CSV's raw number: integers whole, doubles by the view's digits.
std::string raw_number(const Value &v, const Style &s) {
  if (const auto *i = std::get_if<int64_t>(&v))
    return std::to_string(*i);
  const double d = as_double(v);
  return s.csv_digits > 0 ? fmt::format("{:.{}g}", d, s.csv_digits) : raw(d);
}

std::string text_of(const Value &v) {
  if (const auto *s = std::get_if<std::string>(&v))
    return *s;
  if (const auto *j = std::get_if<Json>(&v))
    return j->is_string() ? j->get<std::string>()
                          : j->dump(-1, ' ', false, Json::error_handler_t::replace);
  if (const auto *i = std::get_if<int64_t>(&v))
    return std::to_string(*i);
  if (const auto *b = std::get_if<bool>(&v))
    return *b ? "true" : "false";
  if (std::holds_alternative<double>(v))
    return raw(std::get<double>(v));
  return "";
}

} // namespace

std::string format_cell(const ColumnSpec &c, const Value &v, Format f, const Style &s) {
  const Unit &u = c.unit;
  const bool text_format = f != Format::csv;
  if (std::holds_alternative<std::monostate>(v))
    return text_format ? c.missing : "";
  if (text_format && u.zero_unset && is_zero(v))
    return c.missing;
  switch (u.kind) {
  case Unit::Kind::text: {
    std::string t = text_of(v);
    if (text_format && u.width > 3 && t.size() > u.width)
      t = u.middle ? cut_middle(t, u.width) : t.substr(0, u.width - 3) + "...";
    return t;
  }
  case Unit::Kind::count:
    return std::holds_alternative<int64_t>(v) ? std::to_string(std::get<int64_t>(v))
                                              : raw_number(v, s);
  case Unit::Kind::si:
    return text_format ? si(as_double(v), u.symbol) : raw_number(v, s);
  case Unit::Kind::percent:
    return text_format ? pct(as_double(v), u.digits, u.sign) : raw_number(v, s);
  case Unit::Kind::number:
    return text_format ? fmt::format("{:.{}g}", as_double(v), u.digits) : raw_number(v, s);
  case Unit::Kind::flag: {
    const bool on = std::holds_alternative<bool>(v) ? std::get<bool>(v) : as_double(v) != 0;
    const size_t at = (text_format ? 0 : 2) + (on ? 0 : 1);
    return at < u.words.size() ? u.words[at] : (on ? "true" : "false");
  }
  }
  return "";
}

bool visible(const Grid &g, size_t i, Format f) {
  const ColumnSpec &c = g.columns[i];
  if (!c.shows(f))
    return false;
  return !c.detail || g.style.details || f == Format::csv || f == Format::json;
}

std::vector<std::string> headers(const Grid &g, Format f) {
  std::vector<std::string> h;
  for (size_t i = 0; i < g.columns.size(); ++i)
    if (visible(g, i, f)) {
      const ColumnSpec &c = g.columns[i];
      h.push_back(f == Format::csv ? c.csv_header() : f == Format::json ? c.key : c.header);
    }
  return h;
}

std::vector<std::string> cells(const Grid &g, size_t r, Format f) {
  std::vector<std::string> out;
  for (size_t i = 0; i < g.columns.size(); ++i)
    if (visible(g, i, f))
      out.push_back(format_cell(g.columns[i], g.rows[r][i], f, g.style));
  return out;
}

namespace {

// The cells format f (table or md) prints for row r, the span applied: `spanned` is set when
// the last cell is a span note.
std::vector<std::string> text_cells(const Grid &g, size_t r, Format f, bool &spanned) {
  spanned = false;
  if (g.spans[r].empty())
    return cells(g, r, f);
  std::vector<std::string> out;
  for (size_t i = 0; i < g.columns.size(); ++i) {
    if (!visible(g, i, f))
      continue;
    const bool empty = std::holds_alternative<std::monostate>(g.rows[r][i]);
    if (!spanned && empty && g.columns[i].shows(Format::table)) {
      out.push_back(g.spans[r]);
      spanned = true;
      if (f == Format::table)
        break;
    } else {
      out.push_back(spanned ? std::string() : format_cell(g.columns[i], g.rows[r][i], f, g.style));
    }
  }
  return out;
}

} // namespace

namespace {

// The table's lines before padding: the header (when asked for), the rows with their spans,
// the text rows; `spanned[r]`: row r's last cell is a span note (not counted in the widths).
struct TableCells {
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> spanned;
};

TableCells table_cells(const Grid &g, bool header) {
  TableCells t;
  if (header) {
    t.rows.push_back(headers(g, Format::table));
    t.spanned.push_back(false);
  }
  for (size_t r = 0; r < g.rows.size(); ++r) {
    bool s = false;
    t.rows.push_back(text_cells(g, r, Format::table, s));
    t.spanned.push_back(s);
  }
  for (const auto &row : g.text_rows) {
    t.rows.push_back(row);
    t.spanned.push_back(false);
  }
  return t;
}

} // namespace

void widen_table(const Grid &g, bool header, std::vector<size_t> &w) {
  const TableCells t = table_cells(g, header);
  const size_t n = headers(g, Format::table).size();
  w.resize(n, 0);
  for (size_t r = 0; r < t.rows.size(); ++r)
    for (size_t i = 0; i < t.rows[r].size() && i < n; ++i)
      if (!(t.spanned[r] && i + 1 == t.rows[r].size()))
        w[i] = std::max(w[i], t.rows[r][i].size());
}

std::string table_lines(const Grid &g, bool header, const std::vector<size_t> &w) {
  const TableCells t = table_cells(g, header);
  std::string out;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    std::string line;
    const size_t m = t.spanned[r] ? t.rows[r].size() : w.size();
    for (size_t i = 0; i < m; ++i) {
      const std::string cell = i < t.rows[r].size() ? t.rows[r][i] : "";
      line += cell;
      if (i + 1 < m)
        line += std::string(w[i] - std::min(w[i], cell.size()) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string table(const Grid &g) {
  if (g.style.max_width == 0) { // no column to shorten: the two passes a stream makes
    std::vector<size_t> w;
    widen_table(g, true, w);
    return table_lines(g, true, w);
  }
  std::vector<std::vector<std::string>> rows{headers(g, Format::table)};
  std::vector<bool> spanned{false};
  for (size_t r = 0; r < g.rows.size(); ++r) {
    bool s = false;
    rows.push_back(text_cells(g, r, Format::table, s));
    spanned.push_back(s);
  }
  for (const auto &t : g.text_rows) {
    rows.push_back(t);
    spanned.push_back(false);
  }
  const size_t n = rows[0].size();
  std::vector<size_t> w(n, 0);
  auto measure = [&] {
    std::fill(w.begin(), w.end(), 0);
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t i = 0; i < rows[r].size() && i < n; ++i)
        if (!(spanned[r] && i + 1 == rows[r].size()))
          w[i] = std::max(w[i], rows[r][i].size());
  };
  measure();
  if (g.style.max_width > 0) {
    // The widest `middle` column gives up what the line is over (down to 12 characters).
    size_t line = n > 0 ? 2 * (n - 1) : 0, widest = n;
    std::vector<size_t> shown; // table column index -> grid column index
    for (size_t i = 0; i < g.columns.size(); ++i)
      if (visible(g, i, Format::table))
        shown.push_back(i);
    for (size_t i = 0; i < n; ++i) {
      line += w[i];
      if (i < shown.size() && g.columns[shown[i]].unit.middle && (widest == n || w[i] > w[widest]))
        widest = i;
    }
    const size_t floor = std::max<size_t>(12, widest < n ? rows[0][widest].size() : 0);
    if (line > g.style.max_width && widest < n && w[widest] > floor) {
      const size_t to = std::max(floor, w[widest] - (line - g.style.max_width));
      for (size_t r = 1; r < rows.size(); ++r)
        if (widest < rows[r].size() && !(spanned[r] && widest + 1 == rows[r].size()))
          rows[r][widest] = cut_middle(rows[r][widest], to);
      measure();
    }
  }
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    const size_t m = spanned[r] ? rows[r].size() : n;
    for (size_t i = 0; i < m; ++i) {
      const std::string cell = i < rows[r].size() ? rows[r][i] : "";
      line += cell;
      if (i + 1 < m)
        line += std::string(w[i] - std::min(w[i], cell.size()) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string csv(const Grid &g, bool header) {
  auto line = [](const std::vector<std::string> &cells) {
    std::string s;
    for (size_t i = 0; i < cells.size(); ++i)
      s += (i ? "," : "") + csv_field(cells[i]);
    return s + "\n";
  };
  std::string out = header ? line(headers(g, Format::csv)) : std::string();
  for (size_t r = 0; r < g.rows.size(); ++r)
    out += line(cells(g, r, Format::csv));
  return out;
}

std::string markdown(const Grid &g, bool header) {
  auto line = [](const std::vector<std::string> &cells) {
    std::string s = "|";
    for (const auto &c : cells)
      s += " " + md_cell(c) + " |";
    return s + "\n";
  };
  std::string out;
  if (header) {
    out = line(headers(g, Format::md)) + "|";
    for (size_t i = 0; i < g.columns.size(); ++i) {
      const ColumnSpec &c = g.columns[i];
      if (!visible(g, i, Format::md))
        continue;
      const char *rule = g.style.md_aligned && c.right_aligned() ? "---:" : "---";
      out += g.style.md_spaced ? std::string(" ") + rule + " |" : std::string(rule) + "|";
    }
    out += "\n";
  }
  for (size_t r = 0; r < g.rows.size(); ++r) {
    bool s = false;
    out += line(text_cells(g, r, Format::md, s));
  }
  for (const auto &t : g.text_rows)
    out += line(t);
  return out;
}

Json json_row(const Grid &g, size_t r) {
  Json o = Json::object();
  for (size_t i = 0; i < g.columns.size(); ++i) {
    const ColumnSpec &c = g.columns[i];
    if (!visible(g, i, Format::json))
      continue;
    const Value &v = g.rows[r][i];
    if (std::holds_alternative<std::monostate>(v)) {
      if (c.json_null)
        o[c.key] = nullptr;
    } else if (const auto *s = std::get_if<std::string>(&v)) {
      o[c.key] = *s;
    } else if (const auto *n = std::get_if<int64_t>(&v)) {
      o[c.key] = *n;
    } else if (const auto *d = std::get_if<double>(&v)) {
      const double per = c.unit.json_per;
      o[c.key] = per > 0 ? std::round(*d * per) / per : *d;
    } else if (const auto *b = std::get_if<bool>(&v)) {
      o[c.key] = *b;
    } else {
      o[c.key] = std::get<Json>(v);
    }
  }
  return o;
}

Json json_rows(const Grid &g) {
  Json a = Json::array();
  for (size_t r = 0; r < g.rows.size(); ++r)
    a.push_back(json_row(g, r));
  return a;
}

} // namespace perfmodel::report
