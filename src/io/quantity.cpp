// Quantity parsing with SI and binary prefixes.
#include "io/quantity.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace perfmodel::io {

std::optional<double> parse_quantity(std::string_view text, std::string_view unit,
                                     std::string *error) {
  auto fail = [&](const std::string &msg) -> std::optional<double> {
    if (error)
      *error = msg;
    return std::nullopt;
  };
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || !std::isfinite(value))
    return fail("expected a number with unit " + std::string(unit) + ", got '" + std::string(text) +
                "'");
  std::string_view rest(end, static_cast<size_t>(text.data() + text.size() - end));
  while (!rest.empty() && rest.front() == ' ')
    rest.remove_prefix(1);
  if (rest.empty())
    return value;
  if (rest.size() < unit.size() || rest.substr(rest.size() - unit.size()) != unit)
    return fail("expected unit " + std::string(unit) + " in '" + std::string(text) + "'");
  const std::string_view prefix = rest.substr(0, rest.size() - unit.size());
  static const std::array<std::pair<std::string_view, double>, 15> prefixes{{
      {"", 1},
      {"f", 1e-15},
      {"p", 1e-12},
      {"n", 1e-9},
      {"u", 1e-6},
      {"m", 1e-3},
      {"k", 1e3},
      {"K", 1e3},
      {"M", 1e6},
      {"G", 1e9},
      {"T", 1e12},
      {"P", 1e15},
      {"Ki", 1024.0},
      {"Mi", 1048576.0},
      {"Gi", 1073741824.0},
  }};
  for (const auto &[p, scale] : prefixes)
    if (p == prefix)
      return value * scale;
  if (prefix == "Ti")
    return value * 1099511627776.0;
  return fail("unknown unit prefix '" + std::string(prefix) + "' in '" + std::string(text) + "'");
}

} // namespace perfmodel::io
