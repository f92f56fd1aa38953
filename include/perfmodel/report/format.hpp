// Output formats and the number formatting every human-readable view shares.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfmodel::report {

enum class Format { table, csv, json, md };
std::optional<Format> parse_format(std::string_view s);

/// boda's pp_val: scale by 1000 until 1 <= |v| < 1000, then %.2f below 10, %.1f below 100,
/// %.0f below 1000, with a decimal SI prefix (K M G T P E, m u n p f) and the unit appended:
/// si(3091740, "B") == "3.09MB", si(465e-6, "s") == "465us". Zero prints as "0" + unit.
std::string si(double v, std::string_view unit);

/// A fraction as a percentage: pct(0.1234) == "12.3%"; `sign` prints "+" for positive values.
std::string pct(double fraction, int decimals = 1, bool sign = false);

/// A Markdown table (cells escaped with md_cell), ending with a newline.
std::string md_table(const std::vector<std::string> &header,
                     const std::vector<std::vector<std::string>> &rows);

/// A raw SI number for CSV: the shortest text that reads back to the same double.
std::string raw(double v);

/// RFC 4180 field quoting: quotes fields holding a comma, quote, CR or LF.
std::string csv_field(std::string_view s);

/// A Markdown table cell: escapes '|' and newlines.
std::string md_cell(std::string_view s);

} // namespace perfmodel::report
