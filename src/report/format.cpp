// Number and cell formatting shared by the human-readable views.
#include "perfmodel/report/format.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace perfmodel::report {

std::optional<Format> parse_format(std::string_view s) {
  if (s == "table")
    return Format::table;
  if (s == "csv")
    return Format::csv;
  if (s == "json")
    return Format::json;
  if (s == "md" || s == "markdown")
    return Format::md;
  return std::nullopt;
}

std::string si(double v, std::string_view unit) {
  if (v == 0 || !std::isfinite(v)) {
    return (std::isfinite(v) ? std::string("0") : std::string("inf")) + std::string(unit);
  }
  static const char *const big[] = {"", "K", "M", "G", "T", "P", "E"};
  static const char *const small[] = {"", "m", "u", "n", "p", "f"};
  const double sign = v < 0 ? -1.0 : 1.0;
  double a = std::fabs(v);
  int e = 0;
  while (a >= 1000 && e < 6) {
    a /= 1000;
    ++e;
  }
  while (a < 1 && e > -5) {
    a *= 1000;
    --e;
  }
  // Rounding may carry into the next decade (999.6 -> "1000"): rescale once more.
  if (a >= 999.5 && e < 6) {
    a /= 1000;
    ++e;
  }
  // Choose the precision by the rounded value, so 9.999 prints "10.0", not "10.00".
  const int decimals = a < 9.995 ? 2 : a < 99.95 ? 1 : 0;
  return fmt::format("{:.{}f}{}{}", sign * a, decimals, e >= 0 ? big[e] : small[-e], unit);
}

std::string raw(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

std::string pct(double fraction, int decimals, bool sign) {
  return sign ? fmt::format("{:+.{}f}%", 100.0 * fraction, decimals)
              : fmt::format("{:.{}f}%", 100.0 * fraction, decimals);
}

std::string md_table(const std::vector<std::string> &header,
                     const std::vector<std::vector<std::string>> &rows) {
  std::string out = "|";
  for (const auto &h : header)
    out += " " + md_cell(h) + " |";
  out += "\n|";
  for (size_t i = 0; i < header.size(); ++i)
    out += "---|";
  out += "\n";
  for (const auto &r : rows) {
    out += "|";
    for (const auto &c : r)
      out += " " + md_cell(c) + " |";
    out += "\n";
  }
  return out;
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos)
    return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"')
      out += '"';
    out += c;
  }
  return out + "\"";
}

std::string md_cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

} // namespace perfmodel::report
